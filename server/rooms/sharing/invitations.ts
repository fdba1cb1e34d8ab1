// Data-room invitations of addresses without an account (server/README "Room invitations"):
// sharing with such an address stores a pending invitation and mails a single-use signup link;
// the invitee's signup makes the account and the access entry in one transaction.
import { randomUUID } from 'node:crypto';
import { reduceLanguage, type Language, type RoleName } from '@shared/contract/constants';
import { EMAIL_CHECK_IP_LIMIT } from '@shared/contract/external';
import {
  ROOM_INVITATION_GONE,
  ROOM_INVITATION_VALID_DAYS_DEFAULT,
  ROOM_INVITATION_VALID_DAYS_KEY,
  ROOM_INVITATION_VALID_DAYS_RANGE,
  ROOM_INVITATION_WEB_LINKS,
  type InvitationDetails,
  type InvitationSignupBody,
  type InvitationSignupResponse,
  type RoomInvitation,
  type RoomInvitationList,
} from '@shared/contract/room-invitations';
import type { RoomRole } from '@shared/contract/rooms';
import type { FastifyInstance } from 'fastify';
import { sql, type Selectable } from 'kysely';
import { userAlreadyRegistered } from '../../core/authorization-errors';
import { HttpError, notFound, rateLimitExceeded } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { assertPasswordMeetsPolicy } from '../../security/password-policy';
import { linkTokenHash, newLinkToken } from '../../security/link-tokens';
import { RATE_LIMIT_BUCKETS } from '../../security/rate-limiter';
import { hashPassword } from '../../users/passwords';
import { createUsersRepository, UserExistsError } from '../../users/users-repository';
import { isRoomRole, liveFolder, liveRoom, requireRole, type FolderRow, type RoomRow } from '../kind/roles';
import '../kind/invitation-tables';
import type { RoomInvitationsTable } from '../kind/invitation-tables';
import { isSecureRoom } from '../kind/room-kind';

type InvitationRow = Selectable<RoomInvitationsTable>;

const DAY_MS = 86_400_000;
/** Roles of an account made from a room invitation: it uses the web client and receives deliveries. */
export const ROOM_SIGNUP_ROLES: readonly RoleName[] = ['ROLE_UI_USER', 'ROLE_RECEIVER'];

const displayName = (u: { first_name: string; last_name: string; email: string }) => `${u.first_name} ${u.last_name}`.trim() || u.email;

/** SPEC §8 "invitation expired or used": one answer for both, so the link tells nothing more. */
const gone = () => new HttpError(410, ROOM_INVITATION_GONE, 'The invitation has expired or was used already', { reason: 'invitationExpiredOrUsed' });

async function validDays(app: FastifyInstance): Promise<number> {
  const days = await app.settings.get<number>(ROOM_INVITATION_VALID_DAYS_KEY);
  const [min, max] = ROOM_INVITATION_VALID_DAYS_RANGE;
  return typeof days === 'number' && Number.isInteger(days) && days >= min && days <= max ? days : ROOM_INVITATION_VALID_DAYS_DEFAULT;
}

async function toWire(app: FastifyInstance, rows: InvitationRow[], now = Date.now()): Promise<RoomInvitation[]> {
  const folderIds = [...new Set(rows.map((r) => r.folder_id).filter((id): id is number => id !== null))];
  const userIds = [...new Set(rows.map((r) => r.invited_by).filter((id): id is number => id !== null))];
  const folders = folderIds.length ? await app.db.selectFrom('room_folders').select(['id', 'uuid']).where('id', 'in', folderIds).execute() : [];
  const users = userIds.length ? await app.db.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('id', 'in', userIds).execute() : [];
  return rows.map((r) => ({
    uuid: r.uuid,
    email: r.email,
    role: isRoomRole(r.role) ? r.role : 'PREVIEWER',
    folderUuid: r.folder_id === null ? null : (folders.find((f) => f.id === r.folder_id)?.uuid ?? null),
    invitedBy: (() => {
      const u = users.find((x) => x.id === r.invited_by);
      return u ? displayName(u) : '';
    })(),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    expired: Number(r.expires_at) <= now,
  }));
}

/**
 * Invites `email` (no account yet) to the room or folder with `role`: a pending invitation
 * replaces an earlier one for the same place and address (a new link; the old one stops), and the
 * link goes out by mail. The caller checked the OWNER right and the inviter's invite right.
 * No mail, no invitation: a mail failure answers 503 and leaves nothing behind.
 */
export async function inviteAddress(ctx: RequestContext, room: RoomRow, folder: FolderRow | undefined, email: string, role: RoomRole): Promise<RoomInvitation> {
  const { app, user } = ctx;
  const address = email.trim().toLowerCase();
  const days = await validDays(app);
  const token = newLinkToken();
  const now = Date.now();
  const folderId = folder?.id ?? null;
  const uuid = randomUUID();
  await app.db.transaction().execute(async (trx) => {
    let earlier = trx.updateTable('room_invitations').set({ revoked_at: now }).where('room_id', '=', room.id).where('email', '=', address).where('used_at', 'is', null).where('revoked_at', 'is', null);
    earlier = folderId === null ? earlier.where('folder_id', 'is', null) : earlier.where('folder_id', '=', folderId);
    await earlier.execute();
    await trx
      .insertInto('room_invitations')
      .values({ uuid, room_id: room.id, folder_id: folderId, role, email: address, token_hash: linkTokenHash(token), expires_at: now + days * DAY_MS, used_at: null, revoked_at: null, invited_by: user.id, created_at: now })
      .execute();
  });
  try {
    await app.mailer.send({
      to: address,
      template: 'roomInvitation',
      language: reduceLanguage(user.language),
      data: {
        inviterName: displayName(user),
        roomName: isSecureRoom(room) ? null : room.name,
        role,
        link: `${app.config.publicUrl}${ROOM_INVITATION_WEB_LINKS.signup(token)}`,
        validDays: days,
      },
    });
  } catch (err) {
    await app.db.deleteFrom('room_invitations').where('uuid', '=', uuid).execute();
    ctx.log.error({ err }, 'room invitation mail failed');
    throw new HttpError(503, 'InternalServerException', 'The invitation could not be sent; please try again later', { reason: 'invitationNotSent' });
  }
  await app.auditLog.record({ action: 'room.invitation', actorUserId: user.id, subjectUserId: null, details: { roomUuid: room.uuid, email: address, role } });
  const row = await app.db.selectFrom('room_invitations').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();
  return (await toWire(app, [row]))[0]!;
}

/** The pending (not used) invitations set on the room or on the folder (OWNER there). */
export async function listInvitations(ctx: RequestContext, roomUuid: string, folderUuid: string | undefined): Promise<RoomInvitationList> {
  const room = await liveRoom(ctx.app.db, roomUuid);
  const folder = folderUuid === undefined ? undefined : await liveFolder(ctx.app.db, room, folderUuid);
  await requireRole(ctx.app.db, room, ctx.user.id, 'manageAccess', folder);
  let query = ctx.app.db.selectFrom('room_invitations').selectAll().where('room_id', '=', room.id).where('used_at', 'is', null).where('revoked_at', 'is', null);
  query = folder ? query.where('folder_id', '=', folder.id) : query.where('folder_id', 'is', null);
  const rows = await query.orderBy('email').execute();
  return { invitations: await toWire(ctx.app, rows) };
}

/** Revokes a pending invitation (OWNER where it was made): it leaves the list, its link answers 410. */
export async function revokeInvitation(ctx: RequestContext, roomUuid: string, invitationUuid: string): Promise<void> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const row = await app.db
    .selectFrom('room_invitations')
    .selectAll()
    .where('uuid', '=', invitationUuid)
    .where('room_id', '=', room.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) {
    await requireRole(app.db, room, user.id, 'see');
    throw notFound('Invitation not found');
  }
  const folderRow = row.folder_id === null ? undefined : await app.db.selectFrom('room_folders').selectAll().where('id', '=', row.folder_id).executeTakeFirst();
  await requireRole(app.db, room, user.id, 'manageAccess', folderRow);
  await app.db.updateTable('room_invitations').set({ revoked_at: Date.now() }).where('id', '=', row.id).execute();
  await app.auditLog.record({ action: 'room.invitation.revoke', actorUserId: user.id, subjectUserId: null, details: { roomUuid: room.uuid, email: row.email } });
}

interface LiveInvitation {
  invitation: InvitationRow;
  room: RoomRow;
  folder: FolderRow | undefined;
}

/**
 * The invitation behind a token, rate limited per client address like the delivery signup: an
 * unknown token is 404 (`reason: linkInvalid`); expired, used, revoked or replaced invitations and
 * invitations whose room or folder went to the trash are 410 alike.
 */
async function invitationByToken(app: FastifyInstance, token: string, ip: string): Promise<LiveInvitation> {
  const byIp = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.roomInvitationIp, ip, EMAIL_CHECK_IP_LIMIT);
  if (!byIp.allowed) throw rateLimitExceeded(byIp.retryAfterMs);
  const invitation = await app.db.selectFrom('room_invitations').selectAll().where('token_hash', '=', linkTokenHash(token.trim())).executeTakeFirst();
  if (!invitation) throw notFound('Invitation not found', { reason: 'linkInvalid' });
  if (invitation.used_at !== null || invitation.revoked_at !== null || Number(invitation.expires_at) <= Date.now()) throw gone();
  const room = await app.db.selectFrom('data_rooms').selectAll().where('id', '=', invitation.room_id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!room) throw gone();
  const folder = invitation.folder_id === null ? undefined : await liveFolder(app.db, room, (await folderUuidOf(app, invitation.folder_id)) ?? '').catch(() => null);
  if (folder === null) throw gone();
  return { invitation, room, folder };
}

async function folderUuidOf(app: FastifyInstance, folderId: number): Promise<string | undefined> {
  return (await app.db.selectFrom('room_folders').select('uuid').where('id', '=', folderId).executeTakeFirst())?.uuid;
}

export async function checkInvitation(app: FastifyInstance, token: string, ip: string): Promise<InvitationDetails> {
  const { invitation, room } = await invitationByToken(app, token, ip);
  const inviter = invitation.invited_by === null ? undefined : await app.users.findById(invitation.invited_by);
  return {
    email: invitation.email,
    role: isRoomRole(invitation.role) ? invitation.role : 'PREVIEWER',
    encrypted: isSecureRoom(room),
    roomName: isSecureRoom(room) ? null : room.name,
    inviterName: inviter ? displayName(inviter) : '',
    expiresAt: Number(invitation.expires_at),
  };
}

const userExists = userAlreadyRegistered;

/**
 * Dataroom registration completion: the password policy, then in one transaction the claim of
 * the invitation (`used_at IS NULL` → now; of two concurrent tries exactly one claims it, the
 * other gets 410), the account (address verified by the link, unlicensed) and the access entry
 * with the invited role. In an E2E room the member has no room key yet (state noSecuPass) like
 * any member without keys; an OWNER grants it after they activate encryption.
 */
export async function completeInvitation(app: FastifyInstance, input: InvitationSignupBody, ip: string): Promise<InvitationSignupResponse> {
  const { invitation, room, folder } = await invitationByToken(app, input.token, ip);
  await assertPasswordMeetsPolicy(app.settings, input.password);
  const existing = await app.db.selectFrom('users').select('id').where(sql<string>`lower(email)`, '=', invitation.email).executeTakeFirst();
  if (existing) throw userExists();
  const passwordHash = await hashPassword(input.password);
  const language: Language = input.language ?? 'en';
  const created = await app.db.transaction().execute(async (trx) => {
    const claimed = await trx.updateTable('room_invitations').set({ used_at: Date.now() }).where('id', '=', invitation.id).where('used_at', 'is', null).where('revoked_at', 'is', null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw gone();
    let user;
    try {
      user = await createUsersRepository(trx).create({
        username: invitation.email,
        email: invitation.email,
        passwordHash,
        firstName: input.firstName?.trim() ?? '',
        lastName: input.lastName?.trim() ?? '',
        roles: ROOM_SIGNUP_ROLES,
        language,
        // The mailed link reached this address: that is the verification.
        emailVerified: true,
        // An outsider costs no licence.
        licensed: false,
      });
    } catch (error) {
      if (error instanceof UserExistsError) throw userExists();
      throw error;
    }
    await trx
      .insertInto('room_access')
      .values({ room_id: room.id, folder_id: folder?.id ?? null, user_id: user.id, role: invitation.role, wrapped_key: null, granted_by: invitation.invited_by, created_at: Date.now() })
      .execute();
    await app.auditLog.record({ action: 'room.invitation.signup', actorUserId: user.id, subjectUserId: user.id, details: { roomUuid: room.uuid } }, trx);
    return user;
  });
  return { email: created.email, roomUuid: room.uuid, folderUuid: folder?.uuid ?? null };
}
