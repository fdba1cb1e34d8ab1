// Storage quotas per room and per user (issue 32; shared/contract/storage-quotas.ts, server/README
// "Storage quotas"). Announced files count at once (their rows carry the size), so two uploads
// announced side by side cannot both squeeze into the last free bytes.
import { USER_QUOTA_SETTING_KEY, type QuotaScope } from '@shared/contract/storage-quotas';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

const zero = sql<number>`0`;

/** What a room stores: its files (in the trash too) and their earlier versions. */
export const roomUsed = (db: Kysely<Database>, roomId: number): Promise<number> => roomsUsed(db, 'data_rooms.id', roomId);

async function roomsUsed(db: Kysely<Database>, column: 'data_rooms.id' | 'data_rooms.created_by', value: number): Promise<number> {
  const files = await db
    .selectFrom('room_files')
    .innerJoin('data_rooms', 'data_rooms.id', 'room_files.room_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('room_files.size'), zero).as('total'))
    .where(column, '=', value)
    .executeTakeFirstOrThrow();
  const versions = await db
    .selectFrom('room_file_versions')
    .innerJoin('room_files', 'room_files.id', 'room_file_versions.file_id')
    .innerJoin('data_rooms', 'data_rooms.id', 'room_files.room_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('room_file_versions.size'), zero).as('total'))
    .where(column, '=', value)
    .executeTakeFirstOrThrow();
  return Number(files.total) + Number(versions.total);
}

/** What a user stores: the deliveries they sent that still hold bytes and the rooms they created. */
export async function userUsed(db: Kysely<Database>, userId: number): Promise<number> {
  const deliveries = await db
    .selectFrom('delivery_files')
    .innerJoin('deliveries', 'deliveries.id', 'delivery_files.delivery_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delivery_files.size'), zero).as('total'))
    .where('deliveries.sender_id', '=', userId)
    .where('deliveries.status', '!=', 'deleted')
    .where('deliveries.purged_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(deliveries.total) + (await roomsUsed(db, 'data_rooms.created_by', userId));
}

/** The quota in force for a user: their own, else the default setting (0 = none); null: none. */
export async function userQuotaInForce(app: FastifyInstance, userId: number): Promise<number | null> {
  const row = await app.db.selectFrom('users').select('storage_quota').where('id', '=', userId).executeTakeFirst();
  if (row && row.storage_quota !== null) return Number(row.storage_quota);
  const fallback = Number(await app.settings.get<number>(USER_QUOTA_SETTING_KEY));
  return fallback > 0 ? fallback : null;
}

/** Who an upload is charged to: the room it lands in (and so the room's creator) or the sending user. */
export interface QuotaCharge {
  roomId?: number;
  userId?: number | null;
}

/** The tightest room/user quota of a charge: bytes still free under it and which one; null when none applies. */
export async function quotaHeadroom(app: FastifyInstance, charge: QuotaCharge): Promise<{ available: number; scope: QuotaScope } | null> {
  let tightest: { available: number; scope: QuotaScope } | null = null;
  const consider = (quota: number | null, used: number, scope: QuotaScope) => {
    if (quota === null) return;
    const available = Math.max(0, quota - used);
    if (tightest === null || available < tightest.available) tightest = { available, scope };
  };
  let userId = charge.userId ?? null;
  if (charge.roomId !== undefined) {
    const room = await app.db.selectFrom('data_rooms').select(['storage_quota', 'created_by']).where('id', '=', charge.roomId).executeTakeFirst();
    if (room) {
      consider(room.storage_quota === null ? null : Number(room.storage_quota), await roomUsed(app.db, charge.roomId), 'room');
      // A room's bytes count against its creator's quota (server/README "Storage quotas").
      userId = room.created_by;
    }
  }
  if (userId !== null) consider(await userQuotaInForce(app, userId), await userUsed(app.db, userId), 'user');
  return tightest;
}
