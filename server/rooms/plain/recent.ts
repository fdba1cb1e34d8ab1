// "Shared with me" and recent files (issue 32 §2; contract room-recent.ts). The rooms list is the
// caller's room-level entries in rooms someone else made; the files are read newest first across
// the caller's plain rooms in keyset batches and each is kept only when the caller has a role on its
// folder and no folder above it is in the trash (the same rules as the room's own listing).
import type { RoomRecent, RoomRecentFile } from '@shared/contract/room-recent';
import type { RoomRole } from '@shared/contract/rooms';
import { sql } from 'kysely';
import { badRequest } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { personName } from '../kind/activity';
import { toRoomFile } from '../kind/file-rows';
import { isRoomRole, roleResolver, type FolderRow, type RoomRow } from '../kind/roles';
import { isSecureRoom } from '../kind/room-kind';
import { toRoom } from './rooms';

const SHARED_ROOMS_MAX = 50;
const CURSOR_TEXT = /^(\d+)\.(\d+)$/;

function decode(cursor: string): { at: number; id: number } {
  const found = /^[A-Za-z0-9_-]+$/.test(cursor) ? CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString('latin1')) : null;
  if (!found || !Number.isSafeInteger(Number(found[1])) || !Number.isSafeInteger(Number(found[2]))) throw badRequest('The list cursor is not valid', { field: 'cursor' });
  return { at: Number(found[1]), id: Number(found[2]) };
}
const encode = (at: number, id: number) => Buffer.from(`${at}.${id}`, 'latin1').toString('base64url');

/** Per plain room: the caller's role on a folder (null: none, or the folder or one above is in the trash) and its path. */
async function placesOf(ctx: RequestContext, room: RoomRow) {
  const roleOf = await roleResolver(ctx.app.db, room, ctx.user.id);
  const folders = await ctx.app.db.selectFrom('room_folders').selectAll().where('room_id', '=', room.id).execute();
  const byId = new Map(folders.map((f) => [f.id, f]));
  const pathOf = (folderId: number | null): { uuid: string; name: string }[] | null => {
    const path: FolderRow[] = [];
    for (let id = folderId; id !== null && path.length <= folders.length; ) {
      const folder = byId.get(id);
      if (!folder || folder.deleted_at !== null) return null;
      path.unshift(folder);
      id = folder.parent_id;
    }
    return path.map((f) => ({ uuid: f.uuid, name: f.name }));
  };
  return (folderId: number | null): { role: RoomRole; path: { uuid: string; name: string }[] } | null => {
    const path = pathOf(folderId);
    const role = path === null ? null : roleOf(folderId === null ? undefined : { id: folderId });
    return path && role ? { role, path } : null;
  };
}

export async function recentRoomFiles(ctx: RequestContext, query: { pageSize: number; cursor?: string | undefined }): Promise<RoomRecent> {
  const { app, user } = ctx;
  const after = query.cursor === undefined ? undefined : decode(query.cursor);
  const entries = await app.db
    .selectFrom('room_access')
    .innerJoin('data_rooms', 'data_rooms.id', 'room_access.room_id')
    .leftJoin('users', 'users.id', 'data_rooms.created_by')
    .selectAll('data_rooms')
    .select(['room_access.role', 'room_access.folder_id', 'room_access.created_at as shared_at', 'users.email as creator', 'users.first_name', 'users.last_name'])
    .where('room_access.user_id', '=', user.id)
    .where('data_rooms.deleted_at', 'is', null)
    .execute();

  const sharedRooms = after
    ? []
    : entries
        .filter((e) => e.folder_id === null && e.created_by !== user.id && isRoomRole(e.role))
        .sort((x, y) => Number(y.shared_at) - Number(x.shared_at) || y.id - x.id)
        .slice(0, SHARED_ROOMS_MAX)
        .map((e) => ({ ...toRoom(e, e.role as RoomRole, e.creator ?? '', e.creator ? personName(e) : null), sharedAt: Number(e.shared_at) }));

  const plain = new Map<number, RoomRow>();
  for (const e of entries) if (!isSecureRoom(e)) plain.set(e.id, e);
  const places = new Map<number, Awaited<ReturnType<typeof placesOf>>>();
  for (const room of plain.values()) places.set(room.id, await placesOf(ctx, room));

  const files: (RoomRecentFile & { position: { at: number; id: number } })[] = [];
  let position = after;
  // Batches of the newest files until the page (and one more, to know of a next page) is full.
  const batch = Math.max(50, query.pageSize * 2);
  while (plain.size > 0 && files.length <= query.pageSize) {
    let rows = app.db
      .selectFrom('room_files')
      .leftJoin('users', 'users.id', 'room_files.uploaded_by')
      .selectAll('room_files')
      .select(['users.email as uploader', 'users.first_name', 'users.last_name'])
      .where('room_files.room_id', 'in', [...plain.keys()])
      .where('room_files.state', '=', 'complete')
      .where('room_files.deleted_at', 'is', null);
    if (position) rows = rows.where(sql<boolean>`(room_files.updated_at < ${position.at} or (room_files.updated_at = ${position.at} and room_files.id < ${position.id}))`);
    const found = await rows.orderBy('room_files.updated_at', 'desc').orderBy('room_files.id', 'desc').limit(batch).execute();
    for (const row of found) {
      const room = plain.get(row.room_id)!;
      const place = places.get(row.room_id)!(row.folder_id);
      if (!place) continue;
      const file = toRoomFile(row, room, place.path.at(-1)?.uuid ?? null, place.role, row.uploader ?? '', row.uploader ? personName(row) : null);
      files.push({ ...file, room: { uuid: room.uuid, name: room.name }, path: place.path, position: { at: Number(row.updated_at), id: row.id } });
    }
    const last = found.at(-1);
    if (!last || found.length < batch) break;
    position = { at: Number(last.updated_at), id: last.id };
  }
  const page = files.slice(0, query.pageSize);
  const end = page.at(-1);
  return {
    sharedRooms,
    files: page.map(({ position: _, ...file }) => file),
    nextCursor: files.length > query.pageSize && end ? encode(end.position.at, end.position.id) : null,
  };
}
