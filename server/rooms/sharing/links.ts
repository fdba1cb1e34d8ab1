// Public links to one file of a plain room (issue 15, server/README "Public links to room files"):
// an OWNER or EDITOR makes, lists and revokes a file's links; whoever holds the URL downloads the
// file's current content without an account. The token is stored as its SHA-256 only.
import { randomUUID } from 'node:crypto';
import {
  roomLinkUrl,
  type CreatedRoomLink,
  type CreateRoomLinkBody,
  type RoomLink,
  type RoomLinkInfo,
  type RoomLinkList,
  type RoomLinkState,
  ROOM_LINK_ACTOR,
  ROOM_LINK_DEFAULT_DAYS,
  ROOM_LINK_MAX_DAYS,
  ROOM_LINK_PASSWORD_LIMIT,
} from '@shared/contract/room-links';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Generated, Selectable } from 'kysely';
import { badRequest, HttpError, notFound, rateLimitExceeded } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { linkTokenHash, newLinkToken } from '../../security/link-tokens';
import { RATE_LIMIT_BUCKETS } from '../../security/rate-limiter';
import { hashPassword, verifyPassword } from '../../users/passwords';
import { sendStoredFile } from '../../uploads/send';
import { personName, recordActivity } from '../kind/activity';
import { filePartKey, layoutOf, liveFile } from '../kind/file-rows';
import { ROOM_PERMISSIONS } from '@shared/contract/rooms';
import { effectiveRole, liveRoom, requireRole, type RoomRow } from '../kind/roles';
import { refuseUnlessScanned } from '../plain/scan';
import { requireRoomKind } from '../kind/room-kind';

/** Migration 0050. */
export interface RoomLinksTable {
  id: Generated<number>;
  uuid: string;
  room_id: number;
  file_id: number;
  created_by: number | null;
  token_hash: string;
  expires_at: number;
  revoked_at: number | null;
  downloads: Generated<number>;
  created_at: number;
  /** Migration 0072: the password's Argon2id hash; null: no password. */
  password_hash: string | null;
  /** Migration 0072: complete downloads allowed; null: no limit. */
  max_downloads: number | null;
}

declare module '../../db/schema' {
  interface Database {
    room_links: RoomLinksTable;
  }
}

type LinkRow = Selectable<RoomLinksTable>;
const DAY_MS = 86_400_000;

export function linkStateOf(row: Pick<LinkRow, 'revoked_at' | 'expires_at' | 'downloads' | 'max_downloads'>, now: number): RoomLinkState {
  if (row.revoked_at !== null) return 'revoked';
  if (Number(row.expires_at) <= now) return 'expired';
  return row.max_downloads !== null && Number(row.downloads) >= Number(row.max_downloads) ? 'usedUp' : 'active';
}

const toWire = (row: LinkRow, fileUuid: string, createdBy: string, createdByName: string | null, now: number): RoomLink => ({
  uuid: row.uuid,
  fileUuid,
  createdBy,
  createdByName,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
  revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  state: linkStateOf(row, now),
  downloads: Number(row.downloads),
  maxDownloads: row.max_downloads === null ? null : Number(row.max_downloads),
  passwordProtected: row.password_hash !== null,
});

/** The chosen expiry: a calendar date (in the future, at most ROOM_LINK_MAX_DAYS ahead, else 400) or a number of days. */
export function expiryOf(input: Pick<CreateRoomLinkBody, 'expiresAt' | 'expiresInDays'>, now: number): number {
  if (input.expiresAt === undefined) return now + (input.expiresInDays ?? ROOM_LINK_DEFAULT_DAYS) * DAY_MS;
  const issue = (code: string, message: string) => badRequest(message, { issues: [{ path: '/expiresAt', code, message }] });
  if (input.expiresAt <= now) throw issue('too_small', 'The expiry date must be in the future');
  // One day more than the limit: the end of the last day that may be picked, in any time zone.
  if (input.expiresAt > now + (ROOM_LINK_MAX_DAYS + 1) * DAY_MS) throw issue('too_big', `The expiry date may be at most ${ROOM_LINK_MAX_DAYS} days ahead`);
  return input.expiresAt;
}

/** 409: the server cannot hand out the bytes of an end-to-end encrypted room (it cannot decrypt them). */
const refuseEncryptedRoom = (room: RoomRow): void =>
  requireRoomKind(room, 'plain', 'This is a Secure room (end-to-end encrypted): the server cannot decrypt its files, so they get no public link. Share the room or folder with the person instead');

/** The room, the file and the caller's edit right on it (OWNER, EDITOR; VIEWER/PREVIEWER 403, non-member 404). */
async function sharedFile(ctx: RequestContext, roomUuid: string, fileUuid: string) {
  const room = await liveRoom(ctx.app.db, roomUuid);
  const { file, folder } = await liveFile(ctx.app.db, room, fileUuid);
  await requireRole(ctx.app.db, room, ctx.user.id, 'edit', folder);
  return { room, file };
}

export async function createLink(ctx: RequestContext, roomUuid: string, fileUuid: string, input: CreateRoomLinkBody): Promise<CreatedRoomLink> {
  const { app, user } = ctx;
  const { room, file } = await sharedFile(ctx, roomUuid, fileUuid);
  refuseEncryptedRoom(room);
  const token = newLinkToken();
  const now = app.clock();
  const expiresAt = expiryOf(input, now);
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const row = await app.db
    .insertInto('room_links')
    .values({
      uuid: randomUUID(),
      room_id: room.id,
      file_id: file.id,
      created_by: user.id,
      token_hash: linkTokenHash(token),
      expires_at: expiresAt,
      revoked_at: null,
      created_at: now,
      password_hash: passwordHash,
      max_downloads: input.maxDownloads ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...toWire(row, file.uuid, user.email, personName(user), now), url: roomLinkUrl(app.config.publicUrl, token) };
}

/** Every link of the file, newest first (revoked and expired ones too, with their state). */
export async function listLinks(ctx: RequestContext, roomUuid: string, fileUuid: string): Promise<RoomLinkList> {
  const { file } = await sharedFile(ctx, roomUuid, fileUuid);
  const rows = await ctx.app.db
    .selectFrom('room_links as l')
    .leftJoin('users as u', 'u.id', 'l.created_by')
    .selectAll('l')
    .select(['u.email as creator_email', 'u.first_name as creator_first_name', 'u.last_name as creator_last_name'])
    .where('l.file_id', '=', file.id)
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id', 'desc')
    .execute();
  return { links: rows.map((r) => toWire(r, file.uuid, r.creator_email ?? '', personName({ first_name: r.creator_first_name, last_name: r.creator_last_name }), ctx.app.clock())) };
}

export async function revokeLink(ctx: RequestContext, roomUuid: string, fileUuid: string, linkUuid: string): Promise<void> {
  const { file } = await sharedFile(ctx, roomUuid, fileUuid);
  const row = await ctx.app.db.selectFrom('room_links').select('id').where('uuid', '=', linkUuid).where('file_id', '=', file.id).executeTakeFirst();
  if (!row) throw notFound('Link not found');
  await ctx.app.db.updateTable('room_links').set({ revoked_at: Date.now() }).where('id', '=', row.id).where('revoked_at', 'is', null).execute();
}

export const gone = (reason: 'linkExpired' | 'linkRevoked' | 'linkUsedUp' | 'fileDeleted' | 'folderDeleted' | 'creatorLostAccess', message: string) => new HttpError(410, 'NotFoundException', message, { reason });

const passwordRefused = (reason: 'passwordRequired' | 'passwordWrong', message: string) => new HttpError(403, 'AccessDeniedException', message, { reason });

/**
 * A protected link's password (URI-encoded in the header): none 403 passwordRequired; wrong 403
 * passwordWrong and counted per link; ROOM_LINK_PASSWORD_LIMIT wrong ones in the window and the
 * link answers 429 to every password (the right one too) until the window frees a slot.
 */
export async function checkPassword(app: FastifyInstance, link: Pick<LinkRow, 'id' | 'password_hash'>, encoded: string | undefined, table = ''): Promise<void> {
  if (link.password_hash === null) return;
  if (encoded === undefined) throw passwordRefused('passwordRequired', 'This link is protected by a password');
  // Folder links count under their own prefix (their ids are another table's).
  const subject = `${table}${link.id}`;
  const wrong = await app.rateLimiter.count(RATE_LIMIT_BUCKETS.roomLinkPassword, subject, ROOM_LINK_PASSWORD_LIMIT.windowMs);
  if (wrong >= ROOM_LINK_PASSWORD_LIMIT.limit) throw rateLimitExceeded(ROOM_LINK_PASSWORD_LIMIT.windowMs);
  let password: string;
  try {
    password = decodeURIComponent(encoded);
  } catch {
    password = encoded; // not URI-encoded: compared as sent (and wrong unless it is the password)
  }
  if (await verifyPassword(link.password_hash, password)) return;
  await app.rateLimiter.record(RATE_LIMIT_BUCKETS.roomLinkPassword, subject);
  throw passwordRefused('passwordWrong', 'The password is wrong');
}

/** 410 with its reason for a link that no longer works (revoked, expired, used up). */
export function refuseUnlessActive(state: RoomLinkState): void {
  if (state === 'revoked') throw gone('linkRevoked', 'This link was revoked');
  if (state === 'expired') throw gone('linkExpired', 'This link has expired');
  if (state === 'usedUp') throw gone('linkUsedUp', 'This link is used up: its download limit is reached');
}

/**
 * The link of a token with its live room and file: unknown 404; revoked, expired, used up, its
 * file (or folder, or room) in the trash or purged, or its maker without the edit right there now:
 * 410, each with its reason; a protected link without its right password 403 (checkPassword).
 */
async function linkTarget(app: FastifyInstance, token: string, password: string | undefined) {
  const link = await app.db.selectFrom('room_links').selectAll().where('token_hash', '=', linkTokenHash(token)).executeTakeFirst();
  if (!link) throw notFound('Link not found', { reason: 'linkInvalid' });
  const state = linkStateOf(link, app.clock());
  refuseUnlessActive(state);
  await checkPassword(app, link, password);
  const fileGone = () => gone('fileDeleted', 'The shared file was deleted');
  const room = await app.db.selectFrom('data_rooms').selectAll().where('id', '=', link.room_id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!room) throw fileGone();
  const file = await app.db.selectFrom('room_files').select('uuid').where('id', '=', link.file_id).executeTakeFirst();
  if (!file) throw fileGone();
  const live = await liveFile(app.db, room, file.uuid).catch(() => {
    throw fileGone();
  });
  // A link lives only while its maker may still share the file (account gone, role removed or lowered: 410).
  const role = link.created_by === null ? null : await effectiveRole(app.db, room, link.created_by, live.folder);
  if (!role || !ROOM_PERMISSIONS[role].edit) throw gone('creatorLostAccess', 'This link no longer works: whoever made it may no longer share the file');
  return { link, room, ...live };
}

export async function linkInfo(app: FastifyInstance, token: string, password: string | undefined): Promise<RoomLinkInfo> {
  const { link, file } = await linkTarget(app, token, password);
  refuseUnlessScanned(file);
  const downloadsLeft = link.max_downloads === null ? null : Math.max(0, Number(link.max_downloads) - Number(link.downloads));
  return { name: file.name, size: Number(file.size), mimeType: file.mime_type, expiresAt: Number(link.expires_at), downloadsLeft };
}

/** The file's current content (Range as every download); a complete GET counts and is logged as `download` by "public link". */
export async function linkDownload(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, token: string, password: string | undefined): Promise<unknown> {
  const { link, room, file, folder } = await linkTarget(app, token, password);
  refuseUnlessScanned(file);
  const stored = { name: file.name, mimeType: file.mime_type, layout: layoutOf(file), keyOf: (i: number) => filePartKey(file, i) };
  return sendStoredFile(request, reply, app.blobs, stored, async () => {
    await app.db.updateTable('room_links').set((eb) => ({ downloads: eb('downloads', '+', 1) })).where('id', '=', link.id).execute();
    await recordActivity(app.db, 'download', { id: null, email: ROOM_LINK_ACTOR }, { room, folderId: folder?.id ?? null, fileId: file.id, uuid: file.uuid, name: file.name });
  });
}
