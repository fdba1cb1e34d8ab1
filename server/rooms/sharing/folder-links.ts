// Public links to a folder of a plain room (issue 32 §2, server/README "Public links to room
// folders"): an OWNER or EDITOR makes, lists and revokes them; `folder` links list and download
// (a file, or a folder as one ZIP), `drop` links only upload (drop-links.ts). A link sees what its
// maker may download below the folder, and lives only while its maker may still share the folder.
import { randomUUID } from 'node:crypto';
import {
  roomFolderLinkUrl,
  type CreatedRoomFolderLink,
  type CreateRoomFolderLinkBody,
  type RoomFolderLink,
  type RoomFolderLinkInfo,
  type RoomFolderLinkKind,
  type RoomFolderLinkList,
} from '@shared/contract/room-folder-links';
import { ROOM_LINK_ACTOR } from '@shared/contract/room-links';
import { ROOM_PERMISSIONS, type RoomRole } from '@shared/contract/rooms';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Generated, Selectable } from 'kysely';
import { badRequest, notFound } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { linkTokenHash, newLinkToken } from '../../security/link-tokens';
import { sendStoredFile } from '../../uploads/send';
import { hashPassword } from '../../users/passwords';
import { personName, recordActivity } from '../kind/activity';
import { filePartKey, layoutOf, liveFile } from '../kind/file-rows';
import { ancestorsOf, liveFolder, liveRoom, requireRole, roleResolver, type FolderRow, type RoomRow } from '../kind/roles';
import { requireRoomKind } from '../kind/room-kind';
import { refuseUnlessScanned } from '../plain/scan';
import { streamRoomZip } from '../plain/zip';
import { checkPassword, expiryOf, gone, linkStateOf, refuseUnlessActive } from './links';

/** Migration 0079. */
export interface RoomFolderLinksTable {
  id: Generated<number>;
  uuid: string;
  room_id: number;
  folder_id: number;
  /** 'folder' | 'drop' (RoomFolderLinkKind). */
  kind: string;
  created_by: number | null;
  token_hash: string;
  expires_at: number;
  revoked_at: number | null;
  downloads: Generated<number>;
  /** Files committed through a drop link. */
  uploads: Generated<number>;
  max_downloads: number | null;
  password_hash: string | null;
  created_at: number;
}

declare module '../../db/schema' {
  interface Database {
    room_folder_links: RoomFolderLinksTable;
  }
}

export type FolderLinkRow = Selectable<RoomFolderLinksTable>;
const kindOf = (value: string): RoomFolderLinkKind => (value === 'drop' ? 'drop' : 'folder');

const toWire = (row: FolderLinkRow, folderUuid: string, createdBy: string, createdByName: string | null, now: number): RoomFolderLink => ({
  uuid: row.uuid,
  folderUuid,
  kind: kindOf(row.kind),
  createdBy,
  createdByName,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
  revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  state: linkStateOf(row, now),
  downloads: Number(row.downloads),
  uploads: Number(row.uploads),
  maxDownloads: row.max_downloads === null ? null : Number(row.max_downloads),
  passwordProtected: row.password_hash !== null,
});

/** The room, the folder and the caller's edit right on it (OWNER, EDITOR; VIEWER/PREVIEWER 403, non-member 404). */
async function sharedFolder(ctx: RequestContext, roomUuid: string, folderUuid: string) {
  const room = await liveRoom(ctx.app.db, roomUuid);
  const folder = await liveFolder(ctx.app.db, room, folderUuid);
  await requireRole(ctx.app.db, room, ctx.user.id, 'edit', folder);
  return { room, folder };
}

export async function createFolderLink(ctx: RequestContext, roomUuid: string, folderUuid: string, input: CreateRoomFolderLinkBody): Promise<CreatedRoomFolderLink> {
  const { app, user } = ctx;
  const { room, folder } = await sharedFolder(ctx, roomUuid, folderUuid);
  // The server holds no key of a Secure room: it could neither read its files for a visitor nor seal a visitor's upload.
  requireRoomKind(room, 'plain', 'This is a Secure room (end-to-end encrypted): the server cannot read its files nor encrypt files for it, so it has no folder or upload links. Share the folder with the person instead');
  if (input.kind === 'drop' && input.maxDownloads !== undefined) {
    const message = 'An upload link hands nothing out: it has no download limit';
    throw badRequest(message, { issues: [{ path: '/maxDownloads', code: 'invalid', message }] });
  }
  const token = newLinkToken();
  const now = app.clock();
  const row = await app.db
    .insertInto('room_folder_links')
    .values({
      uuid: randomUUID(),
      room_id: room.id,
      folder_id: folder.id,
      kind: input.kind,
      created_by: user.id,
      token_hash: linkTokenHash(token),
      expires_at: expiryOf(input, now),
      revoked_at: null,
      max_downloads: input.maxDownloads ?? null,
      password_hash: input.password === undefined ? null : await hashPassword(input.password),
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...toWire(row, folder.uuid, user.email, personName(user), now), url: roomFolderLinkUrl(app.config.publicUrl, token) };
}

/** Every link of the folder, newest first, with kind and state. */
export async function listFolderLinks(ctx: RequestContext, roomUuid: string, folderUuid: string): Promise<RoomFolderLinkList> {
  const { folder } = await sharedFolder(ctx, roomUuid, folderUuid);
  const rows = await ctx.app.db
    .selectFrom('room_folder_links as l')
    .leftJoin('users as u', 'u.id', 'l.created_by')
    .selectAll('l')
    .select(['u.email as creator_email', 'u.first_name as creator_first_name', 'u.last_name as creator_last_name'])
    .where('l.folder_id', '=', folder.id)
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id', 'desc')
    .execute();
  return { links: rows.map((r) => toWire(r, folder.uuid, r.creator_email ?? '', personName({ first_name: r.creator_first_name, last_name: r.creator_last_name }), ctx.app.clock())) };
}

export async function revokeFolderLink(ctx: RequestContext, roomUuid: string, folderUuid: string, linkUuid: string): Promise<void> {
  const { folder } = await sharedFolder(ctx, roomUuid, folderUuid);
  const row = await ctx.app.db.selectFrom('room_folder_links').select('id').where('uuid', '=', linkUuid).where('folder_id', '=', folder.id).executeTakeFirst();
  if (!row) throw notFound('Link not found');
  await ctx.app.db.updateTable('room_folder_links').set({ revoked_at: Date.now() }).where('id', '=', row.id).where('revoked_at', 'is', null).execute();
}

export interface FolderLinkTarget {
  link: FolderLinkRow;
  room: RoomRow;
  folder: FolderRow;
  /** The maker's roles: what the link may show below the folder. */
  roleOf: (folder?: Pick<FolderRow, 'id'>) => RoomRole | null;
}

/**
 * The link of a token with its live room and folder: unknown (or not of `kind`) 404; revoked,
 * expired, used up, the folder (or one above, or the room) in the trash, or its maker without the edit
 * right there now: 410 with the reason; a protected link without its right password 403.
 * `password: false`: not asked (a drop upload's parts: the upload's uuid came from an announce that asked it).
 */
export async function folderLinkTarget(app: FastifyInstance, token: string, password: string | undefined | false, kind: RoomFolderLinkKind | 'any'): Promise<FolderLinkTarget> {
  const link = await app.db.selectFrom('room_folder_links').selectAll().where('token_hash', '=', linkTokenHash(token)).executeTakeFirst();
  if (!link) throw notFound('Link not found', { reason: 'linkInvalid' });
  if (kind !== 'any' && kindOf(link.kind) !== kind) throw notFound(kind === 'drop' ? 'This link is not an upload link' : 'This link is an upload link: it lists nothing', { reason: 'wrongLinkKind' });
  refuseUnlessActive(linkStateOf(link, app.clock()));
  if (password !== false) await checkPassword(app, link, password, 'folder:');
  const folderGone = () => gone('folderDeleted', 'The shared folder was deleted');
  const room = await app.db.selectFrom('data_rooms').selectAll().where('id', '=', link.room_id).where('deleted_at', 'is', null).executeTakeFirst();
  const row = room && (await app.db.selectFrom('room_folders').select('uuid').where('id', '=', link.folder_id).executeTakeFirst());
  if (!room || !row) throw folderGone();
  const folder = await liveFolder(app.db, room, row.uuid).catch(() => {
    throw folderGone();
  });
  const roleOf = link.created_by === null ? () => null : await roleResolver(app.db, room, link.created_by);
  const role = roleOf(folder);
  if (!role || !ROOM_PERMISSIONS[role].edit) throw gone('creatorLostAccess', 'This link no longer works: whoever made it may no longer share the folder');
  return { link, room, folder, roleOf };
}

/** True when `folder` is the linked folder or below it, and its maker may download there. */
async function withinLink(app: FastifyInstance, target: FolderLinkTarget, folder: FolderRow): Promise<boolean> {
  const role = target.roleOf(folder);
  if (!role || !ROOM_PERMISSIONS[role].download) return false;
  return folder.id === target.folder.id || (await ancestorsOf(app.db, folder)).some((f) => f.id === target.folder.id);
}

/** The linked folder or a subfolder below it (404 for anything else: the link shows nothing outside). */
async function listedFolder(app: FastifyInstance, target: FolderLinkTarget, folderUuid: string | undefined): Promise<FolderRow> {
  if (folderUuid === undefined) return target.folder;
  const folder = await liveFolder(app.db, target.room, folderUuid);
  if (!(await withinLink(app, target, folder))) throw notFound('Folder not found');
  return folder;
}

const downloadsLeft = (link: FolderLinkRow) => (link.max_downloads === null ? null : Math.max(0, Number(link.max_downloads) - Number(link.downloads)));

/** A folder link: the listed folder's subfolders and files; a drop link: the folder's name only. */
export async function folderLinkInfo(app: FastifyInstance, token: string, password: string | undefined, folderUuid: string | undefined): Promise<RoomFolderLinkInfo> {
  const target = await folderLinkTarget(app, token, password, 'any');
  const base = { kind: kindOf(target.link.kind), name: target.folder.name, expiresAt: Number(target.link.expires_at), downloadsLeft: downloadsLeft(target.link) };
  if (base.kind === 'drop') return { ...base, path: [], folders: [], files: [], partSize: app.config.uploadPartSize };
  const listed = await listedFolder(app, target, folderUuid);
  const chain = listed.id === target.folder.id ? [] : (await ancestorsOf(app.db, listed)).reverse();
  const from = chain.findIndex((f) => f.id === target.folder.id);
  const path = [...chain.slice(from + 1), listed].filter((f) => f.id !== target.folder.id).map((f) => ({ uuid: f.uuid, name: f.name }));
  const folders = await app.db.selectFrom('room_folders').selectAll().where('parent_id', '=', listed.id).where('deleted_at', 'is', null).orderBy('name').execute();
  const files = await app.db
    .selectFrom('room_files')
    .selectAll()
    .where('folder_id', '=', listed.id)
    .where('deleted_at', 'is', null)
    .where('state', '=', 'complete')
    .orderBy('name')
    .execute();
  return {
    ...base,
    path,
    folders: folders.filter((f) => ROOM_PERMISSIONS[target.roleOf(f) ?? 'PREVIEWER'].download).map((f) => ({ uuid: f.uuid, name: f.name })),
    files: files.map((f) => ({ uuid: f.uuid, name: f.name, size: Number(f.size), mimeType: f.mime_type, updatedAt: Number(f.updated_at), scanState: f.scan_state })),
    partSize: null,
  };
}

/** One complete download through the link: counted, and logged as `download` by "public link". */
const countDownload = (app: FastifyInstance, link: FolderLinkRow) =>
  app.db.updateTable('room_folder_links').set((eb) => ({ downloads: eb('downloads', '+', 1) })).where('id', '=', link.id).execute().then(() => undefined);

/** A file below the linked folder (Range as every download); a complete GET counts. */
export async function folderLinkDownload(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, token: string, password: string | undefined, fileUuid: string): Promise<unknown> {
  const target = await folderLinkTarget(app, token, password, 'folder');
  const { file, folder } = await liveFile(app.db, target.room, fileUuid);
  if (!folder || !(await withinLink(app, target, folder))) throw notFound('File not found');
  refuseUnlessScanned(file);
  const stored = { name: file.name, mimeType: file.mime_type, layout: layoutOf(file), keyOf: (i: number) => filePartKey(file, i) };
  return sendStoredFile(request, reply, app.blobs, stored, async () => {
    await countDownload(app, target.link);
    await recordActivity(app.db, 'download', { id: null, email: ROOM_LINK_ACTOR }, { room: target.room, folderId: folder.id, fileId: file.id, uuid: file.uuid, name: file.name });
  });
}

/** The linked folder (or a subfolder) as one ZIP: what its maker may download, blocked files named; counts as one download. */
export async function folderLinkZip(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, token: string, password: string | undefined, folderUuid: string | undefined): Promise<unknown> {
  const target = await folderLinkTarget(app, token, password, 'folder');
  const root = await listedFolder(app, target, folderUuid);
  return streamRoomZip(app, request, reply, { room: target.room, root, roleOf: target.roleOf, actor: { id: null, email: ROOM_LINK_ACTOR }, onFinish: () => countDownload(app, target.link) });
}
