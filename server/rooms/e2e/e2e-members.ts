// E2E rooms: the members' key states and the grant (release) — an OWNER re-wraps the room key to a
// member who activated end-to-end encryption after being invited (SPEC §4 "grant-access progress").
import { ROOM_ROLES, type RoomRole } from '@shared/contract/rooms';
import type { E2eGrantBody, E2eMember, E2eMemberList } from '@shared/contract/rooms-e2e';
import type { WrappedFileKeyWire } from '@shared/contract/secupass';
import { badRequest, notFound } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { recordActivity } from '../kind/activity';
import { e2eAccessFlagsOfState } from './e2e-flags';
import { grantOfCopy, memberStates, requireEncrypted, roomKeyCopies, storeRoomKeyCopy } from './e2e-rooms';
import { noticeKeyGranted } from '../kind/room-notices';
import { isRoomRole, liveRoom, requireRole, type RoomRow } from '../kind/roles';
import type { FastifyInstance } from 'fastify';

const displayName = (u: { first_name: string; last_name: string; email: string }) => `${u.first_name} ${u.last_name}`.trim() || u.email;

/** Everyone with an entry anywhere in the room (room or folder), with their strongest role. */
async function membersOf(app: FastifyInstance, room: RoomRow, onlyUserId?: number): Promise<E2eMember[]> {
  let query = app.db
    .selectFrom('room_access')
    .innerJoin('users', 'users.id', 'room_access.user_id')
    .select(['users.id', 'users.uuid', 'users.email', 'users.first_name', 'users.last_name', 'room_access.role'])
    .where('room_access.room_id', '=', room.id);
  if (onlyUserId !== undefined) query = query.where('users.id', '=', onlyUserId);
  const rows = await query.execute();
  const strongest = new Map<number, { row: (typeof rows)[number]; role: RoomRole }>();
  for (const row of rows) {
    if (!isRoomRole(row.role)) continue;
    const seen = strongest.get(row.id);
    if (!seen || ROOM_ROLES.indexOf(row.role) < ROOM_ROLES.indexOf(seen.role)) strongest.set(row.id, { row, role: row.role });
  }
  const states = await memberStates(app, room, [...strongest.keys()]);
  // The approved members' copies with their grants: the OWNER's browser verifies each (grant-state column).
  const copies = await roomKeyCopies(app, room, [...strongest.keys()].filter((id) => states.get(id)?.state === 'approved'));
  const members: E2eMember[] = [];
  for (const { row, role } of strongest.values()) {
    const s = states.get(row.id) ?? { state: 'noSecuPass' as const, keys: [] };
    const copy = s.state === 'approved' ? copies.get(row.id) : undefined;
    members.push({
      user: { uuid: row.uuid, email: row.email, name: displayName(row) },
      role,
      state: s.state,
      ...e2eAccessFlagsOfState(s.state),
      keys: s.keys,
      copy: copy ? { wrappedKey: JSON.parse(copy.wrapped_key) as WrappedFileKeyWire, ...(await grantOfCopy(app, room, row.id, copy.recipient_key_id)) } : null,
    });
  }
  return members.sort((a, b) => a.user.email.localeCompare(b.user.email));
}

export async function listE2eMembers(ctx: RequestContext, roomUuid: string): Promise<E2eMemberList> {
  const room = await liveRoom(ctx.app.db, roomUuid);
  await requireRole(ctx.app.db, room, ctx.user.id, 'manageAccess');
  requireEncrypted(room);
  return { members: await membersOf(ctx.app, room) };
}

/**
 * Grant: the OWNER unwrapped her copy and wrapped the room key to the member's live encryption
 * key (after her pin check); the server checks the key is that member's live one and stores it.
 * Decline (`approve: false`): the member's current key is marked not approved.
 */
export async function grantE2eKey(ctx: RequestContext, roomUuid: string, userUuid: string, body: E2eGrantBody): Promise<E2eMember> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  await requireRole(app.db, room, user.id, 'manageAccess');
  requireEncrypted(room);
  const target = await app.db.selectFrom('users').select(['id', 'uuid', 'email', 'first_name', 'last_name', 'language']).where('uuid', '=', userUuid).executeTakeFirst();
  const [member] = target ? await membersOf(app, room, target.id) : [];
  if (!target || !member) throw notFound('This user is not a member of the data room');
  if (member.encryptionNotActivated) throw badRequest('The member has not activated end-to-end encryption yet', { reason: 'encryptionNotActivated' });
  const keyId = member.keys.find((k) => k.usage === 'encryption')?.keyId ?? '';
  if (body.approve) {
    if (!body.recipientKeyId || !body.wrappedKey) throw badRequest('A grant carries the wrapped room key', { field: 'wrappedKey', reason: 'wrappedKeyMissing' });
    await storeRoomKeyCopy(app, room, target, { recipientKeyId: body.recipientKeyId, wrappedKey: body.wrappedKey, grant: body.grant }, user);
    await app.db.deleteFrom('room_e2e_declines').where('room_id', '=', room.id).where('user_id', '=', target.id).execute();
  } else {
    await app.db.deleteFrom('room_e2e_declines').where('room_id', '=', room.id).where('user_id', '=', target.id).execute();
    await app.db.insertInto('room_e2e_declines').values({ room_id: room.id, user_id: target.id, key_id: keyId, declined_by: user.id, declined_at: Date.now() }).execute();
  }
  // An OWNER's grant to herself (re-signing her own copy, README section 7) shares nothing: not logged.
  if (target.id !== user.id) {
    await recordActivity(app.db, body.approve ? 'keys_shared' : 'keys_declined', user, { room, folderId: null, name: room.name }, member.user.email);
    if (body.approve) await noticeKeyGranted(app, ctx.log, room, user, target);
  }
  const [after] = await membersOf(app, room, target.id);
  return after ?? member;
}
