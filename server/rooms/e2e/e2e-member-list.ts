// E2E rooms: the signed member list (shared/crypto/README.md section 7 "Who is a member: the signed
// member list"). The server stores every list an OWNER's browser signed and serves the latest (or
// a version asked for); it cannot check the signature for the reader and need not — it checks only
// what keeps the list usable: this room, signed in the caller's name, the next version.
import type { PutRoomMemberListBody, RoomMemberListState, SignedRoomMemberListWire } from '@shared/contract/rooms-e2e-member-list';
import { badRequest, conflict, notFound } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { requireEncrypted } from './e2e-rooms';
import { liveRoom, requireRole, type RoomRow } from '../kind/roles';
import type { FastifyInstance } from 'fastify';

async function stateOf(app: FastifyInstance, room: RoomRow, version?: number): Promise<RoomMemberListState> {
  // An earlier version from the history (migration 0062), else the latest.
  const row = version === undefined
    ? await app.db.selectFrom('room_e2e_member_lists').selectAll().where('room_id', '=', room.id).executeTakeFirst()
    : await app.db.selectFrom('room_e2e_member_list_versions').selectAll().where('room_id', '=', room.id).where('version', '=', version).executeTakeFirst();
  if (!row && version !== undefined) throw notFound(`This room has no member list of version ${version}`);
  if (!row) return { signedList: null, signer: null };
  const signer = row.signed_by === null ? undefined : await app.db.selectFrom('users').select(['id', 'uuid', 'email']).where('id', '=', row.signed_by).executeTakeFirst();
  return {
    signedList: JSON.parse(row.signed_list) as SignedRoomMemberListWire,
    signer: signer ? { userUuid: signer.uuid, email: signer.email, keys: await app.secupass.publicKeysWithRetiredOf(signer.id) } : null,
  };
}

/** Any member (a role on the room or a folder) reads the list (`version`: that one, kept since migration 0062); others get 404. */
export async function getE2eMemberList(ctx: RequestContext, roomUuid: string, version?: number): Promise<RoomMemberListState> {
  const room = await liveRoom(ctx.app.db, roomUuid);
  await requireRole(ctx.app.db, room, ctx.user.id, 'see');
  requireEncrypted(room);
  return stateOf(ctx.app, room, version);
}

/** An OWNER stores the next list: 400 `memberListMismatch` for another room or signer, 409 for a version that is not the next one. */
export async function putE2eMemberList(ctx: RequestContext, roomUuid: string, body: PutRoomMemberListBody): Promise<RoomMemberListState> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  await requireRole(app.db, room, user.id, 'manageAccess');
  requireEncrypted(room);
  const { list } = body.signedList;
  if (list.roomId !== room.uuid || list.signerUserId !== user.uuid) {
    throw badRequest('The member list names another room or signer', { field: 'signedList', reason: 'memberListMismatch' });
  }
  await app.db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom('room_e2e_member_lists').select('version').where('room_id', '=', room.id).executeTakeFirst();
    const next = (current?.version ?? 0) + 1;
    if (list.version !== next) throw conflict(`The member list changed meanwhile: the next version is ${next}`);
    const values = { version: list.version, signed_by: user.id, signed_list: JSON.stringify(body.signedList), created_at: Date.now() };
    // The version check above and this write in one transaction: two OWNERs writing at once, one gets 409.
    const written = current
      ? await trx.updateTable('room_e2e_member_lists').set(values).where('room_id', '=', room.id).where('version', '=', current.version).executeTakeFirst()
      : await trx.insertInto('room_e2e_member_lists').values({ room_id: room.id, ...values }).onConflict((oc) => oc.column('room_id').doNothing()).executeTakeFirst();
    const count = 'numUpdatedRows' in written ? written.numUpdatedRows : written.numInsertedOrUpdatedRows;
    if (!count) throw conflict(`The member list changed meanwhile: the next version is ${next}`);
    // Every version is kept: readers check a file's signer in the list it was signed under.
    await trx.insertInto('room_e2e_member_list_versions').values({ room_id: room.id, ...values }).execute();
  });
  return stateOf(app, room);
}
