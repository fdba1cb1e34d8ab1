import { ROOM_PATHS, type Room } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS, type E2eMemberList } from '@shared/contract/rooms-e2e';
import { ROOM_MEMBER_LIST_PATH, type RoomMemberListState } from '@shared/contract/rooms-e2e-member-list';
import type { RoomMemberEntry } from '@shared/crypto/room-members';
import { createMemoryStorage } from '@shared/api/storage-adapter';
import { ServerKeyPinStore } from '@shared/transfer';
import { MEMBER_LIST_WRITE_ATTEMPTS, memberEntryOf, memberListFlags, roomMemberListTrust, writeRoomMemberList } from '@shared/transfer/room-member-list';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, expectBackendError, signIn, signInAdmin } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eRoom, grant, json, req } from './rooms-e2e-helpers';

/**
 * The signed member list of an E2E room (shared/crypto/README.md section 7 "Who is a member: the
 * signed member list"; server/rooms/e2e/e2e-member-list.ts): who may read and write it, what the server
 * refuses to store, and that a reader verifies what an OWNER signed. The malicious server's case 4
 * (a member the server invents) is in rooms-malicious-server.test.ts.
 */
let server: TestServer;
const who = ['owner', 'editor', 'viewer', 'outsider'] as const;
const a = {} as Record<(typeof who)[number], E2eActor>;
const email = (name: string) => `${name}@rooms-member-list.test`;

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signInAdmin(server);
  for (const name of who) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    a[name] = await e2eActor(server, await signIn(server, email(name), 'Good-Passw0rd'));
    await giveSecuPass(a[name], `${name}-SecuPass-member-list-Kestrel-57`);
  }
}, 240_000);
afterAll(() => server?.close());

const e2eOf = (actor: E2eActor) => ({ crypto: actor.crypto, keys: actor.keys!, pins: actor.pins });
/** The entry an OWNER signs for a member, from the members table as the web client builds it. */
async function entryOf(actor: E2eActor, role: RoomMemberEntry['role'], room: Room): Promise<RoomMemberEntry> {
  const { members } = await json<E2eMemberList>(await req(server, a.owner, 'GET', ROOM_E2E_PATHS.members(room.uuid)), 200);
  return { ...memberEntryOf(members.find((m) => m.user.uuid === actor.userUuid)!), role };
}

async function sharedRoom(title: string): Promise<Room> {
  const { room } = await createE2eRoom(server, a.owner, title);
  for (const [name, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER']] as const) {
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(name), role }), 200);
    await json(await grant(server, a.owner, room.uuid, a[name].userUuid), 200);
  }
  return room;
}

describe('GET/PUT …/e2e/member-list', () => {
  it('an OWNER writes version 1 then 2; every member reads and verifies it; others are denied', async () => {
    const room = await sharedRoom('Member list');
    const get = (actor: E2eActor) => req(server, actor, 'GET', ROOM_MEMBER_LIST_PATH(room.uuid));
    expect(await json<RoomMemberListState>(await get(a.viewer), 200)).toEqual({ signedList: null, signer: null });
    expect(await roomMemberListTrust(a.viewer.client, e2eOf(a.viewer), { roomUuid: room.uuid, me: a.viewer.userUuid })).toMatchObject({ ok: false, code: 'room-member-list-missing' });

    const first = await writeRoomMemberList(a.owner.client, e2eOf(a.owner), { roomUuid: room.uuid, me: a.owner.userUuid, current: null, base: [await entryOf(a.owner, 'OWNER', room), await entryOf(a.editor, 'EDITOR', room)] });
    expect(first.signedList?.list.version).toBe(1);
    expect(first.signer?.userUuid).toBe(a.owner.userUuid);
    const read = await roomMemberListTrust(a.viewer.client, e2eOf(a.viewer), { roomUuid: room.uuid, me: a.viewer.userUuid });
    if (!read.ok) throw new Error(read.code);
    // The VIEWER is not on version 1: flagged; the others match.
    const members = await json<E2eMemberList>(await req(server, a.owner, 'GET', ROOM_E2E_PATHS.members(room.uuid)), 200);
    expect([...memberListFlags(read.list, members.members)]).toEqual([[a.viewer.userUuid, 'unlisted']]);
    await writeRoomMemberList(a.owner.client, e2eOf(a.owner), { roomUuid: room.uuid, me: a.owner.userUuid, current: read.list, upsert: [await entryOf(a.viewer, 'VIEWER', room)] });
    const second = await roomMemberListTrust(a.editor.client, e2eOf(a.editor), { roomUuid: room.uuid, me: a.editor.userUuid, minVersion: 2 });
    if (!second.ok) throw new Error(second.code);
    expect(memberListFlags(second.list, members.members).size).toBe(0);
    expect(await roomMemberListTrust(a.owner.client, e2eOf(a.owner), { roomUuid: room.uuid, me: a.owner.userUuid })).toMatchObject({ ok: true });

    // Denials: an outsider cannot read (404); an EDITOR or VIEWER cannot write (403), even a well-signed list.
    expect((await get(a.outsider)).status).toBe(404);
    for (const actor of [a.editor, a.viewer]) {
      const signedList = await actor.crypto.signRoomMemberList({ signingKey: actor.keys!.signing.handle, roomId: room.uuid, version: 3, members: [await entryOf(actor, 'OWNER', room)], signerUserId: actor.userUuid, createdAt: new Date().toISOString() });
      expect((await req(server, actor, 'PUT', ROOM_MEMBER_LIST_PATH(room.uuid), { signedList })).status).toBe(403);
    }
    expect((await req(server, a.outsider, 'PUT', ROOM_MEMBER_LIST_PATH(room.uuid), { signedList: second.state.signedList })).status).toBe(404);
  }, 120_000);

  it('the server refuses a list for another room or signer (400 memberListMismatch), a version that is not the next (409), a malformed body (400)', async () => {
    const room = await sharedRoom('Member list refusals');
    const ownerEntry = await entryOf(a.owner, 'OWNER', room);
    const sign = (version: number, roomId = room.uuid, signerUserId = a.owner.userUuid) =>
      a.owner.crypto.signRoomMemberList({ signingKey: a.owner.keys!.signing.handle, roomId, version, members: [{ ...ownerEntry, userId: signerUserId }], signerUserId, createdAt: new Date().toISOString() });
    const put = async (signedList: unknown) => req(server, a.owner, 'PUT', ROOM_MEMBER_LIST_PATH(room.uuid), { signedList });
    for (const wrong of [await sign(1, '00000000-0000-4000-8000-000000000000'), await sign(1, room.uuid, a.editor.userUuid)]) {
      const body = await expectBackendError(await put(wrong), 400, 'ValidationException');
      expect((body as { metadata?: { reason?: string } }).metadata?.reason).toBe('memberListMismatch');
    }
    await expectBackendError(await put(await sign(2)), 409, 'ConflictException');
    expect((await put(await sign(1))).status).toBe(200);
    await expectBackendError(await put(await sign(1)), 409, 'ConflictException');
    await expectBackendError(await put({ list: { format: 1 }, signature: 'x' }), 400);
    expect((await put(await sign(2))).status).toBe(200);

    // A plain room has no member list: 409 notEncrypted as every E2E call on a plain room (rooms/kind/room-kind.ts).
    const plain = await json<Room>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name: 'Plain' }), 201);
    await expectBackendError(await req(server, a.owner, 'GET', ROOM_MEMBER_LIST_PATH(plain.uuid)), 409, 'ConflictException');
  }, 120_000);
});

describe('the highest list version seen, and two OWNERs writing at once (README section 7)', () => {
  /** One device of the user: her synced contact pin list (which keeps the highest version per room) over a storage of its own. */
  const device = (actor: E2eActor) => ServerKeyPinStore.load({ client: actor.client, crypto: actor.crypto, keys: actor.keys!, ownerUserId: actor.userUuid, storage: createMemoryStorage() });
  const roomIdOf = async (room: Room) => (await server.app.db.selectFrom('data_rooms').select('id').where('uuid', '=', room.uuid).executeTakeFirstOrThrow()).id;

  it('an older list served as the latest (or none) after a device saw a newer one is refused on every device of that user (room-member-list-rolled-back)', async () => {
    const room = await sharedRoom('Member list rollback');
    const first = await writeRoomMemberList(a.owner.client, e2eOf(a.owner), { roomUuid: room.uuid, me: a.owner.userUuid, current: null, base: [await entryOf(a.owner, 'OWNER', room), await entryOf(a.editor, 'EDITOR', room)] });
    await writeRoomMemberList(a.owner.client, e2eOf(a.owner), { roomUuid: room.uuid, me: a.owner.userUuid, current: first.signedList!.list, upsert: [await entryOf(a.viewer, 'VIEWER', room)] });
    const laptop = await device(a.viewer);
    const read = (memory: ServerKeyPinStore) => roomMemberListTrust(a.viewer.client, e2eOf(a.viewer), { roomUuid: room.uuid, me: a.viewer.userUuid, memory });
    expect(await read(laptop)).toMatchObject({ ok: true, list: { version: 2 } });
    expect(laptop.memberListVersion(room.uuid)).toBe(2);
    // The server serves version 1 again (genuine, signed by the OWNER): refused — on a device that never opened the room too.
    const roomId = await roomIdOf(room);
    const v1 = await server.app.db.selectFrom('room_e2e_member_list_versions').selectAll().where('room_id', '=', roomId).where('version', '=', 1).executeTakeFirstOrThrow();
    await server.app.db.updateTable('room_e2e_member_lists').set({ version: 1, signed_list: v1.signed_list }).where('room_id', '=', roomId).execute();
    expect(await read(laptop)).toMatchObject({ ok: false, code: 'room-member-list-rolled-back' });
    expect(await read(await device(a.viewer))).toMatchObject({ ok: false, code: 'room-member-list-rolled-back' });
    // Without the memory (a user who never saw version 2) it is the newest she knows of: accepted — the documented limit.
    expect(await roomMemberListTrust(a.editor.client, e2eOf(a.editor), { roomUuid: room.uuid, me: a.editor.userUuid, memory: await device(a.editor) })).toMatchObject({ ok: true, list: { version: 1 } });
    // No list at all after one was seen: refused as well, not "none yet".
    await server.app.db.deleteFrom('room_e2e_member_lists').where('room_id', '=', roomId).execute();
    expect(await read(laptop)).toMatchObject({ ok: false, code: 'room-member-list-rolled-back' });
  }, 120_000);

  it('an OWNER whose list is stale (another OWNER wrote meanwhile) re-reads, re-applies her change and stores the next version; a latest list that does not verify is not signed over', async () => {
    const room = await sharedRoom('Two owners');
    // The EDITOR becomes a second OWNER, listed as such.
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('editor'), role: 'OWNER' }), 200);
    const first = await writeRoomMemberList(a.owner.client, e2eOf(a.owner), { roomUuid: room.uuid, me: a.owner.userUuid, current: null, base: [await entryOf(a.owner, 'OWNER', room), await entryOf(a.editor, 'OWNER', room)] });
    const stale = (await roomMemberListTrust(a.editor.client, e2eOf(a.editor), { roomUuid: room.uuid, me: a.editor.userUuid })) as { ok: true; list: NonNullable<RoomMemberListState['signedList']>['list'] };
    expect(stale.list.version).toBe(1);
    // The first OWNER lists the VIEWER (version 2); the second, still on version 1, lists the outsider.
    await writeRoomMemberList(a.owner.client, e2eOf(a.owner), { roomUuid: room.uuid, me: a.owner.userUuid, current: first.signedList!.list, upsert: [await entryOf(a.viewer, 'VIEWER', room)] });
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('outsider'), role: 'VIEWER' }), 200);
    const laptop = await device(a.editor);
    const stored = await writeRoomMemberList(a.editor.client, e2eOf(a.editor), { roomUuid: room.uuid, me: a.editor.userUuid, current: stale.list, upsert: [await entryOf(a.outsider, 'VIEWER', room)], memory: laptop });
    expect(stored.signedList?.list.version).toBe(3);
    expect(stored.signedList?.list.members.map((m) => m.userId).sort()).toEqual([a.owner, a.editor, a.viewer, a.outsider].map((x) => x.userUuid).sort());
    expect(laptop.memberListVersion(room.uuid)).toBe(3);
    expect(MEMBER_LIST_WRITE_ATTEMPTS).toBeGreaterThan(1);
    // From the stale version 1 again: the VIEWER "added" without keys (as a share without keys is
    // listed) does not overwrite the entry with keys the other OWNER wrote meanwhile.
    const again = await writeRoomMemberList(a.editor.client, e2eOf(a.editor), { roomUuid: room.uuid, me: a.editor.userUuid, current: stale.list, addOnly: [{ ...(await entryOf(a.viewer, 'VIEWER', room)), signingKeyId: null, encryptionKeyId: null }] });
    expect(again.signedList?.list.version).toBe(4);
    expect(again.signedList?.list.members.find((m) => m.userId === a.viewer.userUuid)?.encryptionKeyId).toBe((await entryOf(a.viewer, 'VIEWER', room)).encryptionKeyId);

    // The latest list was tampered with: the stale OWNER's retry refuses to sign over it (and stores nothing).
    const roomId = await roomIdOf(room);
    const row = await server.app.db.selectFrom('room_e2e_member_lists').selectAll().where('room_id', '=', roomId).executeTakeFirstOrThrow();
    const tampered = JSON.parse(row.signed_list) as { list: { members: { role: string; userId: string }[] } };
    tampered.list.members.find((m) => m.userId === a.outsider.userUuid)!.role = 'EDITOR';
    await server.app.db.updateTable('room_e2e_member_lists').set({ signed_list: JSON.stringify(tampered) }).where('room_id', '=', roomId).execute();
    await expect(writeRoomMemberList(a.owner.client, e2eOf(a.owner), { roomUuid: room.uuid, me: a.owner.userUuid, current: stale.list, remove: [a.viewer.userUuid] })).rejects.toMatchObject({ code: 'room-member-list-invalid' });
    expect((await server.app.db.selectFrom('room_e2e_member_lists').select('version').where('room_id', '=', roomId).executeTakeFirstOrThrow()).version).toBe(4);
  }, 120_000);
});
