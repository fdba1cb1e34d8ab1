import type { RoomAccessSetResult, RoomInvitationList } from '@shared/contract/room-invitations';
import { ROOM_PATHS, type Room, type RoomAccessEntry, type RoomAccessList } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS, type E2eMember, type E2eMemberList } from '@shared/contract/rooms-e2e';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eFolder, createE2eRoom, grant, json, openRoomKey, req } from './rooms-e2e-helpers';

/**
 * SPEC §3 access entry flags on GET /rooms/{roomUuid}/access (room and folder), on the real server
 * (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL) with the real crypto: a member without a
 * SecuPass (encryption not activated), with one but no room-key copy (missing file key: pending,
 * then declined), and granted; the same members in a plain room carry no flag, and an address
 * without an account is a pending invitation, not an entry (notRegistered stays false). GET
 * …/e2e/members says the same flags as GET …/access for each of these states (server/rooms/e2e/e2e-flags.ts).
 */

let server: TestServer;
let admin: Session;
const who = ['owner', 'keyed', 'late', 'solo'] as const;
const a = {} as Record<(typeof who)[number], E2eActor>;
const email = (name: string) => `${name}@rooms-access-flags.test`;
const NO_FLAGS = { missingFileKey: false, notRegistered: false, encryptionNotActivated: false };
const NO_E2E_FLAGS = { missingFileKey: false, encryptionNotActivated: false };
// The members of the first two rooms; 'solo' is only in the last one.
const shared = ['owner', 'keyed', 'late'] as const;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  for (const name of who) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    a[name] = await e2eActor(server, await signIn(server, email(name), 'Good-Passw0rd'));
  }
  for (const name of ['owner', 'keyed'] as const) await giveSecuPass(a[name], `${name}-SecuPass-access-flags-Marble-7`);
}, 240_000);
afterAll(() => server?.close());

const share = (room: Room, name: (typeof who)[number], role: string, folderUuid?: string) =>
  req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(name), role, ...(folderUuid ? { folderUuid } : {}) });

async function entryOf(room: Room, name: (typeof who)[number], folderUuid?: string): Promise<RoomAccessEntry> {
  const list = await json<RoomAccessList>(await req(server, a.owner, 'GET', `${ROOM_PATHS.access(room.uuid)}${folderUuid ? `?folderUuid=${folderUuid}` : ''}`), 200);
  const entry = list.entries.find((e) => e.user.email === email(name));
  if (!entry) throw new Error(`${name} has no entry`);
  return entry;
}

/** The member's flags on GET …/e2e/members must equal the access entry's (room or folder list). */
async function bothLists(room: Room, name: (typeof who)[number], folderUuid?: string): Promise<{ entry: RoomAccessEntry; member: E2eMember }> {
  const entry = await entryOf(room, name, folderUuid);
  const list = await json<E2eMemberList>(await req(server, a.owner, 'GET', ROOM_E2E_PATHS.members(room.uuid)), 200);
  const member = list.members.find((m) => m.user.email === email(name));
  if (!member) throw new Error(`${name} is not a member`);
  expect({ missingFileKey: member.missingFileKey, encryptionNotActivated: member.encryptionNotActivated }).toEqual({
    missingFileKey: entry.missingFileKey,
    encryptionNotActivated: entry.encryptionNotActivated,
  });
  return { entry, member };
}

describe('access entry flags (SPEC §3)', () => {
  it('a plain room: no flag, with or without a SecuPass', async () => {
    const room = await json<Room>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name: 'Plain flags' }), 201);
    await json(await share(room, 'late', 'EDITOR'), 200);
    await json(await share(room, 'keyed', 'VIEWER'), 200);
    for (const name of shared) expect(await entryOf(room, name)).toMatchObject(NO_FLAGS);
    // An address without an account is a pending invitation, not an entry: no entry carries notRegistered.
    const invited = await json<RoomAccessSetResult>(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: 'nobody@rooms-access-flags.test', role: 'VIEWER' }), 200);
    expect(invited.invitation).toMatchObject({ email: 'nobody@rooms-access-flags.test', role: 'VIEWER' });
    expect(invited.entries.map((e) => e.user.email).sort()).toEqual(shared.map(email).sort());
    expect(invited.entries.every((e) => !e.notRegistered && !e.missingFileKey && !e.encryptionNotActivated)).toBe(true);
    const pending = await json<RoomInvitationList>(await req(server, a.owner, 'GET', `/rooms/${room.uuid}/invitations`), 200);
    expect(pending.invitations.map((i) => i.email)).toEqual(['nobody@rooms-access-flags.test']);
  });

  it('an E2E room: encryption not activated → missing file key (pending, declined) → none once granted; on folders too', async () => {
    const { room, response } = await createE2eRoom(server, a.owner, 'E2E flags');
    expect(response.status).toBe(201);
    const { handle } = await openRoomKey(server, a.owner, room.uuid);
    const folder = await json<{ uuid: string }>(await createE2eFolder(server, a.owner, room.uuid, handle, 'Contracts'), 201);
    // The creator holds a copy: no flag.
    expect(await entryOf(room, 'owner')).toMatchObject(NO_FLAGS);

    // Without a SecuPass; the role set on the folder only, listed there.
    const setOnFolder = await json<RoomAccessList>(await share(room, 'late', 'EDITOR', folder.uuid), 200);
    expect(setOnFolder.entries.find((e) => e.user.email === email('late'))).toMatchObject({ ...NO_FLAGS, encryptionNotActivated: true, setOn: folder.uuid });
    expect(await entryOf(room, 'late', folder.uuid)).toMatchObject({ missingFileKey: false, notRegistered: false, encryptionNotActivated: true });

    // With a SecuPass but no copy yet (pending), then declined: missing file key.
    await json(await share(room, 'keyed', 'VIEWER'), 200);
    expect(await entryOf(room, 'keyed')).toMatchObject({ ...NO_FLAGS, missingFileKey: true });
    await json(await req(server, a.owner, 'PUT', ROOM_E2E_PATHS.grant(room.uuid, a.keyed.userUuid), { approve: false }), 200);
    expect(await entryOf(room, 'keyed')).toMatchObject({ ...NO_FLAGS, missingFileKey: true });
    // Inherited on the folder: the same flags.
    expect(await entryOf(room, 'keyed', folder.uuid)).toMatchObject({ ...NO_FLAGS, missingFileKey: true, inherited: true });
    await json(await grant(server, a.owner, room.uuid, a.keyed.userUuid), 200);
    expect(await entryOf(room, 'keyed')).toMatchObject(NO_FLAGS);
    expect(await entryOf(room, 'keyed', folder.uuid)).toMatchObject(NO_FLAGS);

    // The late member activates: encryption flag gone, the file key missing until the grant.
    await giveSecuPass(a.late, 'late-SecuPass-access-flags-Marble-8');
    expect(await entryOf(room, 'late', folder.uuid)).toMatchObject({ ...NO_FLAGS, missingFileKey: true });
    await json(await grant(server, a.owner, room.uuid, a.late.userUuid), 200);
    expect(await entryOf(room, 'late', folder.uuid)).toMatchObject(NO_FLAGS);

    // An administrator's SecuPass reset revokes the keys and the copy: encryption not activated again.
    await json(await call(server, admin, 'POST', `/api/2/admin/users/${a.keyed.userUuid}/secupass/reset`), 204);
    expect(await entryOf(room, 'keyed')).toMatchObject({ ...NO_FLAGS, encryptionNotActivated: true });
    // Nobody else changed: the owner and the granted late member carry no flag.
    expect(await entryOf(room, 'owner')).toMatchObject(NO_FLAGS);
    expect(await entryOf(room, 'late', folder.uuid)).toMatchObject(NO_FLAGS);
  }, 120_000);

  it('GET …/access and GET …/e2e/members agree: without SecuPass, activated but not granted, declined, granted', async () => {
    const { room, response } = await createE2eRoom(server, a.owner, 'E2E flags agree');
    expect(response.status).toBe(201);
    const { handle } = await openRoomKey(server, a.owner, room.uuid);
    const folder = await json<{ uuid: string }>(await createE2eFolder(server, a.owner, room.uuid, handle, 'Agree'), 201);
    expect(await bothLists(room, 'owner')).toMatchObject({ entry: NO_FLAGS, member: { state: 'approved', ...NO_E2E_FLAGS } });

    // No SecuPass: only encryptionNotActivated — nothing to grant to yet, so no missing file key either.
    await json(await share(room, 'solo', 'VIEWER'), 200);
    const without = { missingFileKey: false, encryptionNotActivated: true };
    expect(await bothLists(room, 'solo')).toMatchObject({ entry: without, member: { state: 'noSecuPass', ...without } });
    // The same member listed on a folder (inherited there).
    expect(await bothLists(room, 'solo', folder.uuid)).toMatchObject({ entry: { ...without, inherited: true } });

    // Activated, not granted yet: only missingFileKey.
    await giveSecuPass(a.solo, 'solo-SecuPass-access-flags-Marble-9');
    const waiting = { missingFileKey: true, encryptionNotActivated: false };
    expect(await bothLists(room, 'solo')).toMatchObject({ entry: waiting, member: { state: 'pending', ...waiting } });
    await json(await req(server, a.owner, 'PUT', ROOM_E2E_PATHS.grant(room.uuid, a.solo.userUuid), { approve: false }), 200);
    expect(await bothLists(room, 'solo')).toMatchObject({ entry: waiting, member: { state: 'notApproved', ...waiting } });

    // Granted: no flag on either list.
    await json(await grant(server, a.owner, room.uuid, a.solo.userUuid), 200);
    expect(await bothLists(room, 'solo')).toMatchObject({ entry: NO_FLAGS, member: { state: 'approved', ...NO_E2E_FLAGS } });
    expect(await bothLists(room, 'solo', folder.uuid)).toMatchObject({ entry: NO_FLAGS });
  }, 120_000);
});
