// A folder (or the whole room) as one ZIP download, streamed: `archiver` writes the archive while
// each file's parts are read from the blob store one after the other (partsStream), so no file
// is ever held whole in memory. Only what the caller may download goes in (the download right
// per folder, SPEC §6); files blocked by the virus scan stay out and are named, with the reason,
// in a text entry `_not-included.txt`. With `items` (issue 32 §2 multi-select) only the chosen files
// and folders of the room go in, each checked for the caller's role. Plain rooms only (an E2E room's files decrypt in the browser).
import { constants as zlib } from 'node:zlib';
import archiver from 'archiver';
import { ROOM_PERMISSIONS, type RoomRole } from '@shared/contract/rooms';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition } from '@shared/contract/content-disposition';
import type { RequestContext } from '../../core/request-context';
import { partsStream } from '../../uploads/bytes';
import { recordActivity } from '../kind/activity';
import { filePartKey, layoutOf, liveFile, type FileRow } from '../kind/file-rows';
import { liveFolder, liveRoom, requireMember, requireRole, roleResolver, type FolderRow, type RoomRow } from '../kind/roles';
import { requireRoomKind } from '../kind/room-kind';

export const NOT_INCLUDED_ENTRY = '_not-included.txt';

const BLOCKED: Record<string, string> = {
  scanning: 'being checked for viruses',
  virusDetected: 'a virus was found',
  error: 'the virus scan failed',
};

type RoleOf = (folder?: Pick<FolderRow, 'id'>) => RoomRole | null;
interface Entry {
  file: FileRow;
  name: string;
  role: RoomRole | null;
}

/** The complete files below `root` (the room: undefined) under `prefix`; a folder without any role is left out unnamed. */
async function entriesBelow(db: Kysely<Database>, room: RoomRow, roleOf: RoleOf, root: FolderRow | undefined, prefix: string): Promise<Entry[]> {
  const folders = await db.selectFrom('room_folders').selectAll().where('room_id', '=', room.id).where('deleted_at', 'is', null).execute();
  const paths = new Map<number | null, { path: string; folder: FolderRow | undefined }>([[root?.id ?? null, { path: prefix, folder: root }]]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of folders) {
      const parent = paths.get(f.parent_id);
      if (!parent || paths.has(f.id) || !roleOf(f)) continue;
      paths.set(f.id, { path: `${parent.path}${f.name}/`, folder: f });
      grew = true;
    }
  }
  const ids = [...paths.keys()].filter((id): id is number => id !== null);
  let query = db.selectFrom('room_files').selectAll().where('room_id', '=', room.id).where('deleted_at', 'is', null).where('state', '=', 'complete');
  query = root ? query.where('folder_id', 'in', ids) : query.where((eb) => (ids.length > 0 ? eb.or([eb('folder_id', 'is', null), eb('folder_id', 'in', ids)]) : eb('folder_id', 'is', null)));
  const files = await query.orderBy('id').execute();
  return files.map((file) => {
    const place = paths.get(file.folder_id)!;
    return { file, name: `${place.path}${file.name}`, role: roleOf(place.folder) };
  });
}

/**
 * Issue 32 §2: the entries of a selection. Each item is a live file or folder of the room the caller
 * has a role on (else 404, as if it did not exist) with the download right there (else 403);
 * a folder brings everything below it under its name.
 */
async function selectionEntries(ctx: RequestContext, room: RoomRow, roleOf: RoleOf, items: string[]): Promise<Entry[]> {
  const { app } = ctx;
  const entries: Entry[] = [];
  for (const uuid of new Set(items)) {
    const folderRow = await app.db.selectFrom('room_folders').select('id').where('uuid', '=', uuid).where('room_id', '=', room.id).executeTakeFirst();
    if (folderRow) {
      const folder = await liveFolder(app.db, room, uuid);
      await requireRole(app.db, room, ctx.user.id, 'download', folder);
      entries.push(...(await entriesBelow(app.db, room, roleOf, folder, `${folder.name}/`)));
      continue;
    }
    const { file, folder } = await liveFile(app.db, room, uuid);
    await requireRole(app.db, room, ctx.user.id, 'download', folder);
    entries.push({ file, name: file.name, role: roleOf(folder) });
  }
  // Two chosen items of one name (a file and a folder's entry): the later one is numbered.
  const taken = new Set<string>();
  return entries.map((entry) => {
    let name = entry.name;
    for (let n = 2; taken.has(name); n++) name = entry.name.replace(/(\.[^./]*)?$/, (ext) => ` (${n})${ext}`);
    taken.add(name);
    return { ...entry, name };
  });
}

export async function zipDownload(ctx: RequestContext, request: FastifyRequest, reply: FastifyReply, roomUuid: string, folderUuid?: string, items?: string[]): Promise<unknown> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const root = folderUuid === undefined ? undefined : await liveFolder(app.db, room, folderUuid);
  // A selection is checked item by item; the whole room or a folder needs the download right there.
  if (items) await requireMember(app.db, room, user.id);
  else await requireRole(app.db, room, user.id, 'download', root);
  requireRoomKind(room, 'plain', 'This is a Secure room (end-to-end encrypted): its files are downloaded file by file in the browser, under Secure rooms');
  const roleOf = await roleResolver(app.db, room, user.id);
  const files = items ? await selectionEntries(ctx, room, roleOf, items) : undefined;
  return streamRoomZip(app, request, reply, { room, root, roleOf, actor: user, files, note: items ? ` of ${items.length} chosen items` : '' });
}

/**
 * The ZIP of `root` (or the whole room) as `roleOf` lets see and download it: a member's roles, or
 * a folder link's maker's (sharing/folder-links.ts); `files` when the entries were chosen already
 * (a selection). The finished archive is logged as `download` by `actor`; `onFinish` runs then too
 * (a link counts it).
 */
export async function streamRoomZip(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  at: { room: RoomRow; root: FolderRow | undefined; roleOf: RoleOf; actor: { id: number | null; email: string }; onFinish?: () => Promise<void>; files?: Entry[]; note?: string },
): Promise<unknown> {
  const { room, root, roleOf, actor } = at;
  const roomUuid = room.uuid;
  const files = at.files ?? (await entriesBelow(app.db, room, roleOf, root, ''));

  // Fast deflate: most shared files (PDF, office, images) are compressed already.
  const archive = archiver('zip', { zlib: { level: zlib.Z_BEST_SPEED } });
  const left: string[] = [];
  let included = 0;
  for (const { file, name, role } of files) {
    if (!role || !ROOM_PERMISSIONS[role].download) left.push(`${name}: no download right`);
    else if (BLOCKED[file.scan_state]) left.push(`${name}: ${BLOCKED[file.scan_state]}`);
    else {
      // A lazy stream: its parts are read only when archiver gets to this entry.
      archive.append(partsStream(app.blobs, layoutOf(file), (i) => filePartKey(file, i), 0, Number(file.size) - 1), { name, date: new Date(Number(file.updated_at)) });
      included++;
    }
  }
  if (left.length > 0) archive.append(`These files are not in this archive:\r\n${left.join('\r\n')}\r\n`, { name: NOT_INCLUDED_ENTRY });
  archive.on('error', (err: Error) => {
    request.log.error({ err, roomUuid }, 'building a room ZIP failed');
    reply.raw.destroy(err);
  });
  const item = root ? { room, folderId: root.id, uuid: root.uuid, name: root.name } : { room, folderId: null, name: room.name };
  reply.raw.once('finish', () => {
    Promise.all([recordActivity(app.db, 'download', actor, item, `zip: ${included} files${at.note ?? ''}`), at.onFinish?.()]).catch((err: unknown) => request.log.error({ err }, 'recording a download failed'));
  });
  // The client went away: stop reading blobs for it.
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) archive.abort();
  });
  void archive.finalize();
  return reply
    .header('content-type', 'application/zip')
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', contentDisposition(`${root?.name ?? room.name}.zip`))
    .send(archive);
}
