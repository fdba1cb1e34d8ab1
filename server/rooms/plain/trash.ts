// A room's trash: what was deleted in it, restore to where it was, purge for good with the bytes.
// Who may delete where an item was (OWNER, EDITOR; SPEC §6) sees, restores and purges it there: the
// delete confirmation promises the trash, so the one who deleted can undo it (issue 32 §1).
import type { RoomTrashEntry, RoomTrashList } from '@shared/contract/room-files';
import { RETENTION_ACTIVITY_DETAIL } from '@shared/contract/room-retention';
import { ROOM_PERMISSIONS } from '@shared/contract/rooms';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { accessDenied, HttpError, notFound } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { removeStored } from '../../reports/storage-totals';
import { personName, recordActivity } from '../kind/activity';
import { checkNameFree } from '../kind/names';
import { storedContents } from './versions';
import { folderSubtree, liveFolder, liveRoom, requireMember, roleResolver, type RoomRow } from '../kind/roles';

/**
 * Whether the user has the delete right where an item of the room lived: a folder's own role, a
 * file's folder's (none: the room's). A member without it anywhere asked → 403.
 */
async function deleteRightWhere(db: Kysely<Database>, room: RoomRow, userId: number): Promise<(folderId: number | null) => boolean> {
  await requireMember(db, room, userId);
  const roleOf = await roleResolver(db, room, userId);
  return (folderId) => {
    const role = roleOf(folderId === null ? undefined : { id: folderId });
    return role !== null && ROOM_PERMISSIONS[role].delete;
  };
}

/**
 * The trashed files the retention job moved (retention.ts: no user, and the file's latest `delete`
 * activity is the job's, with the retention detail), as uuids. A file whose deleter's account is
 * gone has no user either, but its latest deletion was logged as that user's. A file id belongs to
 * one room, so the administrators' trash bin asks with files of many rooms.
 */
export async function retentionMoves(db: Kysely<Database>, files: { id: number; uuid: string; deleted_by: number | null }[]): Promise<Set<string>> {
  const candidates = files.filter((f) => f.deleted_by === null);
  if (candidates.length === 0) return new Set();
  const deletions = await db
    .selectFrom('room_activity')
    .select(['id', 'file_id', 'detail', 'actor_id'])
    .where('kind', '=', 'delete')
    .where('file_id', 'in', candidates.map((f) => f.id))
    .orderBy('id', 'asc')
    .execute();
  const latest = new Map(deletions.map((d) => [d.file_id, d]));
  return new Set(candidates.filter((f) => { const d = latest.get(f.id); return d?.actor_id === null && d.detail === RETENTION_ACTIVITY_DETAIL; }).map((f) => f.uuid));
}

export async function listTrash(ctx: RequestContext, roomUuid: string): Promise<RoomTrashList> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const mayDelete = await deleteRightWhere(app.db, room, user.id);
  const anywhere = await app.db.selectFrom('room_folders').select('id').where('room_id', '=', room.id).execute();
  if (!mayDelete(null) && !anywhere.some((f) => mayDelete(f.id))) throw accessDenied();
  const folders = await app.db
    .selectFrom('room_folders')
    .leftJoin('users', 'users.id', 'room_folders.deleted_by')
    .select(['room_folders.id as at', 'room_folders.uuid', 'room_folders.name', 'room_folders.deleted_at', 'users.email', 'users.first_name', 'users.last_name'])
    .where('room_folders.room_id', '=', room.id)
    .where('room_folders.deleted_at', 'is not', null)
    .execute();
  const files = await app.db
    .selectFrom('room_files')
    .leftJoin('users', 'users.id', 'room_files.deleted_by')
    .select(['room_files.id', 'room_files.folder_id as at', 'room_files.uuid', 'room_files.name', 'room_files.deleted_at', 'room_files.deleted_by', 'users.email', 'users.first_name', 'users.last_name'])
    .where('room_files.room_id', '=', room.id)
    .where('room_files.deleted_at', 'is not', null)
    .execute();
  const byRetention = await retentionMoves(app.db, files);
  const entry = (type: RoomTrashEntry['type']) => (r: { uuid: string; name: string; deleted_at: number | null; email: string | null; first_name: string | null; last_name: string | null }): RoomTrashEntry => ({
    uuid: r.uuid,
    type,
    name: r.name,
    deletedAt: Number(r.deleted_at),
    deletedBy: r.email ?? '',
    deletedByRetention: byRetention.has(r.uuid),
    deletedByName: personName(r),
  });
  const mine = <T extends { at: number | null }>(rows: T[]) => rows.filter((r) => mayDelete(r.at));
  const entries = [...mine(folders).map(entry('folder')), ...mine(files).map(entry('file'))].sort((a, b) => b.deletedAt - a.deletedAt);
  return { entries };
}

export type TrashedItem = Awaited<ReturnType<typeof findTrashed>>;

/** The trashed folder or file of the room with `itemUuid`, or 404. */
export async function findTrashed(db: Kysely<Database>, room: RoomRow, itemUuid: string) {
  const folder = await db.selectFrom('room_folders').selectAll().where('uuid', '=', itemUuid).where('room_id', '=', room.id).where('deleted_at', 'is not', null).executeTakeFirst();
  if (folder) return { kind: 'folder' as const, id: folder.id, uuid: folder.uuid, name: folder.name, parentId: folder.parent_id };
  const file = await db.selectFrom('room_files').selectAll().where('uuid', '=', itemUuid).where('room_id', '=', room.id).where('deleted_at', 'is not', null).executeTakeFirst();
  if (file) return { kind: 'file' as const, id: file.id, uuid: file.uuid, name: file.name, parentId: file.folder_id };
  throw notFound('Not in the trash');
}

/** The trashed item, for a user with the delete right where it was (a member without it: 403; no member: 404). */
async function trashedFor(db: Kysely<Database>, room: RoomRow, userId: number, itemUuid: string): Promise<TrashedItem> {
  const mayDelete = await deleteRightWhere(db, room, userId);
  const item = await findTrashed(db, room, itemUuid);
  if (!mayDelete(item.kind === 'folder' ? item.id : item.parentId)) throw accessDenied();
  return item;
}

/**
 * Back to where it was (activity `item_restored`): refused with 409 when the folder that held it is
 * in the trash itself (`parentInTrash`) or its name is taken there meanwhile (`nameExists`).
 */
export async function restoreItem(ctx: RequestContext, roomUuid: string, itemUuid: string): Promise<void> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  await restoreTrashed(app.db, user, room, await trashedFor(app.db, room, user.id, itemUuid));
}

/** The restore itself, for the room's OWNER and for administrators (admin-trash.ts). */
export async function restoreTrashed(db: Kysely<Database>, user: { id: number; email: string }, room: RoomRow, item: TrashedItem): Promise<void> {
  const app = { db };
  let parentUuid: string | undefined;
  if (item.parentId !== null) {
    const parent = await app.db.selectFrom('room_folders').select('uuid').where('id', '=', item.parentId).executeTakeFirstOrThrow();
    parentUuid = parent.uuid;
    await liveFolder(app.db, room, parent.uuid).catch(() => {
      throw new HttpError(409, 'ConflictException', `“${item.name}” cannot be restored while the folder that held it is in the trash`, { reason: 'parentInTrash', name: item.name });
    });
  }
  await checkNameFree(app.db, room.id, item.parentId, item.name, item.kind === 'folder' ? { folderId: item.id } : { fileId: item.id });
  const table = item.kind === 'folder' ? 'room_folders' : 'room_files';
  await app.db.updateTable(table).set({ deleted_at: null, deleted_by: null, updated_at: Date.now() }).where('id', '=', item.id).execute();
  await recordActivity(app.db, 'item_restored', user, {
    room,
    folderId: item.kind === 'folder' ? item.id : item.parentId,
    ...(item.kind === 'file' ? { fileId: item.id } : {}),
    uuid: item.uuid,
    name: item.name,
  }, parentUuid ?? null);
}

/** Deletes the item for good: its rows (a folder with everything below it) and every byte of its files. */
export async function purgeItem(ctx: RequestContext, roomUuid: string, itemUuid: string): Promise<void> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  await purgeTrashed(app, room, await trashedFor(app.db, room, user.id, itemUuid));
}

/** The purge itself, for the room's OWNER and for the retention job (admin-trash.ts). */
export async function purgeTrashed(app: { db: Kysely<Database>; blobs: RequestContext['app']['blobs'] }, room: RoomRow, item: TrashedItem): Promise<void> {
  let files: Array<{ id: number }>;
  if (item.kind === 'file') {
    files = [{ id: item.id }];
  } else {
    const ids = await folderSubtree(app.db, room, item.id);
    files = await app.db.selectFrom('room_files').select(['id']).where('room_id', '=', room.id).where('folder_id', 'in', [...ids]).execute();
  }
  // Every content of those files: the current one, earlier versions, uploads of a next version.
  const stored = await storedContents(app.db, files.map((f) => f.id));
  // Bytes first: a failure leaves the rows, so the purge can be run again.
  for (const prefix of stored.prefixes) await app.blobs.deletePrefix(prefix);
  // Rows below a folder go with it (foreign keys cascade); the activity log keeps its entries.
  // The storage report's running total loses the committed ones, in the same transaction.
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom(item.kind === 'folder' ? 'room_folders' : 'room_files').where('id', '=', item.id).execute();
    await removeStored(trx, 'dataRooms', stored.files, stored.bytes);
  });
}
