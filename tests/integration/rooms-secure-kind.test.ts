import { randomBytes } from 'node:crypto';
import { ROOM_LINK_PATHS } from '@shared/contract/room-links';
import { ROOM_OPS_PATHS } from '@shared/contract/room-ops';
import { ROOM_REQUEST_PATHS } from '@shared/contract/room-requests';
import { ROOM_PATHS, type Room, type RoomContents, type RoomList } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS } from '@shared/contract/rooms-e2e';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBackendError, signInAdmin } from './core-helpers';
import { e2eActorsWithSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eFolder, createE2eRoom, grant, json, openRoomKey, req, uploadE2eFile } from './rooms-e2e-helpers';

/**
 * Issue 32: a Secure (end-to-end encrypted) room shows only under Secure rooms. The plain list
 * (GET /rooms) leaves it out for the owner and every member; the plain calls that would read or
 * write its names or bytes on the server refuse it with 409 `ConflictException`, reason
 * `encryptedRoom` (server rooms/kind/room-kind.ts, the one guard) and say where it opens — after
 * the role check, so a non-member still learns nothing (404). The calls the Secure room page shares
 * with plain rooms (contents, access, delete, parts, download) keep serving it. Real server, SQLite
 * or PostgreSQL (KUVERT_TEST_DATABASE_URL).
 */

const PART_SIZE = 1024;
let server: TestServer;
const who = ['owner', 'member', 'outsider'] as const;
let a: Record<(typeof who)[number], E2eActor>;
const email = (name: string) => `${name}@rooms-secure-kind.test`;
let secure: Room;
let plain: Room;
let folderUuid: string;
let fileUuid: string;

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await signInAdmin(server);
  a = await e2eActorsWithSecuPass(server, admin, who, email, (name) => `${name}-SecuPass-secure-kind-Quartz-5`);
  secure = (await createE2eRoom(server, a.owner, 'Board papers')).room;
  await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(secure.uuid), { user: email('member'), role: 'EDITOR' }), 200);
  await json(await grant(server, a.owner, secure.uuid, a.member.userUuid), 200);
  const { handle } = await openRoomKey(server, a.owner, secure.uuid);
  folderUuid = (await json<{ uuid: string }>(await createE2eFolder(server, a.owner, secure.uuid, handle, 'Minutes'), 201)).uuid;
  const uploaded = await uploadE2eFile(server, a.owner, secure.uuid, handle, { name: 'minutes.txt', bytes: new Uint8Array(randomBytes(300)), partSize: PART_SIZE });
  fileUuid = uploaded.uuid;
  plain = await json<Room>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name: 'Plain papers' }), 201);
  await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(plain.uuid), { user: email('member'), role: 'EDITOR' }), 200);
}, 240_000);
afterAll(() => server?.close());

const uuidsOf = (list: RoomList) => list.rooms.map((r) => r.uuid);

/** Every plain call that cannot serve a Secure room, as the plain room page would send it. */
const plainOnlyCalls = (): (readonly [string, string, unknown?])[] => [
  ['POST', ROOM_PATHS.folders(secure.uuid), { name: 'Plain folder' }],
  ['PATCH', ROOM_PATHS.folder(secure.uuid, folderUuid), { name: 'Renamed' }],
  ['POST', ROOM_PATHS.files(secure.uuid), { name: 'upload.txt', size: 10 }],
  ['PATCH', ROOM_PATHS.room(secure.uuid), { name: 'Renamed room' }],
  ['PATCH', ROOM_PATHS.file(secure.uuid, fileUuid), { name: 'renamed.txt' }],
  ['GET', `${ROOM_PATHS.search(secure.uuid)}?q=minutes`],
  ['GET', ROOM_OPS_PATHS.roomZip(secure.uuid)],
  ['GET', ROOM_OPS_PATHS.folderZip(secure.uuid, folderUuid)],
  ['GET', ROOM_OPS_PATHS.preview(secure.uuid, fileUuid)],
  ['POST', ROOM_LINK_PATHS.links(secure.uuid, fileUuid), {}],
  ['POST', ROOM_REQUEST_PATHS.requests(secure.uuid), { email: 'someone@outside.test', message: '' }],
];

describe('Secure rooms and the plain rooms (issue 32)', () => {
  it('the plain list leaves a Secure room out for the owner and every member; GET /rooms/e2e lists it, and no plain room', async () => {
    for (const name of ['owner', 'member'] as const) {
      const plainList = await json<RoomList>(await req(server, a[name], 'GET', ROOM_PATHS.rooms), 200);
      expect(uuidsOf(plainList), name).toContain(plain.uuid);
      expect(uuidsOf(plainList), name).not.toContain(secure.uuid);
      expect(plainList.rooms.every((r) => !r.encrypted)).toBe(true);
      const secureList = await json<RoomList>(await req(server, a[name], 'GET', ROOM_E2E_PATHS.list), 200);
      expect(uuidsOf(secureList), name).toEqual([secure.uuid]);
      expect(secureList.rooms[0]).toMatchObject({ encrypted: true, name: secure.name });
    }
    // Searching the plain list by a piece of the sealed name finds nothing either.
    const byName = await json<RoomList>(await req(server, a.owner, 'GET', `${ROOM_PATHS.rooms}?q=${encodeURIComponent(secure.name.slice(3, 12))}`), 200);
    expect(uuidsOf(byName)).not.toContain(secure.uuid);
    // An outsider has neither.
    expect(uuidsOf(await json<RoomList>(await req(server, a.outsider, 'GET', ROOM_E2E_PATHS.list), 200))).toEqual([]);
  });

  it('the Secure list pages like the plain one and takes no name search (sealed names): 400', async () => {
    const second = (await createE2eRoom(server, a.owner, 'Second board')).room;
    const first = await json<RoomList>(await req(server, a.owner, 'GET', `${ROOM_E2E_PATHS.list}?pageSize=1`), 200);
    expect(uuidsOf(first)).toEqual([second.uuid]);
    expect(first.nextCursor).not.toBeNull();
    const next = await json<RoomList>(await req(server, a.owner, 'GET', `${ROOM_E2E_PATHS.list}?pageSize=1&cursor=${first.nextCursor!}`), 200);
    expect(uuidsOf(next)).toEqual([secure.uuid]);
    await expectBackendError(await req(server, a.owner, 'GET', `${ROOM_E2E_PATHS.list}?q=board`), 400, 'ValidationException');
  });

  it('each plain call that cannot serve it answers 409 encryptedRoom and says to open it under Secure rooms', async () => {
    for (const [method, path, body] of plainOnlyCalls()) {
      const refused = await expectBackendError(await req(server, a.owner, method, path, body), 409, 'ConflictException');
      expect(refused.metadata, `${method} ${path}`).toMatchObject({ reason: 'encryptedRoom' });
      expect(refused.message, `${method} ${path}`).toMatch(/^This is a Secure room \(end-to-end encrypted\)/);
    }
    // Nothing changed: the sealed names stay, no public link or request was made.
    const contents = await json<RoomContents>(await req(server, a.owner, 'GET', ROOM_PATHS.room(secure.uuid)), 200);
    expect(contents.room.name).toBe(secure.name);
    expect(contents.folders.map((f) => f.uuid)).toEqual([folderUuid]);
  });

  it('a non-member learns nothing, not even the kind: 404 on the same calls; anonymous 401', async () => {
    for (const [method, path, body] of plainOnlyCalls()) {
      await expectBackendError(await req(server, a.outsider, method, path, body), 404, 'NotFoundException');
    }
    const anonymous = await fetch(`${server.url}/api/2${ROOM_E2E_PATHS.list}`);
    await expectBackendError(anonymous, 401, 'AuthenticationRequiredException');
  });

  it('the calls the Secure room page shares with plain rooms keep serving it; the Secure calls refuse a plain room with 409 notEncrypted', async () => {
    expect((await json<RoomContents>(await req(server, a.member, 'GET', ROOM_PATHS.room(secure.uuid)), 200)).room.encrypted).toBe(true);
    expect((await req(server, a.member, 'GET', ROOM_PATHS.fileContent(secure.uuid, fileUuid))).status).toBe(200);
    await json(await req(server, a.owner, 'GET', ROOM_PATHS.access(secure.uuid)), 200);
    const refused = await expectBackendError(await req(server, a.owner, 'GET', ROOM_E2E_PATHS.state(plain.uuid)), 409, 'ConflictException');
    expect(refused.metadata).toMatchObject({ reason: 'notEncrypted' });
  });
});
