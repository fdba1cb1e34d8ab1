import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { RoomRow } from './roles';
import { roomKindFlag, type RoomKind } from './room-kind';

/** A new room of either kind with its creator as OWNER, in one transaction (plain and Secure rooms alike). */
export function insertRoomWithOwner(db: Kysely<Database>, room: { uuid: string; name: string; kind: RoomKind }, creatorId: number, now: number): Promise<RoomRow> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('data_rooms')
      .values({ uuid: room.uuid, name: room.name, encrypted: roomKindFlag(room.kind), created_by: creatorId, created_at: now, updated_at: now, deleted_at: null, deleted_by: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('room_access')
      .values({ room_id: row.id, folder_id: null, user_id: creatorId, role: 'OWNER', wrapped_key: null, granted_by: creatorId, created_at: now })
      .execute();
    return row;
  });
}
