// The administrators' trash bin (SPEC §1, §2 "trash bin", §3 trash entry, §8 "restore error
// naming the entry"): deleted rooms, folders and files of every room; restore; the retention job.
import { MS_PER_DAY } from '@shared/contract/constants';
import type { TrashBinEntry, TrashBinList, TrashEntryType } from '@shared/contract/room-admin';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { badRequest, HttpError, notFound } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { periodicJob, type JobKind } from '../../jobs/job-queue';
import { removeStored } from '../../reports/storage-totals';
import { recordActivity } from '../kind/activity';
import { roomSettings } from '../kind/admin-settings';
import { checkRoomNameFree } from '../kind/names';
import { findTrashed, purgeTrashed, restoreTrashed, retentionMoves } from '../plain/trash';
import { storedContents } from '../plain/versions';
import type { RoomRow } from '../kind/roles';
import { isSecureRoom, roomIsOfKind, roomKindColumn } from '../kind/room-kind';

interface Row {
  id: number;
  uuid: string;
  deleted_by: number | null;
  name: string;
  deleted_at: number | null;
  room_name: string;
  email: string | null;
  encrypted: number;
}

/** What the answers and messages call an entry of an E2E room: its sealed name is never sent. */
const ENCRYPTED_ITEM = 'Encrypted item';

const CURSOR = /^(\d+):([0-9a-f-]{36})$/;
const encodeCursor = (entry: TrashBinEntry) => Buffer.from(`${entry.deletedAt}:${entry.uuid}`, 'latin1').toString('base64url');
function decodeCursor(cursor: string): { at: number; uuid: string } {
  const match = /^[A-Za-z0-9_-]+$/.test(cursor) ? CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1')) : null;
  if (!match) throw badRequest('The list cursor is not valid', { field: 'cursor' });
  return { at: Number(match[1]), uuid: match[2]! };
}

/**
 * Every trashed room, folder and file, newest deletion first (then uuid), `q` on the name. Each
 * kind is read up to one page past the cursor, the three are merged: a page never needs more. What
 * lies inside a deleted folder or room without being deleted itself comes back with it and is not listed.
 * Entries of E2E rooms carry `encrypted: true` and empty names (the sealed text means nothing here
 * and stays on the server); `q` never matches them (it would match the sealed text).
 */
export async function listTrashBin(ctx: RequestContext, query: { q?: string | undefined; cursor?: string | undefined; pageSize: number }): Promise<TrashBinList> {
  const { db } = ctx.app;
  const { pageSize } = query;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const needle = query.q?.trim().toLowerCase();
  const pattern = needle ? `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  // The same condition on each table, aliased `t`.
  const conditions = [sql<boolean>`t.deleted_at is not null`];
  if (pattern) conditions.push(sql<boolean>`lower(t.name) like ${pattern} escape '\\'`);
  if (after) conditions.push(sql<boolean>`(t.deleted_at < ${after.at} or (t.deleted_at = ${after.at} and t.uuid < ${after.uuid}))`);
  const where = sql<boolean>`${sql.join(conditions, sql` and `)}`;
  const toEntries = (type: TrashEntryType, rows: Row[], byRetention: Set<string> = new Set()): TrashBinEntry[] =>
    rows.map((r) => {
      const encrypted = isSecureRoom(r);
      return {
        uuid: r.uuid,
        type,
        name: encrypted ? '' : r.name,
        roomName: encrypted ? '' : r.room_name,
        encrypted,
        deletedAt: Number(r.deleted_at),
        deletedBy: r.email ?? '',
        deletedByRetention: byRetention.has(r.uuid),
      };
    });

  const rooms = await db
    .selectFrom('data_rooms as t')
    .leftJoin('users as u', 'u.id', 't.deleted_by')
    .select(['t.id', 't.uuid', 't.deleted_by', 't.name', 't.deleted_at', 't.name as room_name', 'u.email', roomKindColumn('t')])
    .where(where)
    .$if(pattern !== undefined, (qb) => qb.where(roomIsOfKind('t', 'plain')))
    .orderBy('t.deleted_at', 'desc')
    .orderBy('t.uuid', 'desc')
    .limit(pageSize + 1)
    .execute();
  // Folders and files share the shape: the item's own row, its room's name and encryption. The cast
  // only names one table for Kysely's types; both have every column used here.
  const itemRows = (table: 'room_folders' | 'room_files') =>
    db
      .selectFrom(`${table} as t` as 'room_folders as t')
      .innerJoin('data_rooms as r', 'r.id', 't.room_id')
      .leftJoin('users as u', 'u.id', 't.deleted_by')
      .select(['t.id', 't.uuid', 't.deleted_by', 't.name', 't.deleted_at', 'r.name as room_name', 'u.email', roomKindColumn('r')])
      .where(where)
      .$if(pattern !== undefined, (qb) => qb.where(roomIsOfKind('r', 'plain')))
      .orderBy('t.deleted_at', 'desc')
      .orderBy('t.uuid', 'desc')
      .limit(pageSize + 1)
      .execute();
  const folders = await itemRows('room_folders');
  const files = await itemRows('room_files');
  // Only files move by retention (plain/retention.ts); the job leaves no user on them.
  const byRetention = await retentionMoves(db, files);
  const merged = [...toEntries('dataroom', rooms), ...toEntries('folder', folders), ...toEntries('file', files, byRetention)].sort(
    (a, b) => b.deletedAt - a.deletedAt || (a.uuid < b.uuid ? 1 : a.uuid > b.uuid ? -1 : 0),
  );
  const entries = merged.slice(0, pageSize);
  const last = entries.at(-1);
  return { entries, nextCursor: merged.length > pageSize && last ? encodeCursor(last) : null };
}

/** A 409 that names the entry (SPEC §8), keeping the reason of the underlying refusal. */
function namingTheEntry(name: string, error: unknown): unknown {
  if (!(error instanceof HttpError) || error.statusCode !== 409) return error;
  return new HttpError(409, 'ConflictException', `“${name}” cannot be restored: ${error.message}`, { ...error.metadata, name });
}

/** Back where it was, with everything below it (the rows below a folder or room were never touched). */
export async function restoreTrashBinItem(ctx: RequestContext, itemUuid: string): Promise<void> {
  const { db } = ctx.app;
  const { user } = ctx;
  const room = await db.selectFrom('data_rooms').selectAll().where('uuid', '=', itemUuid).executeTakeFirst();
  if (room) {
    if (room.deleted_at === null) throw notFound('Not in the trash');
    await restoreRoom(db, user, room);
    return;
  }
  const owner =
    (await db.selectFrom('room_folders').select('room_id').where('uuid', '=', itemUuid).executeTakeFirst()) ??
    (await db.selectFrom('room_files').select('room_id').where('uuid', '=', itemUuid).executeTakeFirst());
  if (!owner) throw notFound('Not in the trash');
  const holder = await db.selectFrom('data_rooms').selectAll().where('id', '=', owner.room_id).executeTakeFirstOrThrow();
  const item = await findTrashed(db, holder, itemUuid);
  const name = isSecureRoom(holder) ? ENCRYPTED_ITEM : item.name;
  if (holder.deleted_at !== null) {
    const roomName = isSecureRoom(holder) ? ENCRYPTED_ITEM : holder.name;
    throw new HttpError(409, 'ConflictException', `“${name}” cannot be restored while the data room “${roomName}” is in the trash`, { reason: 'parentInTrash', name });
  }
  await restoreTrashed(db, user, holder, item).catch((error: unknown) => {
    throw namingTheEntry(name, error);
  });
}

/** A room comes back when none of its OWNERs has a live room of that name meanwhile. */
async function restoreRoom(db: Kysely<Database>, user: { id: number; email: string }, room: RoomRow): Promise<void> {
  const owners = await db.selectFrom('room_access').select('user_id').where('room_id', '=', room.id).where('folder_id', 'is', null).where('role', '=', 'OWNER').execute();
  try {
    for (const owner of owners) await checkRoomNameFree(db, owner.user_id, room.name, room.id);
  } catch (error) {
    throw namingTheEntry(isSecureRoom(room) ? ENCRYPTED_ITEM : room.name, error);
  }
  await db.updateTable('data_rooms').set({ deleted_at: null, deleted_by: null, updated_at: Date.now() }).where('id', '=', room.id).execute();
  await recordActivity(db, 'item_restored', user, { room, folderId: null, name: room.name });
}

/** A whole room for good: the bytes of every file first, then the rows (cascade), the storage totals in the same transaction. */
async function purgeRoom(app: FastifyInstance, room: RoomRow): Promise<void> {
  // Every content of every file: current ones, earlier versions, uploads of a next version
  // (versions.ts storedContents), in batches so no query carries a room's whole id list.
  const ids = (await app.db.selectFrom('room_files').select('id').where('room_id', '=', room.id).where('replaces_id', 'is', null).execute()).map((f) => f.id);
  let files = 0;
  let bytes = 0;
  for (let i = 0; i < ids.length; i += RETENTION_BATCH) {
    const stored = await storedContents(app.db, ids.slice(i, i + RETENTION_BATCH));
    for (const prefix of stored.prefixes) await app.blobs.deletePrefix(prefix);
    files += stored.files;
    bytes += stored.bytes;
  }
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('data_rooms').where('id', '=', room.id).execute();
    await removeStored(trx, 'dataRooms', files, bytes);
  });
}

/** Entries handled per kind and run, so one run never holds the database long (the next period continues). */
const RETENTION_BATCH = 500;

/**
 * Deletes for good what has been in the trash longer than `trashRetentionDays`: rooms, then
 * folders, then files (a purged room or folder takes what is below it along). Idempotent: each
 * step works on what is still there.
 */
export async function purgeExpiredTrash(app: FastifyInstance, now = Date.now()): Promise<{ rooms: number; folders: number; files: number }> {
  const cutoff = now - (await roomSettings(app.db)).trashRetentionDays * MS_PER_DAY;
  const rooms = await app.db.selectFrom('data_rooms').selectAll().where('deleted_at', '<', cutoff).limit(RETENTION_BATCH).execute();
  for (const room of rooms) await purgeRoom(app, room);
  const counted = { rooms: rooms.length, folders: 0, files: 0 };
  for (const kind of ['folder', 'file'] as const) {
    const table = kind === 'folder' ? 'room_folders' : 'room_files';
    const rows = await app.db.selectFrom(table).select(['uuid', 'room_id']).where('deleted_at', '<', cutoff).limit(RETENTION_BATCH).execute();
    for (const row of rows) {
      const room = await app.db.selectFrom('data_rooms').selectAll().where('id', '=', row.room_id).executeTakeFirst();
      // Gone with a folder purged just before.
      const item = room ? await findTrashed(app.db, room, row.uuid).catch(() => null) : null;
      if (!room || !item) continue;
      await purgeTrashed(app, room, item);
      counted[kind === 'folder' ? 'folders' : 'files'] += 1;
    }
  }
  if (counted.rooms + counted.folders + counted.files > 0) app.log.info(counted, 'room trash retention purged entries');
  return counted;
}

/** Its kind on the database job queue. */
export const ROOM_TRASH_RETENTION_JOB = 'room-trash-retention';
/** SPEC §9 "retention deletion runs at end of day": hourly is enough to be on time whatever the period. */
const RETENTION_INTERVAL_MS = 60 * 60_000;

export function roomTrashRetentionJobs(app: FastifyInstance): Record<string, JobKind<never>> {
  return { [ROOM_TRASH_RETENTION_JOB]: periodicJob(RETENTION_INTERVAL_MS, async () => void (await purgeExpiredTrash(app))) };
}
