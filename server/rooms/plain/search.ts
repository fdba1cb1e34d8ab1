// `q` search on names and comments inside one plain room (and/or its classification and status, issue 31 §1): folders and complete files the caller has a role on,
// not in the trash (nor below a folder in the trash), each with its path from the room down.
import type { RoomSearchResult } from '@shared/contract/room-files';
import type { RoomClassification, RoomFileStatus } from '@shared/contract/rooms';
import { foldedIncludes, foldForSearch } from '@shared/contract/search-fold';
import type { RequestContext } from '../../core/request-context';
import { personName } from '../kind/activity';
import { toRoomFile } from '../kind/file-rows';
import { liveRoom, requireRole, roleResolver, type FolderRow } from '../kind/roles';
import { toFolder } from './rooms';
import { requireRoomKind } from '../kind/room-kind';

/** Candidates read per kind before the role and trash filters (then cut to pageSize). */
const SCAN_LIMIT = 2000;

export async function searchRoom(
  ctx: RequestContext,
  roomUuid: string,
  query: { q?: string | undefined; classification?: RoomClassification | undefined; status?: RoomFileStatus | undefined; pageSize: number },
  /** false: names only (the search across rooms, whose answer promises name matches). */
  withComments = true,
): Promise<RoomSearchResult> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  await requireRole(app.db, room, user.id, 'see').catch(async (error: unknown) => {
    // A member with a role on a folder only still searches inside what they see.
    const anyEntry = await app.db.selectFrom('room_access').select('id').where('room_id', '=', room.id).where('user_id', '=', user.id).executeTakeFirst();
    if (!anyEntry) throw error;
  });
  // Sealed names cannot be searched here: the browser searches an E2E room's decrypted names.
  requireRoomKind(room, 'plain');
  const roleOf = await roleResolver(app.db, room, user.id);
  const all = await app.db.selectFrom('room_folders').selectAll().where('room_id', '=', room.id).execute();
  const byId = new Map(all.map((f) => [f.id, f]));
  // The chain from the room down to the folder (inclusive), or null when any of it is in the trash.
  const chainOf = (folder: FolderRow | undefined): FolderRow[] | null => {
    const chain: FolderRow[] = [];
    for (let f = folder; f; f = f.parent_id === null ? undefined : byId.get(f.parent_id)) {
      if (f.deleted_at !== null || chain.length > all.length) return null;
      chain.unshift(f);
    }
    return chain;
  };
  // Case and accents do not count (shared/contract/search-fold.ts). SQL's lower()/LIKE fold ASCII
  // only (SQLite) or by the database's locale (PostgreSQL), so the names are matched here: the
  // folders are read above anyway, the files as (id, name) pairs of this one room.
  const needle = query.q === undefined ? null : foldForSearch(query.q);
  // The term also finds an item by one of its comments (issue 31 §1); the first such comment is sent with the hit.
  const commentHits = { folder: new Map<number, string>(), file: new Map<number, string>() };
  if (needle !== null && withComments) {
    const comments = await app.db.selectFrom('room_comments').select(['folder_id', 'file_id', 'text']).where('room_id', '=', room.id).orderBy('id', 'asc').execute();
    for (const c of comments) {
      if (!foldedIncludes(c.text, needle)) continue;
      const [map, id] = c.file_id !== null ? [commentHits.file, c.file_id] : [commentHits.folder, c.folder_id];
      if (id !== null && !map.has(id)) map.set(id, c.text);
    }
  }
  // Issue 31 §1: classification and status narrow the match (alone, or with the name or a comment).
  const matches = (kind: 'folder' | 'file') => (row: { id: number; name: string; classification: string; file_status: string }) =>
    (needle === null || foldedIncludes(row.name, needle) || commentHits[kind].has(row.id)) &&
    (query.classification === undefined || row.classification === query.classification) &&
    (query.status === undefined || row.file_status === query.status);
  const byName = (a: { name: string }, b: { name: string }) => foldForSearch(a.name).localeCompare(foldForSearch(b.name));
  const folders: RoomSearchResult['folders'] = [];
  const folderIds = all.filter(matches('folder')).sort(byName).slice(0, SCAN_LIMIT).map((f) => f.id);
  const folderRows = folderIds.length === 0 ? [] : await app.db
    .selectFrom('room_folders')
    .leftJoin('users', 'users.id', 'room_folders.created_by')
    .selectAll('room_folders')
    .select(['users.email as creator', 'users.first_name', 'users.last_name'])
    .where('room_folders.id', 'in', folderIds)
    .execute();
  folderRows.sort(byName);
  for (const row of folderRows) {
    const chain = chainOf(row);
    const role = chain && roleOf(row);
    if (!chain || !role || folders.length >= query.pageSize) continue;
    const path = chain.slice(0, -1).map((f) => ({ uuid: f.uuid, name: f.name }));
    const comment = commentHits.folder.get(row.id);
    folders.push({ ...toFolder(row, room, path.at(-1)?.uuid ?? null, role, row.creator ?? '', row.creator ? personName(row) : null), path, ...(comment === undefined ? {} : { matchedComment: comment }) });
  }
  const files: RoomSearchResult['files'] = [];
  const names = await app.db
    .selectFrom('room_files')
    .select(['id', 'name', 'classification', 'file_status'])
    .where('room_id', '=', room.id)
    .where('deleted_at', 'is', null)
    .where('state', '=', 'complete')
    .execute();
  const fileIds = names.filter(matches('file')).sort(byName).slice(0, SCAN_LIMIT).map((f) => f.id);
  const fileRows = fileIds.length === 0 ? [] : await app.db
    .selectFrom('room_files')
    .leftJoin('users', 'users.id', 'room_files.uploaded_by')
    .selectAll('room_files')
    .select(['users.email as uploader', 'users.first_name', 'users.last_name'])
    .where('room_files.id', 'in', fileIds)
    .execute();
  fileRows.sort(byName);
  for (const row of fileRows) {
    const folder = row.folder_id === null ? undefined : byId.get(row.folder_id);
    const chain = chainOf(folder);
    const role = chain && roleOf(folder);
    if (!chain || !role || files.length >= query.pageSize) continue;
    const comment = commentHits.file.get(row.id);
    files.push({ ...toRoomFile(row, room, folder?.uuid ?? null, role, row.uploader ?? '', row.uploader ? personName(row) : null), path: chain.map((f) => ({ uuid: f.uuid, name: f.name })), ...(comment === undefined ? {} : { matchedComment: comment }) });
  }
  return { folders, files };
}
