import { ROOM_PERMISSIONS, ROOM_ROLES, type RoomPermission, type RoomRole } from '@shared/contract/rooms';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema';
import { accessDenied, notFound } from '../../core/http-error';
import type { DataRoomsTable, RoomFoldersTable } from './tables';

export type RoomRow = Selectable<DataRoomsTable>;
export type FolderRow = Selectable<RoomFoldersTable>;

/**
 * Effective roles (SPEC §6, issue 15 §3): an entry set on a folder wins for that folder and
 * everything below it; otherwise the nearest folder above with an entry, otherwise the room's.
 * A user with no role anywhere on the way sees nothing: 404, as if the item did not exist.
 */
export const isRoomRole = (value: string): value is RoomRole => (ROOM_ROLES as readonly string[]).includes(value);

export async function liveRoom(db: Kysely<Database>, roomUuid: string): Promise<RoomRow> {
  const room = await db.selectFrom('data_rooms').selectAll().where('uuid', '=', roomUuid).where('deleted_at', 'is', null).executeTakeFirst();
  if (!room) throw notFound('Data room not found');
  return room;
}

/** The live folder of the room, or 404. A folder below a deleted one counts as deleted. */
export async function liveFolder(db: Kysely<Database>, room: RoomRow, folderUuid: string): Promise<FolderRow> {
  const folder = await db
    .selectFrom('room_folders')
    .selectAll()
    .where('uuid', '=', folderUuid)
    .where('room_id', '=', room.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!folder) throw notFound('Folder not found');
  const chain = await ancestorsOf(db, folder);
  if (chain.some((f) => f.deleted_at !== null)) throw notFound('Folder not found');
  return folder;
}

/** The folders above `folder`, nearest first (not including it). */
export async function ancestorsOf(db: Kysely<Database>, folder: FolderRow): Promise<FolderRow[]> {
  const all = await db.selectFrom('room_folders').selectAll().where('room_id', '=', folder.room_id).execute();
  const byId = new Map(all.map((f) => [f.id, f]));
  const chain: FolderRow[] = [];
  let parent = folder.parent_id === null ? undefined : byId.get(folder.parent_id);
  while (parent && chain.length < all.length) {
    chain.push(parent);
    parent = parent.parent_id === null ? undefined : byId.get(parent.parent_id);
  }
  return chain;
}

/** The user's entries in the room: folder id (null = room) → role. */
async function entriesOf(db: Kysely<Database>, roomId: number, userId: number): Promise<Map<number | null, RoomRole>> {
  const rows = await db.selectFrom('room_access').select(['folder_id', 'role']).where('room_id', '=', roomId).where('user_id', '=', userId).execute();
  return new Map(rows.filter((r) => isRoomRole(r.role)).map((r) => [r.folder_id, r.role as RoomRole]));
}

/**
 * A resolver for many folders of one room at once (a listing): the room's folders and the user's
 * entries are read once, each folder's role is then found in memory.
 */
export async function roleResolver(db: Kysely<Database>, room: RoomRow, userId: number): Promise<(folder?: Pick<FolderRow, 'id'>) => RoomRole | null> {
  const entries = await entriesOf(db, room.id, userId);
  const all = await db.selectFrom('room_folders').select(['id', 'parent_id']).where('room_id', '=', room.id).execute();
  const parentOf = new Map(all.map((f) => [f.id, f.parent_id]));
  return (folder) => {
    let id: number | null = folder?.id ?? null;
    for (let hops = 0; id !== null && hops <= all.length; hops++) {
      const role = entries.get(id);
      if (role) return role;
      id = parentOf.get(id) ?? null;
    }
    return entries.get(null) ?? null;
  };
}

/** The role of the user on the room (`folder` omitted) or on a folder, or null when none. */
export async function effectiveRole(db: Kysely<Database>, room: RoomRow, userId: number, folder?: FolderRow): Promise<RoomRole | null> {
  return (await roleResolver(db, room, userId))(folder);
}

/**
 * The caller's role where `permission` is needed: none at all → 404 (nothing leaks), a role
 * without the permission → 403 with the SPEC §6 insufficient-rights message.
 */
export async function requireRole(db: Kysely<Database>, room: RoomRow, userId: number, permission: RoomPermission | 'see', folder?: FolderRow): Promise<RoomRole> {
  const role = await effectiveRole(db, room, userId, folder);
  if (!role) throw notFound(folder ? 'Folder not found' : 'Data room not found');
  if (permission !== 'see' && !ROOM_PERMISSIONS[role][permission]) throw accessDenied();
  return role;
}

/** A role anywhere in the room (on the room or on a folder), else 404: for answers that tell a member only what the room is. */
export async function requireMember(db: Kysely<Database>, room: RoomRow, userId: number): Promise<void> {
  const entry = await db.selectFrom('room_access').select('id').where('room_id', '=', room.id).where('user_id', '=', userId).executeTakeFirst();
  if (!entry) throw notFound('Data room not found');
}

/** The ids of a folder and of every folder below it (trashed ones included), from one read of the room's folders. */
export async function folderSubtree(db: Kysely<Database>, room: RoomRow, folderId: number): Promise<Set<number>> {
  const all = await db.selectFrom('room_folders').select(['id', 'parent_id']).where('room_id', '=', room.id).execute();
  const ids = new Set([folderId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of all) {
      if (f.parent_id !== null && ids.has(f.parent_id) && !ids.has(f.id)) {
        ids.add(f.id);
        grew = true;
      }
    }
  }
  return ids;
}
