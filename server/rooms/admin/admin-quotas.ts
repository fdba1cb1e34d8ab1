// Storage quotas per room and per user in the administration (issue 32; shared/contract/storage-quotas.ts,
// server/README "Storage quotas"). ROLE_ADMIN only (the endpoint's access rule).
import type { RoomQuotaList, RoomQuotaRow, StorageQuotaBody, UserQuota } from '@shared/contract/storage-quotas';
import { sql } from 'kysely';
import { notFound } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { roomUsed, userQuotaInForce, userUsed } from '../../uploads/quotas';
import { isSecureRoom, roomIsOfKind, roomKindColumn } from '../kind/room-kind';

/** Enough rooms for one page of the administration; `q` narrows a larger installation down. */
const ROOM_LIST_LIMIT = 200;

const roomRows = (ctx: RequestContext) =>
  ctx.app.db
    .selectFrom('data_rooms')
    .leftJoin('users', 'users.id', 'data_rooms.created_by')
    .select(['data_rooms.id', 'data_rooms.uuid', 'data_rooms.name', roomKindColumn('data_rooms'), 'data_rooms.storage_quota', 'users.email'])
    .where('data_rooms.deleted_at', 'is', null);

type RoomQuotaSource = Awaited<ReturnType<ReturnType<typeof roomRows>['executeTakeFirstOrThrow']>>;

async function toRow(ctx: RequestContext, room: RoomQuotaSource): Promise<RoomQuotaRow> {
  const encrypted = isSecureRoom(room);
  return {
    uuid: room.uuid,
    // A Secure room's name is sealed: never sent.
    name: encrypted ? '' : room.name,
    encrypted,
    owner: room.email ?? '',
    used: await roomUsed(ctx.app.db, room.id),
    quota: room.storage_quota === null ? null : Number(room.storage_quota),
  };
}

/** Live rooms, plain ones by name then Secure ones; `q` matches the names of plain rooms only (a sealed name would match noise). */
export async function listRoomQuotas(ctx: RequestContext, query: { q?: string | undefined }): Promise<RoomQuotaList> {
  const needle = query.q?.trim().toLowerCase();
  let rows = roomRows(ctx);
  if (needle) {
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    rows = rows.where(roomIsOfKind('data_rooms', 'plain')).where(sql<boolean>`lower(data_rooms.name) like ${pattern} escape '\\'`);
  }
  const rooms = await rows.orderBy(roomKindColumn('data_rooms')).orderBy('data_rooms.name').orderBy('data_rooms.id').limit(ROOM_LIST_LIMIT).execute();
  return { rooms: await Promise.all(rooms.map((room) => toRow(ctx, room))) };
}

export async function setRoomQuota(ctx: RequestContext, roomUuid: string, body: StorageQuotaBody): Promise<RoomQuotaRow> {
  const room = await roomRows(ctx).where('data_rooms.uuid', '=', roomUuid).executeTakeFirst();
  if (!room) throw notFound('Data room not found');
  await ctx.app.db.updateTable('data_rooms').set({ storage_quota: body.quota }).where('id', '=', room.id).execute();
  return toRow(ctx, { ...room, storage_quota: body.quota });
}

async function userIdOf(ctx: RequestContext, userUuid: string): Promise<number> {
  const row = await ctx.app.db.selectFrom('users').select('id').where('uuid', '=', userUuid).executeTakeFirst();
  if (!row) throw notFound('User not found');
  return row.id;
}

export async function userQuota(ctx: RequestContext, userUuid: string): Promise<UserQuota> {
  const id = await userIdOf(ctx, userUuid);
  const row = await ctx.app.db.selectFrom('users').select('storage_quota').where('id', '=', id).executeTakeFirstOrThrow();
  return {
    used: await userUsed(ctx.app.db, id),
    quota: row.storage_quota === null ? null : Number(row.storage_quota),
    effective: await userQuotaInForce(ctx.app, id),
  };
}

export async function setUserQuota(ctx: RequestContext, userUuid: string, body: StorageQuotaBody): Promise<UserQuota> {
  const id = await userIdOf(ctx, userUuid);
  await ctx.app.db.updateTable('users').set({ storage_quota: body.quota }).where('id', '=', id).execute();
  return userQuota(ctx, userUuid);
}
