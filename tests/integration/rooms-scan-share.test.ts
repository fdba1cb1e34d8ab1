import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomAccessList, type RoomContents, type RoomList } from '@shared/contract/rooms';
import { clamdUnavailable, EICAR, startTestClamd, type TestClamd } from '@tests/support/clamd';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eRoom, json, openRoomKey, sha256Hex, uploadE2eFile } from './rooms-e2e-helpers';

/**
 * Two rules of data rooms on a real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL):
 * - SPEC §3: with clamd configured, a plain room's file is queued for the scan, an end-to-end
 *   encrypted room's file is `notScanned` and gets no scan job (the server cannot read it). clamd is
 *   frozen meanwhile, so a queued job stays in the table (a scan that finished would delete it).
 * - Sharing by login (server/rooms/sharing/access.ts findByLogin): a username that is not the address finds
 *   the account, in any case; an unknown one is refused.
 */
const PART_SIZE = 1024;
const ROOM_SCAN_JOB = 'roomFileScan';
const skipReason = clamdUnavailable();
const email = (name: string) => `${name}@rooms-scan-share.test`;
const api = (path: string) => `/api/2${path}`;
let server: TestServer;
let clamd: TestClamd | undefined;
let owner: E2eActor;
let bob: Session;

beforeAll(async () => {
  clamd = skipReason === null ? await startTestClamd() : undefined;
  // A frozen clamd times out after 1 s; the retry waits 10 minutes, so the job row stays.
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE, ...(clamd ? { clamdAddress: clamd.socket } : {}), clamdTimeoutMs: 1000, scanRetryDelayMs: 600_000, scanAttempts: 3, jobPollIntervalMs: 100 } });
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: email('owner') });
  await createUserAsAdmin(server, admin, { email: email('bob'), username: 'Bob.Login' });
  owner = await e2eActor(server, await signIn(server, email('owner'), 'Good-Passw0rd'));
  bob = await signIn(server, 'bob.login', 'Good-Passw0rd');
}, 120_000);
afterAll(async () => {
  clamd?.thaw();
  await server?.close();
  await clamd?.dispose();
});

async function uploadPlain(room: Room, name: string, bytes: Uint8Array): Promise<RoomUploadFile> {
  const file = await json<RoomUploadFile>(await call(server, owner.session, 'POST', api(ROOM_PATHS.files(room.uuid)), { name, size: bytes.length, mimeType: 'text/plain' }), 201);
  const put = await fetch(`${server.url}${api(ROOM_PATHS.filePart(room.uuid, file.uuid, 0))}`, {
    method: 'PUT',
    headers: { cookie: owner.session.cookie, [ANTI_CSRF_HEADER]: owner.session.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256Hex(bytes) },
    body: new Blob([Uint8Array.from(bytes)]),
  });
  await json(put, 200);
  return json<RoomUploadFile>(await call(server, owner.session, 'POST', api(ROOM_PATHS.fileCommit(room.uuid, file.uuid))), 200);
}

/** The file ids the queued room scan jobs name. */
async function queuedScanFileIds(): Promise<number[]> {
  const rows = await server.app.db.selectFrom('jobs').select('payload').where('kind', '=', ROOM_SCAN_JOB).execute();
  return rows.map((r) => (JSON.parse(r.payload) as { fileId: number }).fileId);
}
const fileIdOf = async (uuid: string) => (await server.app.db.selectFrom('room_files').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow()).id;

describe.skipIf(skipReason !== null)('scan state of room files with clamd configured', () => {
  it('a plain room file is queued (scanning); an E2E room file is notScanned and gets no scan job', async () => {
    clamd!.freeze();
    await giveSecuPass(owner, 'owner-SecuPass-rooms-scan-Cobalt-9');
    const plainRoom = await json<Room>(await call(server, owner.session, 'POST', api(ROOM_PATHS.rooms), { name: 'Plain scanned' }), 201);
    const plain = await uploadPlain(plainRoom, 'eicar.txt', EICAR);
    expect(plain.scanState).toBe('scanning');
    expect(await queuedScanFileIds()).toEqual([await fileIdOf(plain.uuid)]);

    const { room } = await createE2eRoom(server, owner, 'E2E not scanned');
    const { handle } = await openRoomKey(server, owner, room.uuid);
    const uploaded = await uploadE2eFile(server, owner, room.uuid, handle, { name: 'eicar.txt', bytes: EICAR, partSize: PART_SIZE });
    expect(uploaded.file!.scanState).toBe('notScanned');
    const listed = await json<RoomContents>(await call(server, owner.session, 'GET', api(ROOM_PATHS.room(room.uuid))), 200);
    expect(listed.files.map((f) => f.scanState)).toEqual(['notScanned']);
    // Still only the plain file's job: none was queued for the E2E file.
    expect(await queuedScanFileIds()).toEqual([await fileIdOf(plain.uuid)]);
    const content = await fetch(`${server.url}${api(ROOM_PATHS.fileContent(room.uuid, uploaded.uuid))}`, { headers: { cookie: owner.session.cookie } });
    expect(content.status).toBe(200);
    await content.arrayBuffer();
  }, 120_000);
});

describe('sharing a room by a username that is not the address', () => {
  it('finds the account by its username in any case; the entry and the invitee show the address', async () => {
    const room = await json<Room>(await call(server, owner.session, 'POST', api(ROOM_PATHS.rooms), { name: 'Shared by login' }), 201);
    const access = await json<RoomAccessList>(await call(server, owner.session, 'PUT', api(ROOM_PATHS.access(room.uuid)), { user: 'BOB.login', role: 'VIEWER' }), 200);
    expect(access.entries.find((e) => e.user.email === email('bob'))).toMatchObject({ role: 'VIEWER' });
    const rooms = await json<RoomList>(await call(server, bob, 'GET', api(ROOM_PATHS.rooms)), 200);
    expect(rooms.rooms.map((r) => [r.name, r.role])).toContainEqual(['Shared by login', 'VIEWER']);
  });

  it('an unknown username (not an address) is refused: 400 InviteUserToShareException', async () => {
    const room = await json<Room>(await call(server, owner.session, 'POST', api(ROOM_PATHS.rooms), { name: 'Not shared' }), 201);
    const response = await call(server, owner.session, 'PUT', api(ROOM_PATHS.access(room.uuid)), { user: 'no.such.login', role: 'VIEWER' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('InviteUserToShareException');
  });
});
