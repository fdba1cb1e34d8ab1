import type { RoomAccessSetResult } from '@shared/contract/room-invitations';
import type { RoomAccessEntry, RoomAccessList, RoomRole } from '@shared/contract/rooms';
import { ROOM_KEY_DESCRIPTOR_FILE_ID } from '@shared/contract/rooms-e2e';
import { isValidEmail } from '@shared/rules/send-rules';
import { HttpError } from '../../core/http-error';
import { recordActivity } from '../kind/activity';
import { e2eAccessFlags } from '../e2e/e2e-flags';
import { dropRoomKeyCopyOfFormerMember, ROOM_DESCRIPTOR_KIND } from '../e2e/e2e-rooms';
import type { RequestContext } from '../../core/request-context';
import { mayInvite } from '../../users/invite-rights';
import { inviteAddress } from './invitations';
import { noticeAddedToRoom } from '../kind/room-notices';
import { ancestorsOf, isRoomRole, liveFolder, liveRoom, requireRole, type FolderRow, type RoomRow } from '../kind/roles';
import { isSecureRoom } from '../kind/room-kind';

const displayName = (u: { first_name: string; last_name: string; email: string }) => `${u.first_name} ${u.last_name}`.trim() || u.email;

/**
 * Every user's effective role on the room or folder, with where it is set (SPEC §6: OWNERs only see this),
 * and the SPEC §3 flags. One query: the entries joined with the live encryption key and the live
 * room-key copy, so an E2E room's flags cost no query per member. Pending invitations of addresses
 * without an account are not entries (GET …/invitations lists them), so `notRegistered` is false here.
 */
async function entriesAt(ctx: RequestContext, room: RoomRow, folder: FolderRow | undefined): Promise<RoomAccessEntry[]> {
  const { app } = ctx;
  // Nearest first: the folder, the folders above it, then the room (null).
  const chain: Array<FolderRow | null> = folder ? [folder, ...(await ancestorsOf(app.db, folder)), null] : [null];
  const rows = await app.db
    .selectFrom('room_access')
    .innerJoin('users', 'users.id', 'room_access.user_id')
    // As e2e-rooms memberStates: an active SecuPass's live encryption key, and a copy wrapped to that key.
    .leftJoin('secupass', (join) => join.onRef('secupass.user_id', '=', 'users.id').on('secupass.state', '=', 'active'))
    .leftJoin('public_keys', (join) =>
      join.onRef('public_keys.user_id', '=', 'secupass.user_id').on('public_keys.usage', '=', 'encryption').on('public_keys.revoked_at', 'is', null),
    )
    .leftJoin('access_descriptors', (join) =>
      join
        .onRef('access_descriptors.recipient_user_id', '=', 'users.id')
        .onRef('access_descriptors.recipient_key_id', '=', 'public_keys.key_id')
        .on('access_descriptors.resource_kind', '=', ROOM_DESCRIPTOR_KIND)
        .on('access_descriptors.resource_id', '=', room.uuid)
        .on('access_descriptors.file_id', '=', ROOM_KEY_DESCRIPTOR_FILE_ID)
        .on('access_descriptors.invalidated_at', 'is', null),
    )
    .select(['room_access.folder_id', 'room_access.role', 'room_access.wrapped_key', 'users.id', 'users.uuid', 'users.email', 'users.username', 'users.first_name', 'users.last_name'])
    .select(['public_keys.key_id as encryption_key_id', 'access_descriptors.id as room_key_copy_id'])
    .where('room_access.room_id', '=', room.id)
    .execute();
  const e2e = isSecureRoom(room);
  const entries: RoomAccessEntry[] = [];
  for (const userId of new Set(rows.map((r) => r.id))) {
    const own = rows.filter((r) => r.id === userId);
    const activated = own.some((r) => r.encryption_key_id !== null);
    const hasCopy = own.some((r) => r.room_key_copy_id !== null);
    for (const level of chain) {
      const row = own.find((r) => r.folder_id === (level?.id ?? null));
      if (!row || !isRoomRole(row.role)) continue;
      entries.push({
        user: { uuid: row.uuid, email: row.email, username: row.username, name: displayName(row) },
        role: row.role,
        setOn: level?.uuid ?? null,
        inherited: level !== chain[0],
        wrappedKey: row.wrapped_key,
        notRegistered: false,
        ...e2eAccessFlags(e2e, { activated, hasRoomKeyCopy: hasCopy }),
      });
      break;
    }
  }
  return entries.sort((a, b) => a.user.email.localeCompare(b.user.email));
}

export async function listAccess(ctx: RequestContext, roomUuid: string, folderUuid: string | undefined): Promise<RoomAccessList> {
  const room = await liveRoom(ctx.app.db, roomUuid);
  const folder = folderUuid === undefined ? undefined : await liveFolder(ctx.app.db, room, folderUuid);
  await requireRole(ctx.app.db, room, ctx.user.id, 'manageAccess', folder);
  return { entries: await entriesAt(ctx, room, folder) };
}

const refuse = (status: number, errorClass: 'ConflictException' | 'InviteUserToShareException', message: string, metadata: Record<string, unknown>) =>
  new HttpError(status, errorClass, message, metadata);

/**
 * Grants, changes or revokes (`role: null`) a registered user's entry on the room or a folder.
 * An address without any account is invited instead (rooms/sharing/invitations.ts) when the caller may
 * invite (the deliveries' rule, users/invite-rights.ts); otherwise, and for disabled users,
 * only registered users (SPEC §5 "invitation only for registered users"); the caller's
 * own entry only with `confirmOwnChange` (irreversible: an OWNER who steps down cannot step up
 * again); the room's last OWNER cannot step down or leave.
 */
export async function setAccess(
  ctx: RequestContext,
  roomUuid: string,
  input: { user: string; role: RoomRole | null; folderUuid?: string | undefined; confirmOwnChange?: boolean | undefined },
): Promise<RoomAccessSetResult> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const folder = input.folderUuid === undefined ? undefined : await liveFolder(app.db, room, input.folderUuid);
  await requireRole(app.db, room, user.id, 'manageAccess', folder);
  const target = await app.users.findByLogin(input.user);
  const address = input.user.trim().toLowerCase();
  if (!target && input.role !== null && isValidEmail(address) && (await mayInvite(app, user))) {
    const invitation = await inviteAddress(ctx, room, folder, address, input.role);
    return { entries: await entriesAt(ctx, room, folder), invitation };
  }
  if (!target || target.disabled === 1) {
    throw refuse(400, 'InviteUserToShareException', 'Only registered users can be invited to a data room', { field: 'user', reason: 'notRegistered', user: input.user });
  }
  if (target.id === user.id && input.confirmOwnChange !== true) {
    throw refuse(409, 'ConflictException', 'Changing your own access cannot be undone; confirm it to continue', { reason: 'confirmOwnChange' });
  }
  const folderId = folder?.id ?? null;
  // Someone who could not see the room before is told they can now (room-notices.ts).
  const hadAccess = await app.db.selectFrom('room_access').select('id').where('room_id', '=', room.id).where('user_id', '=', target.id).executeTakeFirst();
  await app.db.transaction().execute(async (trx) => {
    let existing = trx.deleteFrom('room_access').where('room_id', '=', room.id).where('user_id', '=', target.id);
    existing = folderId === null ? existing.where('folder_id', 'is', null) : existing.where('folder_id', '=', folderId);
    await existing.execute();
    if (input.role !== null) {
      await trx
        .insertInto('room_access')
        .values({ room_id: room.id, folder_id: folderId, user_id: target.id, role: input.role, wrapped_key: null, granted_by: user.id, created_at: Date.now() })
        .execute();
    }
    if (folderId === null) {
      const owners = await trx
        .selectFrom('room_access')
        .select('id')
        .where('room_id', '=', room.id)
        .where('folder_id', 'is', null)
        .where('role', '=', 'OWNER')
        .executeTakeFirst();
      // Throwing rolls the change back.
      if (!owners) throw refuse(409, 'ConflictException', 'The last owner cannot leave the data room or give up ownership', { reason: 'lastOwner' });
    }
  });
  if (input.role === null) await dropRoomKeyCopyOfFormerMember(app, room, target.id);
  else if (!hadAccess && target.id !== user.id) await noticeAddedToRoom(app, ctx.log, room, user, target, input.role);
  // In the log of the room or folder: who, and the role given (none: revoked).
  const item = folder ? { room, folderId: folder.id, uuid: folder.uuid, name: folder.name } : { room, folderId: null, name: room.name };
  await recordActivity(app.db, input.role === null ? 'access_revoked' : 'access_changed', user, item, input.role === null ? target.email : `${target.email}: ${input.role}`);
  // The caller may have just given up the right to see the list.
  const stillOwner = await requireRole(app.db, room, user.id, 'see', folder).catch(() => null);
  return { entries: stillOwner === 'OWNER' ? await entriesAt(ctx, room, folder) : [] };
}
