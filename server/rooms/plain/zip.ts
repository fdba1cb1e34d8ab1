// A folder (or the whole room) as one ZIP download, streamed: `archiver` writes the archive while
// each file's parts are read from the blob store one after the other (partsStream), so no file
// is ever held whole in memory. Only what the caller may download goes in (the download right
// per folder, SPEC §6); files blocked by the virus scan stay out and are named, with the reason,
// in a text entry `_not-included.txt`. Plain rooms only (an E2E room's files decrypt in the browser).
import { constants as zlib } from 'node:zlib';
import archiver from 'archiver';
import { ROOM_PERMISSIONS, type RoomRole } from '@shared/contract/rooms';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition } from '@shared/contract/content-disposition';
import type { RequestContext } from '../../core/request-context';
import { partsStream } from '../../uploads/bytes';
import { recordActivity } from '../kind/activity';
import { filePartKey, layoutOf } from '../kind/file-rows';
import { liveFolder, liveRoom, requireRole, roleResolver, type FolderRow, type RoomRow } from '../kind/roles';
import { requireRoomKind } from '../kind/room-kind';

export const NOT_INCLUDED_ENTRY = '_not-included.txt';

const BLOCKED: Record<string, string> = {
  scanning: 'being checked for viruses',
  virusDetected: 'a virus was found',
  error: 'the virus scan failed',
};

export async function zipDownload(ctx: RequestContext, request: FastifyRequest, reply: FastifyReply, roomUuid: string, folderUuid?: string): Promise<unknown> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const root = folderUuid === undefined ? undefined : await liveFolder(app.db, room, folderUuid);
  await requireRole(app.db, room, user.id, 'download', root);
  requireRoomKind(room, 'plain', 'This is a Secure room (end-to-end encrypted): its files are downloaded file by file in the browser, under Secure rooms');
  return streamRoomZip(app, request, reply, { room, root, roleOf: await roleResolver(app.db, room, user.id), actor: user });
}

/**
 * The ZIP of `root` (or the whole room) as `roleOf` lets see and download it: a member's roles, or
 * a folder link's maker's (sharing/folder-links.ts). The finished archive is logged as `download`
 * by `actor`; `onFinish` runs then too (a link counts it).
 */
export async function streamRoomZip(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  at: { room: RoomRow; root: FolderRow | undefined; roleOf: (folder?: Pick<FolderRow, 'id'>) => RoomRole | null; actor: { id: number | null; email: string }; onFinish?: () => Promise<void> },
): Promise<unknown> {
  const { room, root, roleOf, actor } = at;
  const roomUuid = room.uuid;
  // The live folders below the root with their paths; a folder without any role is left out unnamed.
  const folders = await app.db.selectFrom('room_folders').selectAll().where('room_id', '=', room.id).where('deleted_at', 'is', null).execute();
  const paths = new Map<number | null, { path: string; folder: FolderRow | undefined }>([[root?.id ?? null, { path: '', folder: root }]]);
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
  let query = app.db.selectFrom('room_files').selectAll().where('room_id', '=', room.id).where('deleted_at', 'is', null).where('state', '=', 'complete');
  query = root ? query.where('folder_id', 'in', ids) : query.where((eb) => (ids.length > 0 ? eb.or([eb('folder_id', 'is', null), eb('folder_id', 'in', ids)]) : eb('folder_id', 'is', null)));
  const files = await query.orderBy('id').execute();

  // Fast deflate: most shared files (PDF, office, images) are compressed already.
  const archive = archiver('zip', { zlib: { level: zlib.Z_BEST_SPEED } });
  const left: string[] = [];
  let included = 0;
  for (const file of files) {
    const place = paths.get(file.folder_id)!;
    const role = roleOf(place.folder);
    const name = `${place.path}${file.name}`;
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
    Promise.all([recordActivity(app.db, 'download', actor, item, `zip: ${included} files`), at.onFinish?.()]).catch((err: unknown) => request.log.error({ err }, 'recording a download failed'));
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
