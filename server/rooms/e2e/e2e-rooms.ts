// End-to-end encrypted rooms: creation, the caller's room-key copy and state (server/README
// "End-to-end encrypted rooms"). The server stores sealed strings and HPKE copies only.
import { ROOM_ROLES, type Room, type RoomRole } from '@shared/contract/rooms';
import { ROOM_KEY_DESCRIPTOR_FILE_ID, type CreateE2eRoomBody, type E2eMemberState, type E2eRoomState, type SignedRoomKeyGrantWire } from '@shared/contract/rooms-e2e';
import type { WrappedFileKeyWire } from '@shared/contract/secupass';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { accessDenied, badRequest, HttpError } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import type { Database } from '../../db/schema';
import { RecipientKeyNotLiveError } from '../../secupass/secupass-repository';
import { mayCreateRoomsUnder, roomSettings } from '../kind/admin-settings';
import { insertRoomWithOwner } from '../kind/new-room';
import { refuseRoomCreationOverLicence } from '../kind/room-licence';
import '../kind/e2e-tables';
import { isRoomRole, liveFolder, requireRole, liveRoom, type FolderRow, type RoomRow } from '../kind/roles';
import { toRoom } from '../plain/rooms';
import { isSecureRoom, requireRoomKind } from '../kind/room-kind';

export const ROOM_DESCRIPTOR_KIND = 'dataRoom';

/** A Secure-room call on a plain room: 409 `notEncrypted` (the one guard, kind/room-kind.ts). */
export const requireEncrypted = (room: RoomRow): void => requireRoomKind(room, 'secure');

/** A Secure room and one of its folders (none: the top level) that the caller may see (any role there). */
export async function seenE2eFolder(ctx: RequestContext, roomUuid: string, folderUuid: string | undefined): Promise<{ room: RoomRow; folder: FolderRow | undefined }> {
  const room = await liveRoom(ctx.app.db, roomUuid);
  const folder = folderUuid ? await liveFolder(ctx.app.db, room, folderUuid) : undefined;
  await requireRole(ctx.app.db, room, ctx.user.id, 'see', folder);
  requireEncrypted(room);
  return { room, folder };
}

/** An E2E upload commits only with its signed metadata (sent with the announce or the E2E commit). */
export async function requireE2eMetadata(db: Kysely<Database>, fileId: number): Promise<void> {
  const row = await db.selectFrom('room_e2e_files').select('metadata').where('file_id', '=', fileId).executeTakeFirst();
  if (!row?.metadata) throw new HttpError(409, 'ConflictException', 'The signed metadata of this end-to-end encrypted file is missing; commit it through the E2E commit', { reason: 'e2eMetadataMissing' });
}

/**
 * Stores a member's room-key copy as an access descriptor (the key must be the member's live
 * encryption key) with the grant its granter signed (migration 0056). The server cannot verify the
 * signature for the reader (the reader checks it against her pins), but refuses a grant that names
 * another room, recipient, key or granter than this call's: 400 `grantMismatch`. A copy stored
 * without a grant drops the member's earlier grant (it signed another copy).
 */
export async function storeRoomKeyCopy(
  app: FastifyInstance,
  room: RoomRow,
  recipient: { id: number; uuid: string },
  copy: { recipientKeyId: string; wrappedKey: WrappedFileKeyWire; grant?: SignedRoomKeyGrantWire | undefined },
  granter: { id: number; uuid: string },
): Promise<void> {
  const userId = recipient.id;
  if (copy.wrappedKey.recipientKeyId !== copy.recipientKeyId) {
    throw badRequest('The wrapped key is for another key', { field: 'wrappedKey', reason: 'keyIdMismatch' });
  }
  const g = copy.grant?.grant;
  if (g && (g.roomId !== room.uuid || g.recipientUserId !== recipient.uuid || g.recipientKeyId !== copy.recipientKeyId || g.granterUserId !== granter.uuid)) {
    throw badRequest('The grant names another room, member, key or granter', { field: 'grant', reason: 'grantMismatch' });
  }
  try {
    await app.secupass.addAccessDescriptor({
      recipientUserId: userId,
      recipientKeyId: copy.recipientKeyId,
      resourceKind: ROOM_DESCRIPTOR_KIND,
      resourceId: room.uuid,
      fileId: ROOM_KEY_DESCRIPTOR_FILE_ID,
      wrappedKey: copy.wrappedKey,
    });
  } catch (error) {
    if (error instanceof RecipientKeyNotLiveError) {
      throw badRequest('The key is not a live encryption key of that user (SecuPass reset or not activated)', { field: 'recipientKeyId', reason: 'recipientKeyNotLive' });
    }
    throw error;
  }
  await app.db.deleteFrom('room_e2e_key_grants').where('room_id', '=', room.id).where('user_id', '=', userId).execute();
  if (copy.grant) {
    await app.db
      .insertInto('room_e2e_key_grants')
      .values({ room_id: room.id, user_id: userId, recipient_key_id: copy.recipientKeyId, granted_by: granter.id, signed_grant: JSON.stringify(copy.grant), created_at: Date.now() })
      .execute();
  }
}

/** The grant of the caller's copy and who signed it (null: none stored for this copy, or the granter is gone). */
export async function grantOfCopy(app: FastifyInstance, room: RoomRow, userId: number, recipientKeyId: string): Promise<Pick<NonNullable<E2eRoomState['roomKey']>, 'grant' | 'granter'>> {
  const row = await app.db.selectFrom('room_e2e_key_grants').selectAll().where('room_id', '=', room.id).where('user_id', '=', userId).where('recipient_key_id', '=', recipientKeyId).executeTakeFirst();
  if (!row || row.granted_by === null) return { grant: null, granter: null };
  const granter = await app.db.selectFrom('users').select(['id', 'uuid', 'email']).where('id', '=', row.granted_by).executeTakeFirst();
  if (!granter) return { grant: null, granter: null };
  const role = (await strongestRoles(app.db, room.id, [granter.id])).get(granter.id) ?? null;
  return {
    grant: JSON.parse(row.signed_grant) as SignedRoomKeyGrantWire,
    granter: { userUuid: granter.uuid, email: granter.email, role, keys: await app.secupass.publicKeysWithRetiredOf(granter.id) },
  };
}

/**
 * SPEC §6: only licensed users create E2E rooms (the administrator's permission alone is not
 * enough), and only while Secure rooms › General allows E2E rooms and lets this user create rooms.
 */
export async function createE2eRoom(ctx: RequestContext, input: CreateE2eRoomBody): Promise<Room> {
  const { app, user } = ctx;
  const settings = await roomSettings(app.db);
  if (!settings.e2eAllowed) {
    throw new HttpError(403, 'AccessDeniedException', 'End-to-end encrypted data rooms are switched off by the administrator', { reason: 'e2eRoomsNotAllowed' });
  }
  if (user.licensed !== 1) {
    throw new HttpError(403, 'AccessDeniedException', 'Only licensed users can create end-to-end encrypted data rooms', { reason: 'e2eRoomsNeedLicence' });
  }
  if (!mayCreateRoomsUnder(settings.creation, user)) throw accessDenied();
  await refuseRoomCreationOverLicence(app.db, app.config, user, { policy: settings.creation, roomKind: 'secure' });
  if (await app.db.selectFrom('data_rooms').select('id').where('uuid', '=', input.uuid).executeTakeFirst()) {
    throw new HttpError(409, 'ConflictException', 'This room id is taken; draw another', { reason: 'uuidTaken' });
  }
  const now = Date.now();
  const room = await insertRoomWithOwner(app.db, { uuid: input.uuid, name: input.name, kind: 'secure' }, user.id, now);
  try {
    await storeRoomKeyCopy(app, room, user, input, user);
  } catch (error) {
    // Without the creator's copy nobody could ever open the room: undo it.
    await app.db.deleteFrom('data_rooms').where('id', '=', room.id).execute();
    throw error;
  }
  return toRoom(room, 'OWNER', user.email);
}

/** Live room-key copies of the room: user id → the newest copy. */
export async function roomKeyCopies(app: FastifyInstance, room: RoomRow, userIds?: readonly number[]) {
  let query = app.db
    .selectFrom('access_descriptors')
    .selectAll()
    .where('resource_kind', '=', ROOM_DESCRIPTOR_KIND)
    .where('resource_id', '=', room.uuid)
    .where('file_id', '=', ROOM_KEY_DESCRIPTOR_FILE_ID)
    .where('invalidated_at', 'is', null);
  if (userIds) query = query.where('recipient_user_id', 'in', userIds.length > 0 ? [...userIds] : [-1]);
  const rows = await query.orderBy('created_at').execute();
  return new Map(rows.map((r) => [r.recipient_user_id, r]));
}

/**
 * A member whose last entry in an E2E room was revoked loses the server's copy of the room key
 * (invalidated, like a descriptor after a SecuPass reset): invited again later, an OWNER must grant
 * anew instead of the old copy counting as approved. What the member decrypted before stays theirs;
 * the room key itself is not rotated (server/README "End-to-end encrypted rooms").
 */
export async function dropRoomKeyCopyOfFormerMember(app: FastifyInstance, room: RoomRow, userId: number): Promise<void> {
  if (!isSecureRoom(room)) return;
  const stillMember = await app.db.selectFrom('room_access').select('id').where('room_id', '=', room.id).where('user_id', '=', userId).executeTakeFirst();
  if (stillMember) return;
  await app.db
    .updateTable('access_descriptors')
    .set({ invalidated_at: Date.now() })
    .where('resource_kind', '=', ROOM_DESCRIPTOR_KIND)
    .where('resource_id', '=', room.uuid)
    .where('recipient_user_id', '=', userId)
    .where('invalidated_at', 'is', null)
    .execute();
}

/** Each user's E2E state in the room (SPEC §4 "grant-access progress"). */
export async function memberStates(app: FastifyInstance, room: RoomRow, userIds: readonly number[]): Promise<Map<number, { state: E2eMemberState; keys: Awaited<ReturnType<FastifyInstance['secupass']['publicKeysOf']>> }>> {
  const copies = await roomKeyCopies(app, room, userIds);
  const secupass = await app.secupass.statesOf(userIds);
  const declines = await app.db.selectFrom('room_e2e_declines').selectAll().where('room_id', '=', room.id).execute();
  const out = new Map<number, { state: E2eMemberState; keys: Awaited<ReturnType<FastifyInstance['secupass']['publicKeysOf']>> }>();
  for (const userId of userIds) {
    const keys = secupass.get(userId) === 'active' ? await app.secupass.publicKeysOf(userId) : [];
    const encryptionKeyId = keys.find((k) => k.usage === 'encryption')?.keyId;
    const copy = copies.get(userId);
    let state: E2eMemberState;
    if (!encryptionKeyId) state = 'noSecuPass';
    else if (copy && copy.recipient_key_id === encryptionKeyId) state = 'approved';
    else if (declines.some((d) => d.user_id === userId && d.key_id === encryptionKeyId)) state = 'notApproved';
    else state = 'pending';
    out.set(userId, { state, keys });
  }
  return out;
}

/**
 * Everyone whose key signed metadata here: uploaders of files and versions, and members who
 * re-signed a file's metadata when renaming it (migration 0042 `signed_by`), authors of comments and
 * signers of folder labels.
 */
async function signersOf(db: Kysely<Database>, roomId: number): Promise<{ id: number; uuid: string; email: string }[]> {
  const ids = new Set<number>();
  const files = await db.selectFrom('room_files').leftJoin('room_e2e_files', 'room_e2e_files.file_id', 'room_files.id').select(['room_files.uploaded_by', 'room_e2e_files.signed_by']).where('room_files.room_id', '=', roomId).execute();
  const versions = await db
    .selectFrom('room_file_versions')
    .innerJoin('room_files', 'room_files.id', 'room_file_versions.file_id')
    .leftJoin('room_e2e_versions', 'room_e2e_versions.version_id', 'room_file_versions.id')
    .select(['room_file_versions.uploaded_by', 'room_e2e_versions.signed_by'])
    .where('room_files.room_id', '=', roomId)
    .execute();
  for (const row of [...files, ...versions]) for (const id of [row.uploaded_by, row.signed_by]) if (id !== null) ids.add(id);
  // Comment authors signed their comments (README section 7 "Comments"): readers need their keys too.
  const authors = await db.selectFrom('room_comments').select('author_id').distinct().where('room_id', '=', roomId).where('signature', 'is not', null).execute();
  for (const row of authors) if (row.author_id !== null) ids.add(row.author_id);
  // Signers of folders' classification and status (README section 7 "Folder labels").
  const folderSigners = await db
    .selectFrom('room_e2e_folder_labels')
    .innerJoin('room_folders', 'room_folders.id', 'room_e2e_folder_labels.folder_id')
    .select('room_e2e_folder_labels.signed_by')
    .distinct()
    .where('room_folders.room_id', '=', roomId)
    .execute();
  for (const row of folderSigners) if (row.signed_by !== null) ids.add(row.signed_by);
  if (ids.size === 0) return [];
  return db.selectFrom('users').select(['id', 'uuid', 'email']).where('id', 'in', [...ids]).orderBy('id').execute();
}

/** Each user's strongest role in the room now (room or any folder entry, as the members list says); absent: no entry. */
async function strongestRoles(db: Kysely<Database>, roomId: number, userIds: readonly number[]): Promise<Map<number, RoomRole>> {
  const out = new Map<number, RoomRole>();
  if (userIds.length === 0) return out;
  const rows = await db.selectFrom('room_access').select(['user_id', 'role']).where('room_id', '=', roomId).where('user_id', 'in', [...userIds]).execute();
  for (const row of rows) {
    if (!isRoomRole(row.role)) continue;
    const seen = out.get(row.user_id);
    if (!seen || ROOM_ROLES.indexOf(row.role) < ROOM_ROLES.indexOf(seen)) out.set(row.user_id, row.role);
  }
  return out;
}

/** GET …/e2e: the caller's copy (when approved) and the keys of everyone who uploaded here. */
export async function e2eRoomState(ctx: RequestContext, roomUuid: string): Promise<E2eRoomState> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  await requireRole(app.db, room, user.id, 'see');
  requireEncrypted(room);
  const own = (await memberStates(app, room, [user.id])).get(user.id);
  const copy = own?.state === 'approved' ? (await roomKeyCopies(app, room, [user.id])).get(user.id) : undefined;
  const uploaders = await signersOf(app.db, room.id);
  const signers = [];
  // With each signer's role now: readers refuse metadata signed by one who may not write (README section 7).
  const roles = await strongestRoles(app.db, room.id, uploaders.map((u) => u.id));
  for (const u of uploaders) signers.push({ userUuid: u.uuid, email: u.email, role: roles.get(u.id) ?? null, keys: await app.secupass.publicKeysWithRetiredOf(u.id) });
  return {
    state: own?.state ?? 'noSecuPass',
    roomKey: copy ? { id: copy.id, recipientKeyId: copy.recipient_key_id, wrappedKey: JSON.parse(copy.wrapped_key) as WrappedFileKeyWire, ...(await grantOfCopy(app, room, user.id, copy.recipient_key_id)) } : null,
    signers,
  };
}
