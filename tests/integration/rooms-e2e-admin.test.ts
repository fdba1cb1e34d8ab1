import { TRASH_BIN_PATHS, type TrashBinList } from '@shared/contract/room-admin';
import type { RoomActivityList } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomFolder } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS, type E2eMember, type E2eMemberList } from '@shared/contract/rooms-e2e';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eFolder, createE2eRoom, grant, json, openRoomKey, readE2eFolder, req } from './rooms-e2e-helpers';

/**
 * End-to-end encrypted rooms in the administrators' trash bin (entries flagged `encrypted`, no
 * sealed name text in the answer, restore works) and access changes in the room activity (an
 * OWNER's grant and decline of a member's room key, a role change, a revoke). Real server, real
 * crypto (CryptoService); SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

let server: TestServer;
let admin: Session;
const who = ['owner', 'member', 'late'] as const;
const a = {} as Record<(typeof who)[number], E2eActor>;
const email = (name: string) => `${name}@rooms-e2e-admin.test`;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  for (const name of who) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    a[name] = await e2eActor(server, await signIn(server, email(name), 'Good-Passw0rd'));
  }
  for (const name of ['owner', 'member'] as const) await giveSecuPass(a[name], `${name}-SecuPass-e2e-admin-Quartz-9`);
}, 240_000);
afterAll(() => server?.close());

const trashBin = async (query = '') => json<TrashBinList>(await call(server, admin, 'GET', `/api/2${TRASH_BIN_PATHS.list}${query}`), 200);
const activity = async (room: Room) => json<RoomActivityList>(await req(server, a.owner, 'GET', ROOM_PATHS.activity(room.uuid)), 200);

async function memberOf(room: Room, name: (typeof who)[number]): Promise<E2eMember> {
  const list = await json<E2eMemberList>(await req(server, a.owner, 'GET', ROOM_E2E_PATHS.members(room.uuid)), 200);
  const member = list.members.find((m) => m.user.email === email(name));
  if (!member) throw new Error(`${name} is no member`);
  return member;
}

describe('E2E rooms in the administrators\' trash bin', () => {
  it('entries carry `encrypted: true` and no sealed name text; search never matches them; restore brings them back readable', async () => {
    const { room } = await createE2eRoom(server, a.owner, 'Sealed deal');
    const { handle } = await openRoomKey(server, a.owner, room.uuid);
    const folder = await json<RoomFolder>(await createE2eFolder(server, a.owner, room.uuid, handle, 'Sealed folder'), 201);
    const { room: gone } = await createE2eRoom(server, a.owner, 'Sealed gone');
    await json(await req(server, a.owner, 'DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid)), 204);
    await json(await req(server, a.owner, 'DELETE', ROOM_PATHS.room(gone.uuid)), 204);

    const response = await call(server, admin, 'GET', `/api/2${TRASH_BIN_PATHS.list}`);
    const text = await response.clone().text();
    const list = await json<TrashBinList>(response, 200);
    const ours = list.entries.filter((e) => [folder.uuid, gone.uuid].includes(e.uuid));
    expect(ours.map((e) => [e.uuid, e.type, e.encrypted, e.name, e.roomName, e.deletedBy])).toEqual([
      [gone.uuid, 'dataroom', true, '', '', email('owner')],
      [folder.uuid, 'folder', true, '', '', email('owner')],
    ]);
    // Not one sealed name (room or folder) anywhere in the answer.
    for (const sealed of [room.name, gone.name, folder.name]) expect(text).not.toContain(sealed);
    // A search never matches the sealed text, even a piece of it.
    expect((await trashBin(`?q=${encodeURIComponent(folder.name.slice(3, 12))}`)).entries).toEqual([]);

    await json(await call(server, admin, 'POST', `/api/2${TRASH_BIN_PATHS.restore(folder.uuid)}`), 204);
    await json(await call(server, admin, 'POST', `/api/2${TRASH_BIN_PATHS.restore(gone.uuid)}`), 204);
    expect((await trashBin()).entries.filter((e) => [folder.uuid, gone.uuid].includes(e.uuid))).toEqual([]);
    expect([...(await readE2eFolder(server, a.owner, room.uuid)).folders]).toEqual([['Sealed folder', folder.uuid]]);
    expect((await readE2eFolder(server, a.owner, gone.uuid)).roomName).toBe('Sealed gone');
  });
});

describe('access changes in the room activity', () => {
  it('an OWNER’s share, grant, decline, role change and revoke each appear, naming the member', async () => {
    const { room } = await createE2eRoom(server, a.owner, 'Logged room');
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('member'), role: 'VIEWER' }), 200);
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('late'), role: 'EDITOR' }), 200);
    // The member has keys: granted; then declined after a SecuPass of the late member.
    await json(await grant(server, a.owner, room.uuid, (await memberOf(room, 'member')).user.uuid), 200);
    await giveSecuPass(a.late, 'late-SecuPass-e2e-admin-Quartz-9');
    await json(await req(server, a.owner, 'PUT', ROOM_E2E_PATHS.grant(room.uuid, (await memberOf(room, 'late')).user.uuid), { approve: false }), 200);
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('member'), role: 'EDITOR' }), 200);
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('late'), role: null }), 200);

    const log = await activity(room);
    expect(log.entries.slice(0, 6).map((e) => [e.kind, e.actor, e.item.type, e.item.uuid, e.detail])).toEqual([
      ['access_revoked', email('owner'), 'room', room.uuid, email('late')],
      ['access_changed', email('owner'), 'room', room.uuid, `${email('member')}: EDITOR`],
      ['keys_declined', email('owner'), 'room', room.uuid, email('late')],
      ['keys_shared', email('owner'), 'room', room.uuid, email('member')],
      ['access_changed', email('owner'), 'room', room.uuid, `${email('late')}: EDITOR`],
      ['access_changed', email('owner'), 'room', room.uuid, `${email('member')}: VIEWER`],
    ]);
    // The item name stays the sealed string (the browser decrypts it with the room key).
    expect(log.entries[0]?.item.name).toBe(room.name);
    // Only OWNERs read it: the member (now EDITOR) is refused.
    expect((await req(server, a.member, 'GET', ROOM_PATHS.activity(room.uuid))).status).toBe(403);
  });

  it('a revoked member loses the room-key copy: invited again, an OWNER must grant anew', async () => {
    const { room } = await createE2eRoom(server, a.owner, 'Revoked room');
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('member'), role: 'VIEWER' }), 200);
    await json(await grant(server, a.owner, room.uuid, (await memberOf(room, 'member')).user.uuid), 200);
    expect((await memberOf(room, 'member')).state).toBe('approved');
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('member'), role: null }), 200);
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('member'), role: 'VIEWER' }), 200);
    expect((await memberOf(room, 'member')).state).toBe('pending');
    await json(await grant(server, a.owner, room.uuid, (await memberOf(room, 'member')).user.uuid), 200);
    expect((await memberOf(room, 'member')).state).toBe('approved');
  });
});
