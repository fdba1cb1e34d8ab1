// Data-room requests (issue 15 §2, server/README "Data-room requests"): an OWNER or EDITOR of a
// plain room asks an address for files for one folder. Create (mailed link), list and revoke for
// the room; the public token calls: what is asked, and the signup of an unregistered address.
import { randomUUID } from 'node:crypto';
import { reduceLanguage, type Language } from '@shared/contract/constants';
import {
  ROOM_REQUEST_DEFAULT_DAYS,
  ROOM_REQUEST_WEB_LINKS,
  type CreateRoomRequestBody,
  type RoomRequest,
  type RoomRequestInfo,
  type RoomRequestList,
  type RoomRequestSignupBody,
} from '@shared/contract/room-requests';
import { isValidEmail } from '@shared/rules/send-rules';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { userAlreadyRegistered } from '../../core/authorization-errors';
import { badRequest, notFound } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { claimUnprovenAccount, DELIVERY_SIGNUP_ROLES } from '../../external/external-service';
import { assertPasswordMeetsPolicy } from '../../security/password-policy';
import { hashPassword } from '../../users/passwords';
import { UserExistsError, type UserRow } from '../../users/users-repository';
import { newRequestToken, openRequestByToken, requestTokenHash, toWire, type RequestRow } from './request-rows';
import { personName } from '../kind/activity';
import { liveFolder, liveRoom, requireRole, type RoomRow } from '../kind/roles';
import { requireRoomKind } from '../kind/room-kind';

const DAY_MS = 86_400_000;
export const displayNameOf = (u: Pick<UserRow, 'first_name' | 'last_name' | 'email'>) => `${u.first_name} ${u.last_name}`.trim() || u.email;

async function accountOf(app: FastifyInstance, email: string): Promise<UserRow | undefined> {
  return app.db.selectFrom('users').selectAll().where(sql<string>`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
}

/** 409: the server cannot put plaintext into an end-to-end encrypted room. */
export const refuseEncryptedRoom = (room: RoomRow): void =>
  requireRoomKind(room, 'plain', 'This is a Secure room (end-to-end encrypted): files cannot be requested for it, the server would have to put unencrypted files into it');

export async function createRequest(ctx: RequestContext, roomUuid: string, input: CreateRoomRequestBody): Promise<RoomRequest> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const folder = input.folderUuid ? await liveFolder(app.db, room, input.folderUuid) : undefined;
  // Whoever may upload there (OWNER, EDITOR) may ask someone else to.
  await requireRole(app.db, room, user.id, 'upload', folder);
  refuseEncryptedRoom(room);
  const email = input.email.trim().toLowerCase();
  if (!isValidEmail(email)) throw badRequest('The email address is not valid', { field: 'email', reason: 'invalidEmail' });
  if (email === user.email.toLowerCase()) throw badRequest('You cannot request files from yourself', { field: 'email', reason: 'ownAddress' });
  const token = newRequestToken();
  const now = Date.now();
  const row = await app.db
    .insertInto('room_requests')
    .values({
      uuid: randomUUID(),
      room_id: room.id,
      folder_id: folder?.id ?? null,
      requester_id: user.id,
      email,
      message: (input.message ?? '').trim(),
      token_hash: requestTokenHash(token),
      expires_at: now + ROOM_REQUEST_DEFAULT_DAYS * DAY_MS,
      delivery_id: null,
      used_at: null,
      copied_at: null,
      revoked_at: null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const account = await accountOf(app, email);
  const registered = account?.email_verified === 1;
  const language: Language = account ? reduceLanguage(account.language) : (input.language ?? reduceLanguage(user.language));
  await app.mailer.send({
    to: email,
    template: 'roomRequest',
    language,
    data: {
      requesterName: displayNameOf(user),
      requesterEmail: user.email,
      roomName: room.name,
      folderName: folder?.name ?? null,
      message: row.message,
      link: `${app.config.publicUrl}${registered ? ROOM_REQUEST_WEB_LINKS.send(token) : ROOM_REQUEST_WEB_LINKS.signup(token)}`,
      expiresOn: new Date(Number(row.expires_at)).toISOString().slice(0, 10),
      signup: !registered,
    },
  });
  return toWire(row, { roomUuid: room.uuid, folderUuid: folder?.uuid ?? null, folderName: folder?.name ?? null, requestedBy: user.email, requestedByName: personName(user) });
}

/** Every request of the room, newest first (OWNER: like the access list). */
export async function listRequests(ctx: RequestContext, roomUuid: string): Promise<RoomRequestList> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  await requireRole(app.db, room, user.id, 'manageAccess');
  const rows = await app.db
    .selectFrom('room_requests as r')
    .leftJoin('room_folders as f', 'f.id', 'r.folder_id')
    .innerJoin('users as u', 'u.id', 'r.requester_id')
    .selectAll('r')
    .select(['f.uuid as folder_uuid', 'f.name as folder_name', 'u.email as requester_email', 'u.first_name', 'u.last_name'])
    .where('r.room_id', '=', room.id)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
  return {
    requests: rows.map((r) => toWire(r, { roomUuid: room.uuid, folderUuid: r.folder_uuid, folderName: r.folder_name, requestedBy: r.requester_email, requestedByName: personName(r) })),
  };
}

/** Revokes a request not used yet: its link answers 410 from now on (OWNER). */
export async function revokeRequest(ctx: RequestContext, roomUuid: string, requestUuid: string): Promise<void> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  await requireRole(app.db, room, user.id, 'manageAccess');
  const row = await app.db.selectFrom('room_requests').select('id').where('uuid', '=', requestUuid).where('room_id', '=', room.id).executeTakeFirst();
  if (!row) throw notFound('Request not found');
  await app.db.updateTable('room_requests').set({ revoked_at: Date.now() }).where('id', '=', row.id).where('used_at', 'is', null).where('revoked_at', 'is', null).execute();
}

/** The room and folder of an open request (a room or folder deleted meanwhile: the request is gone with it). */
export async function requestPlace(app: FastifyInstance, row: RequestRow) {
  const room = await app.db.selectFrom('data_rooms').selectAll().where('id', '=', row.room_id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!room) throw notFound('Data room not found');
  const folder = row.folder_id === null ? undefined : await app.db.selectFrom('room_folders').selectAll().where('id', '=', row.folder_id).executeTakeFirst();
  if (row.folder_id !== null) {
    if (!folder) throw notFound('Folder not found');
    await liveFolder(app.db, room, folder.uuid);
  }
  const requester = await app.db.selectFrom('users').selectAll().where('id', '=', row.requester_id).executeTakeFirstOrThrow();
  return { room, folder, requester };
}

export async function requestInfo(app: FastifyInstance, token: string): Promise<RoomRequestInfo> {
  const row = await openRequestByToken(app.db, token);
  const { room, folder, requester } = await requestPlace(app, row);
  const account = await accountOf(app, row.email);
  return {
    requesterName: displayNameOf(requester),
    requesterEmail: requester.email,
    roomName: room.name,
    folderName: folder?.name ?? null,
    message: row.message,
    email: row.email,
    registered: account?.email_verified === 1,
    expiresAt: Number(row.expires_at),
  };
}

/**
 * The requested address's account, as delivery signup makes it (external/external-service.ts):
 * the mailed link proved the address; an outsider account (reply-only, unlicensed) that may answer
 * its requester (deliveries/senders.ts). The web signs in with the password next.
 */
export async function requestSignup(app: FastifyInstance, token: string, input: RoomRequestSignupBody): Promise<{ email: string }> {
  const row = await openRequestByToken(app.db, token);
  await requestPlace(app, row);
  const existing = await accountOf(app, row.email);
  if (existing?.email_verified === 1) throw userAlreadyRegistered();
  await assertPasswordMeetsPolicy(app.settings, input.password);
  if (existing) {
    await claimUnprovenAccount(app, existing, input);
    await app.auditLog.record({ action: 'roomRequest.signup', actorUserId: existing.id, subjectUserId: existing.id, details: { requestUuid: row.uuid, claimedAccount: true } });
    return { email: row.email };
  }
  try {
    const created = await app.users.create({
      username: row.email,
      email: row.email,
      passwordHash: await hashPassword(input.password),
      firstName: input.firstName?.trim() ?? '',
      lastName: input.lastName?.trim() ?? '',
      roles: DELIVERY_SIGNUP_ROLES,
      language: input.language ?? 'en',
      emailVerified: true,
      licensed: false,
    });
    await app.auditLog.record({ action: 'roomRequest.signup', actorUserId: created.id, subjectUserId: created.id, details: { requestUuid: row.uuid } });
  } catch (error) {
    if (error instanceof UserExistsError) throw userAlreadyRegistered();
    throw error;
  }
  return { email: row.email };
}
