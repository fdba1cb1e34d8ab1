import { randomUUID } from 'node:crypto';
import type { Room, RoomContents, RoomFolder, RoomList, RoomRole } from '@shared/contract/rooms';
import { foldedIncludes, foldForSearch } from '@shared/contract/search-fold';
import { sql } from 'kysely';
import { accessDenied, badRequest } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { personName, recordActivity } from '../kind/activity';
import { filePage, type FilePageQuery } from './file-pages';
import { creationRightsOf, mayCreateRoomsUnder, roomSettings } from '../kind/admin-settings';
import { checkRoomNameFree, validName } from '../kind/names';
import { classificationOf, fileStatusOf } from '../kind/label-values';
import { insertRoomWithOwner } from '../kind/new-room';
import { refuseRoomCreationOverLicence } from '../kind/room-licence';
import { ancestorsOf, liveFolder, liveRoom, requireRole, roleResolver, type FolderRow, type RoomRow } from '../kind/roles';
import { isSecureRoom, requireRoomKind, roomIsOfKind, type RoomKind } from '../kind/room-kind';

export function toRoom(row: RoomRow, role: RoomRole, createdBy: string, createdByName?: string | null): Room {
  return {
    uuid: row.uuid,
    name: row.name,
    encrypted: isSecureRoom(row),
    role,
    createdBy,
    ...(createdByName === undefined ? {} : { createdByName }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function toFolder(row: FolderRow, room: RoomRow, parentUuid: string | null, role: RoomRole, createdBy: string, createdByName?: string | null): RoomFolder {
  return {
    uuid: row.uuid,
    roomUuid: room.uuid,
    parentUuid,
    name: row.name,
    role,
    createdBy,
    ...(createdByName === undefined ? {} : { createdByName }),
    createdAt: Number(row.created_at),
    classification: classificationOf(row.classification),
    status: fileStatusOf(row.file_status),
  };
}

/** Email of a creator (empty when the account is gone). */
/** The address and display name of a creator (issue 32: lists show the name); nobody: empty. */
async function personOf({ app }: RequestContext, userId: number | null): Promise<[string, string | null]> {
  const found = userId === null ? undefined : await app.users.findById(userId);
  return found ? [found.email, personName(found)] : ['', null];
}

export async function emailOf({ app }: RequestContext, userId: number | null): Promise<string> {
  if (userId === null) return '';
  return (await app.users.findById(userId))?.email ?? '';
}

export async function createRoom(ctx: RequestContext, input: { name: string; encrypted: boolean }): Promise<Room> {
  const { app, user } = ctx;
  // The body's wish, not a room's flag (that one is read in kind/room-kind.ts only).
  const { encrypted: wantsSecure } = input;
  // SPEC §6 (a licence or ROLE_SECUROOMS_CREATOR), as Secure rooms › General narrows it.
  const policy = (await roomSettings(app.db)).creation;
  if (!mayCreateRoomsUnder(policy, user)) throw accessDenied();
  if (wantsSecure) {
    throw badRequest('End-to-end encrypted rooms are created with POST /rooms/e2e (the browser seals the name and the room key)', { field: 'encrypted', reason: 'useE2eCreate' });
  }
  const name = validName(input.name);
  await refuseRoomCreationOverLicence(app.db, app.config, user, { policy, roomKind: 'plain' });
  await checkRoomNameFree(app.db, user.id, name);
  const now = Date.now();
  const room = await insertRoomWithOwner(app.db, { uuid: randomUUID(), name: name, kind: 'plain' }, user.id, now);
  return toRoom(room, 'OWNER', user.email);
}

const CURSOR_TEXT = /^(\d+)$/;

/** The rooms with a room-level role for the caller, newest first (id order), `q` on the name. */
/**
 * The rooms the caller has a role in, of one kind (issue 32): the plain list (GET /rooms) leaves the
 * Secure rooms out — their names are sealed, they open under Secure rooms (GET /rooms/e2e).
 */
export async function listRooms(ctx: RequestContext, query: { pageSize: number; cursor?: string | undefined; q?: string | undefined }, kind: RoomKind = 'plain'): Promise<RoomList> {
  const { app, user } = ctx;
  let base = app.db
    .selectFrom('data_rooms')
    .innerJoin('room_access', 'room_access.room_id', 'data_rooms.id')
    .leftJoin('users', 'users.id', 'data_rooms.created_by')
    .selectAll('data_rooms')
    .select(['room_access.role', 'users.email as creator'])
    .where('room_access.user_id', '=', user.id)
    .where('room_access.folder_id', 'is', null)
    .where('data_rooms.deleted_at', 'is', null)
    .where(roomIsOfKind('data_rooms', kind));
  if (query.cursor !== undefined) {
    const decoded = /^[A-Za-z0-9_-]+$/.test(query.cursor) ? CURSOR_TEXT.exec(Buffer.from(query.cursor, 'base64url').toString('latin1')) : null;
    if (!decoded) throw badRequest('The list cursor is not valid', { field: 'cursor' });
    base = base.where('data_rooms.id', '<', Number(decoded[1]));
  }
  const needle = query.q?.trim() ? foldForSearch(query.q.trim()) : '';
  if (needle) {
    // Case and accents do not count (search-fold.ts; SQL's lower() is ASCII-only on SQLite): the
    // caller's room names are few, so they are matched here and the page is cut by id as before.
    const mine = await base.clearSelect().select(['data_rooms.id', 'data_rooms.name']).execute();
    const ids = mine.filter((r) => foldedIncludes(r.name, needle)).map((r) => r.id);
    base = base.where('data_rooms.id', 'in', ids.length > 0 ? ids : [-1]);
  }
  const pageSize = query.pageSize;
  const rows = await base.orderBy('data_rooms.id', 'desc').limit(pageSize + 1).execute();
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    rooms: page.map((r) => toRoom(r, r.role as RoomRole, r.creator ?? '')),
    nextCursor: rows.length > pageSize && last ? Buffer.from(String(last.id), 'latin1').toString('base64url') : null,
    mayCreate: await creationRightsOf(app.db, user),
  };
}

/** A room's top level or a folder, with its live sub-folders and the caller's roles. */
export async function contents(ctx: RequestContext, roomUuid: string, folderUuid?: string, query: FilePageQuery = {}): Promise<RoomContents> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const folder = folderUuid === undefined ? undefined : await liveFolder(app.db, room, folderUuid);
  const role = await requireRole(app.db, room, user.id, 'see', folder);
  const roleOf = await roleResolver(app.db, room, user.id);
  const roomRole = roleOf() ?? role;
  const ancestors = folder ? await ancestorsOf(app.db, folder) : [];
  const files = await filePage(app.db, room, folder, role, query);
  // Sub-folders come with the first page only (a later page is asked for with a cursor).
  let children = app.db.selectFrom('room_folders').selectAll().where('room_id', '=', room.id).where('deleted_at', 'is', null);
  children = folder ? children.where('parent_id', '=', folder.id) : children.where('parent_id', 'is', null);
  const rows = query.cursor === undefined ? await children.orderBy(sql`lower(name)`).orderBy('id').execute() : [];
  const folders: RoomFolder[] = [];
  for (const row of rows) {
    const childRole = roleOf(row);
    // A folder overridden to no role for the caller cannot happen (entries only grant), but stay safe.
    if (childRole) folders.push(toFolder(row, room, folder?.uuid ?? null, childRole, ...(await personOf(ctx, row.created_by))));
  }
  return {
    room: toRoom(room, roomRole, ...(await personOf(ctx, room.created_by))),
    folder: folder ? toFolder(folder, room, ancestors[0]?.uuid ?? null, role, ...(await personOf(ctx, folder.created_by))) : null,
    path: ancestors.reverse().map((f) => ({ uuid: f.uuid, name: f.name })),
    folders,
    ...files,
  };
}

export async function renameRoom(ctx: RequestContext, roomUuid: string, newName: string): Promise<Room> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const role = await requireRole(app.db, room, user.id, 'manageAccess');
  requireRoomKind(room, 'plain');
  const name = validName(newName);
  await checkRoomNameFree(app.db, user.id, name, room.id);
  const now = Date.now();
  await app.db.updateTable('data_rooms').set({ name, updated_at: now }).where('id', '=', room.id).execute();
  if (name !== room.name) await recordActivity(app.db, 'edit', user, { room, folderId: null, name }, room.name);
  return toRoom({ ...room, name, updated_at: now }, role, await emailOf(ctx, room.created_by));
}

/** Moves the room to the trash (OWNER): it and its content disappear for every member. */
export async function deleteRoom(ctx: RequestContext, roomUuid: string): Promise<void> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  await requireRole(app.db, room, user.id, 'manageAccess');
  await app.db.updateTable('data_rooms').set({ deleted_at: Date.now(), deleted_by: user.id }).where('id', '=', room.id).execute();
  await recordActivity(app.db, 'delete', user, { room, folderId: null, name: room.name });
}
