// `q` search (names only) across every plain data room the caller has a role in (on the room or on a folder of
// it): matching room names, then each room's folders and files through the per-room search (same
// role and trash rules, paths included). E2E rooms are skipped: their names are ciphertext here.
import type { RoomsSearchResult } from '@shared/contract/room-search';
import type { RoomRole } from '@shared/contract/rooms';
import { foldedIncludes, foldForSearch } from '@shared/contract/search-fold';
import { sql } from 'kysely';
import { personName } from '../kind/activity';
import type { RequestContext } from '../../core/request-context';
import { toRoom } from './rooms';
import { searchRoom } from './search';
import { roomIsOfKind } from '../kind/room-kind';

export async function searchAllRooms(ctx: RequestContext, query: { q: string; pageSize: number }): Promise<RoomsSearchResult> {
  const { app, user } = ctx;
  const { pageSize } = query;
  const rows = await app.db
    .selectFrom('data_rooms')
    .innerJoin('room_access', 'room_access.room_id', 'data_rooms.id')
    .leftJoin('users', 'users.id', 'data_rooms.created_by')
    .selectAll('data_rooms')
    .select(['room_access.role', 'room_access.folder_id', 'users.email as creator', 'users.first_name', 'users.last_name'])
    .where('room_access.user_id', '=', user.id)
    .where('data_rooms.deleted_at', 'is', null)
    .where(roomIsOfKind('data_rooms', 'plain'))
    .orderBy(sql`lower(data_rooms.name)`)
    .orderBy('data_rooms.id')
    .execute();
  // One room per id; its room-level entry (folder_id null) is its role on the room itself.
  const rooms = new Map<number, { row: (typeof rows)[number]; roomRole: RoomRole | null }>();
  for (const row of rows) {
    const seen = rooms.get(row.id) ?? { row, roomRole: null };
    if (row.folder_id === null) seen.roomRole = row.role as RoomRole;
    rooms.set(row.id, seen);
  }
  const needle = foldForSearch(query.q);
  const result: RoomsSearchResult = { rooms: [], folders: [], files: [], truncated: false };
  for (const { row, roomRole } of rooms.values()) {
    if (roomRole && foldedIncludes(row.name, needle)) result.rooms.push(toRoom(row, roomRole, row.creator ?? '', row.creator ? personName(row) : null));
    // Ask one more than fits, so a cut list says so.
    const hits = await searchRoom(ctx, row.uuid, { q: query.q, pageSize: pageSize + 1 }, false);
    const ref = { uuid: row.uuid, name: row.name };
    result.folders.push(...hits.folders.map((f) => ({ ...f, room: ref })));
    result.files.push(...hits.files.map((f) => ({ ...f, room: ref })));
  }
  result.truncated = result.rooms.length > pageSize || result.folders.length > pageSize || result.files.length > pageSize;
  result.rooms = result.rooms.slice(0, pageSize);
  result.folders = result.folders.slice(0, pageSize);
  result.files = result.files.slice(0, pageSize);
  return result;
}
