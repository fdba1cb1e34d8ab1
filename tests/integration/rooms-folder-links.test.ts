import { createHash } from 'node:crypto';
import AdmZip from 'adm-zip';
import type { RoomActivityList } from '@shared/contract/room-files';
import { ROOM_LINK_TOKEN_HEADER } from '@shared/contract/link-token';
import {
  ROOM_FOLDER_LINK_PATHS as L,
  type CreatedRoomFolderLink,
  type RoomDropFile,
  type RoomFolderLinkInfo,
  type RoomFolderLinkList,
} from '@shared/contract/room-folder-links';
import { ROOM_LINK_ACTOR, ROOM_LINK_PASSWORD_HEADER, ROOM_LINK_PATHS, type CreatedRoomLink, type RoomLinkOverview } from '@shared/contract/room-links';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomContents, type RoomFolder } from '@shared/contract/rooms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, forgetFailures, signIn, signInAdmin, type Session } from './core-helpers';
import { createE2eFolder, createE2eRoom, openRoomKey } from './rooms-e2e-helpers';
import { e2eActor, giveSecuPass } from './e2e-helpers';
import { createPlainRoom, roomCall, uploadRoomFile } from './room-upload-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Folder links and upload-only drop links of a plain room (server/rooms/sharing/folder-links.ts,
 * drop-links.ts; issue 32 §2): the landing page's listing, a file and a ZIP bit-exact, password,
 * expiry and limit, a drop upload landing in the folder with its activity and never listing
 * anything, a Secure room refused with its reason, bad input in the §8 shape. SQLite, and
 * PostgreSQL with KUVERT_TEST_DATABASE_URL. Who may call which route: rooms-role-matrix.test.ts.
 */

const PART_SIZE = 1024;
let server: TestServer;
const s = {} as Record<'owner' | 'editor' | 'viewer', Session>;
const email = (name: string) => `${name}@folder-links.test`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const api = (path: string) => `/api/2${path}`;
let room: Room;
let folder: RoomFolder;
let sub: RoomFolder;
let fileA: RoomUploadFile;
const bytesA = new Uint8Array(testFileBytes(3 * PART_SIZE + 5));
const bytesB = new Uint8Array(testFileBytes(700));

const tokenOf = (url: string) => new URLSearchParams(new URL(url).hash.slice(1)).get('token')!;
async function newLink(body: Record<string, unknown>, folderUuid = folder.uuid): Promise<{ link: CreatedRoomFolderLink; token: string }> {
  const link = await roomCall<CreatedRoomFolderLink>(server, s.owner, 'POST', L.links(room.uuid, folderUuid), 201, body);
  return { link, token: tokenOf(link.url) };
}
/** A public call as the landing page makes it: no cookie, the token (and password) in headers. */
function pub(method: string, path: string, token: string, init: { password?: string; json?: unknown; bytes?: Uint8Array; query?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { [ROOM_LINK_TOKEN_HEADER]: token };
  if (init.password !== undefined) headers[ROOM_LINK_PASSWORD_HEADER] = encodeURIComponent(init.password);
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.bytes) {
    Object.assign(headers, { 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(init.bytes) });
    body = new Blob([Uint8Array.from(init.bytes)]);
  }
  return fetch(`${server.url}${api(path)}${init.query ?? ''}`, { method, headers, body });
}
async function ok<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}
/** Uploads `bytes` as a visitor of a drop link: announce, parts, commit. */
async function drop(token: string, name: string, bytes: Uint8Array, password?: string): Promise<RoomDropFile> {
  const file = await ok<RoomDropFile>(await pub('POST', L.dropFiles, token, { json: { name, size: bytes.length }, password }), 201);
  for (let i = 0; i < file.partCount; i++) await ok(await pub('PUT', L.dropPart(file.uuid, i), token, { bytes: bytes.subarray(i * PART_SIZE, (i + 1) * PART_SIZE) }));
  return ok<RoomDropFile>(await pub('POST', L.dropCommit(file.uuid), token));
}

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await signInAdmin(server);
  for (const name of ['owner', 'editor', 'viewer'] as const) {
    await createUserAsAdmin(server, admin, { email: email(name), firstName: name === 'editor' ? 'Eda' : undefined, lastName: name === 'editor' ? 'Editorin' : undefined });
    s[name] = await signIn(server, email(name), 'Good-Passw0rd');
  }
  room = await createPlainRoom(server, s.owner, 'Folder link room');
  for (const [who, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER']] as const) await roomCall(server, s.owner, 'PUT', ROOM_PATHS.access(room.uuid), 200, { user: email(who), role });
  folder = await roomCall<RoomFolder>(server, s.owner, 'POST', ROOM_PATHS.folders(room.uuid), 201, { name: 'Shared' });
  sub = await roomCall<RoomFolder>(server, s.owner, 'POST', ROOM_PATHS.folders(room.uuid), 201, { name: 'Inner', parentUuid: folder.uuid });
  fileA = await uploadRoomFile(server, s.editor, room.uuid, { name: 'a.bin', bytes: bytesA, partSize: PART_SIZE, folderUuid: folder.uuid });
  await uploadRoomFile(server, s.editor, room.uuid, { name: 'b.bin', bytes: bytesB, partSize: PART_SIZE, folderUuid: sub.uuid });
  // Outside the linked folder: never reachable through the link.
  await uploadRoomFile(server, s.editor, room.uuid, { name: 'outside.bin', bytes: bytesB, partSize: PART_SIZE });
}, 180_000);
afterAll(() => server?.close());

it('runs on the database the environment asks for', () => {
  expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
});

describe('a folder link', () => {
  it('lists the folder and its subfolders, downloads a file and the folder as a ZIP bit-exact; a ZIP counts as one download', async () => {
    const { link, token } = await newLink({ kind: 'folder', maxDownloads: 3 });
    expect(link.url).toBe(`${server.app.config.publicUrl}/room-folder-link#token=${token}`);
    expect(link).toMatchObject({ kind: 'folder', state: 'active', folderUuid: folder.uuid, downloads: 0, maxDownloads: 3, uploads: 0 });
    const top = await ok<RoomFolderLinkInfo>(await pub('GET', L.info, token));
    expect(top).toMatchObject({ kind: 'folder', name: 'Shared', downloadsLeft: 3, path: [], folders: [{ uuid: sub.uuid, name: 'Inner' }] });
    expect(top.files.map((f) => [f.name, f.size])).toEqual([['a.bin', bytesA.length]]);
    const inner = await ok<RoomFolderLinkInfo>(await pub('GET', L.info, token, { query: `?folderUuid=${sub.uuid}` }));
    expect(inner).toMatchObject({ path: [{ uuid: sub.uuid, name: 'Inner' }], folders: [] });
    expect(inner.files.map((f) => f.name)).toEqual(['b.bin']);

    const file = await pub('GET', L.fileContent(inner.files[0]!.uuid), token);
    expect(file.status).toBe(200);
    expect(sha256(new Uint8Array(await file.arrayBuffer()))).toBe(sha256(bytesB));

    const zip = await pub('GET', L.zip, token);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const entries = new AdmZip(Buffer.from(await zip.arrayBuffer())).getEntries();
    expect(Object.fromEntries(entries.map((e) => [e.entryName, sha256(e.getData())]))).toEqual({ 'a.bin': sha256(bytesA), 'Inner/b.bin': sha256(bytesB) });

    const listed = await roomCall<RoomFolderLinkList>(server, s.editor, 'GET', L.links(room.uuid, folder.uuid), 200);
    await expect.poll(async () => (await roomCall<RoomFolderLinkList>(server, s.editor, 'GET', L.links(room.uuid, folder.uuid), 200)).links.find((l) => l.uuid === link.uuid)?.downloads).toBe(2);
    expect(listed.links.some((l) => l.uuid === link.uuid)).toBe(true);
    const activity = await roomCall<RoomActivityList>(server, s.owner, 'GET', ROOM_PATHS.activity(room.uuid), 200);
    expect(activity.entries.filter((e) => e.kind === 'download' && e.actor === ROOM_LINK_ACTOR).length).toBeGreaterThanOrEqual(2);
  });

  it('never reaches outside the linked folder: a file or a folder elsewhere answers 404', async () => {
    const { token } = await newLink({ kind: 'folder' });
    const contents = await roomCall<RoomContents>(server, s.owner, 'GET', ROOM_PATHS.room(room.uuid), 200);
    const outside = contents.files.find((f) => f.name === 'outside.bin')!;
    await expectBackendError(await pub('GET', L.fileContent(outside.uuid), token), 404, 'NotFoundException');
    const other = await roomCall<RoomFolder>(server, s.owner, 'POST', ROOM_PATHS.folders(room.uuid), 201, { name: 'Elsewhere' });
    await expectBackendError(await pub('GET', L.info, token, { query: `?folderUuid=${other.uuid}` }), 404, 'NotFoundException');
    await expectBackendError(await pub('GET', L.zip, token, { query: `?folderUuid=${other.uuid}` }), 404, 'NotFoundException');
  });

  it('asks for its password, is used up at its limit, expires and is revoked — each with its reason', async () => {
    await forgetFailures(server);
    const { token } = await newLink({ kind: 'folder', password: 'Folder-pass-1', maxDownloads: 1 });
    expect((await expectBackendError(await pub('GET', L.info, token), 403, 'AccessDeniedException')).metadata).toMatchObject({ reason: 'passwordRequired' });
    expect((await expectBackendError(await pub('GET', L.info, token, { password: 'wrong-one' }), 403, 'AccessDeniedException')).metadata).toMatchObject({ reason: 'passwordWrong' });
    const info = await ok<RoomFolderLinkInfo>(await pub('GET', L.info, token, { password: 'Folder-pass-1' }));
    expect(info.downloadsLeft).toBe(1);
    expect((await pub('GET', L.zip, token, { password: 'Folder-pass-1' })).status).toBe(200);
    await expect.poll(async () => (await pub('GET', L.info, token, { password: 'Folder-pass-1' })).status).toBe(410);
    const usedUp = await expectBackendError(await pub('GET', L.fileContent(info.files[0]!.uuid), token, { password: 'Folder-pass-1' }), 410, 'NotFoundException');
    expect(usedUp).toMatchObject({ message: 'This link is used up: its download limit is reached', metadata: { reason: 'linkUsedUp' } });

    const late = await newLink({ kind: 'folder' });
    await server.app.db.updateTable('room_folder_links').set({ expires_at: Date.now() - 1 }).where('uuid', '=', late.link.uuid).execute();
    expect(await expectBackendError(await pub('GET', L.info, late.token), 410, 'NotFoundException')).toMatchObject({ message: 'This link has expired', metadata: { reason: 'linkExpired' } });

    const revoked = await newLink({ kind: 'folder' });
    await roomCall(server, s.editor, 'DELETE', L.link(room.uuid, folder.uuid, revoked.link.uuid), 204);
    expect((await expectBackendError(await pub('GET', L.info, revoked.token), 410, 'NotFoundException')).metadata).toMatchObject({ reason: 'linkRevoked' });
    const states = (await roomCall<RoomFolderLinkList>(server, s.owner, 'GET', L.links(room.uuid, folder.uuid), 200)).links.map((l) => l.state);
    expect(states).toEqual(expect.arrayContaining(['revoked', 'expired', 'usedUp']));
  });

  it('bad input answers the §8 shape: days, date, password, a drop link with a limit, an unknown token, a missing header', async () => {
    await forgetFailures(server);
    for (const body of [{ kind: 'folder', expiresInDays: 91 }, { kind: 'folder', password: 'short' }, { kind: 'nope' }, { kind: 'folder', maxDownloads: 0 }, { kind: 'folder', expiresAt: Date.now() - 1000 }]) {
      await expectBackendError(await createRaw(body), 400, 'ValidationException');
    }
    const limited = await expectBackendError(await createRaw({ kind: 'drop', maxDownloads: 5 }), 400, 'ValidationException');
    expect(limited.metadata).toMatchObject({ issues: [{ path: '/maxDownloads' }] });
    expect((await expectBackendError(await pub('GET', L.info, 'A'.repeat(43)), 404, 'NotFoundException')).metadata).toMatchObject({ reason: 'linkInvalid' });
    await expectBackendError(await fetch(`${server.url}${api(L.info)}`), 400, 'ValidationException');
    await expectBackendError(await pub('GET', L.info, 'A'.repeat(43), { query: '?folderUuid=not-a-uuid' }), 400, 'ValidationException');
  });
});

/** A create call with the owner's session and any body (bad ones included). */
const createRaw = (body: unknown, roomUuid = room.uuid, folderUuid = folder.uuid) => call(server, s.owner, 'POST', api(L.links(roomUuid, folderUuid)), body);

describe('an upload-only drop link', () => {
  it('takes a visitor’s files into the folder (activity "upload" by the public link) and never lists what is there', async () => {
    const { link, token } = await newLink({ kind: 'drop', password: 'Drop-pass-22' });
    expect(link).toMatchObject({ kind: 'drop', maxDownloads: null, passwordProtected: true });
    const info = await ok<RoomFolderLinkInfo>(await pub('GET', L.info, token, { password: 'Drop-pass-22' }));
    expect(info).toEqual({ kind: 'drop', name: 'Shared', expiresAt: link.expiresAt, downloadsLeft: null, path: [], folders: [], files: [], partSize: PART_SIZE });
    await expectBackendError(await pub('POST', L.dropFiles, token, { json: { name: 'x.bin', size: 3 } }), 403, 'AccessDeniedException');

    const bytes = new Uint8Array(testFileBytes(2 * PART_SIZE + 100));
    // A taken name ("a.bin" is there): the upload gets another name, which the visitor is not told.
    const dropped = await drop(token, 'a.bin', bytes, 'Drop-pass-22');
    expect(dropped).toEqual({ uuid: dropped.uuid, state: 'complete', size: bytes.length, partSize: PART_SIZE, partCount: 3 });
    const folderContents = await roomCall<RoomContents>(server, s.owner, 'GET', ROOM_PATHS.folder(room.uuid, folder.uuid), 200);
    const landed = folderContents.files.find((f) => f.uuid === dropped.uuid)!;
    expect(landed.name).toBe('a (2).bin');
    expect(sha256(new Uint8Array(await (await fetch(`${server.url}${api(ROOM_PATHS.fileContent(room.uuid, landed.uuid))}`, { headers: { cookie: s.viewer.cookie } })).arrayBuffer()))).toBe(sha256(bytes));
    const activity = await roomCall<RoomActivityList>(server, s.owner, 'GET', ROOM_PATHS.activity(room.uuid), 200);
    expect(activity.entries.find((e) => e.kind === 'upload' && e.actor === ROOM_LINK_ACTOR)).toBeDefined();
    const listed = (await roomCall<RoomFolderLinkList>(server, s.owner, 'GET', L.links(room.uuid, folder.uuid), 200)).links.find((l) => l.uuid === link.uuid);
    expect(listed).toMatchObject({ kind: 'drop', uploads: 1, state: 'active' });

    // The folder-link calls answer 404 wrongLinkKind: nothing to list or download through it.
    expect((await expectBackendError(await pub('GET', L.zip, token, { password: 'Drop-pass-22' }), 404, 'NotFoundException')).metadata).toMatchObject({ reason: 'wrongLinkKind' });
    await expectBackendError(await pub('GET', L.fileContent(landed.uuid), token, { password: 'Drop-pass-22' }), 404, 'NotFoundException');
    // And a folder link's token cannot upload.
    const folderLink = await newLink({ kind: 'folder' });
    expect((await expectBackendError(await pub('POST', L.dropFiles, folderLink.token, { json: { name: 'x.bin', size: 3 } }), 404, 'NotFoundException')).metadata).toMatchObject({ reason: 'wrongLinkKind' });
  });

  it('refuses an empty file and another link’s upload, and stops with the link (revoked 410)', async () => {
    const { link, token } = await newLink({ kind: 'drop' });
    expect((await expectBackendError(await pub('POST', L.dropFiles, token, { json: { name: 'empty.txt', size: 0 } }), 400, 'ValidationException')).metadata).toMatchObject({ reason: 'zeroByteFile' });
    const other = await newLink({ kind: 'drop' });
    const started = await ok<RoomDropFile>(await pub('POST', L.dropFiles, other.token, { json: { name: 'theirs.bin', size: 10 } }), 201);
    await expectBackendError(await pub('PUT', L.dropPart(started.uuid, 0), token, { bytes: new Uint8Array(10) }), 404, 'NotFoundException');
    await roomCall(server, s.owner, 'DELETE', L.link(room.uuid, folder.uuid, link.uuid), 204);
    await expectBackendError(await pub('POST', L.dropFiles, token, { json: { name: 'late.bin', size: 10 } }), 410, 'NotFoundException');
  });
});

describe('the room’s links overview (GET /rooms/{room}/links)', () => {
  it('lists file, folder and upload links of the room with target, path, maker’s name, password and limit; a revoke shows, a trashed item’s link leaves', async () => {
    const fileLink = await roomCall<CreatedRoomLink>(server, s.editor, 'POST', ROOM_LINK_PATHS.links(room.uuid, fileA.uuid), 201, { password: 'overview-pw', maxDownloads: 2 });
    const { link: dropLink } = await newLink({ kind: 'drop' }, sub.uuid);
    const gone = await uploadRoomFile(server, s.owner, room.uuid, { name: 'gone.bin', bytes: bytesB, partSize: PART_SIZE });
    await roomCall(server, s.owner, 'POST', ROOM_LINK_PATHS.links(room.uuid, gone.uuid), 201, {});
    await roomCall(server, s.owner, 'DELETE', ROOM_PATHS.file(room.uuid, gone.uuid), 204);

    const overview = await roomCall<RoomLinkOverview>(server, s.owner, 'GET', ROOM_LINK_PATHS.overview(room.uuid), 200);
    expect(overview.links.some((l) => l.targetName === 'gone.bin')).toBe(false);
    expect(overview.links.find((l) => l.uuid === fileLink.uuid)).toMatchObject({
      kind: 'file', targetUuid: fileA.uuid, targetName: 'a.bin', path: [{ uuid: folder.uuid, name: 'Shared' }],
      createdBy: email('editor'), createdByName: 'Eda Editorin', passwordProtected: true, maxDownloads: 2, downloads: 0, state: 'active',
    });
    expect(overview.links.find((l) => l.uuid === dropLink.uuid)).toMatchObject({
      kind: 'drop', targetUuid: sub.uuid, targetName: 'Inner', path: [{ uuid: folder.uuid, name: 'Shared' }], createdBy: email('owner'), passwordProtected: false, maxDownloads: null, uploads: 0,
    });
    // Newest first, every kind of the room's links (the folder links of the tests above too).
    expect(new Set(overview.links.map((l) => l.kind))).toEqual(new Set(['file', 'folder', 'drop']));
    expect(overview.links.map((l) => l.createdAt)).toEqual([...overview.links.map((l) => l.createdAt)].sort((x, y) => y - x));

    await roomCall(server, s.owner, 'DELETE', ROOM_LINK_PATHS.link(room.uuid, fileA.uuid, fileLink.uuid), 204);
    const after = await roomCall<RoomLinkOverview>(server, s.owner, 'GET', ROOM_LINK_PATHS.overview(room.uuid), 200);
    expect(after.links.find((l) => l.uuid === fileLink.uuid)?.state).toBe('revoked');
    // The folder link list names its maker too (issue 32 "names instead of addresses").
    const folderList = await roomCall<RoomFolderLinkList>(server, s.owner, 'GET', L.links(room.uuid, sub.uuid), 200);
    expect(folderList.links.find((l) => l.uuid === dropLink.uuid)).toMatchObject({ createdBy: email('owner') });
    expect(folderList.links[0]).toHaveProperty('createdByName');
    // An EDITOR manages one item's links, not the room's list (SPEC §6: managing access is the OWNER's).
    await expectBackendError(await call(server, s.editor, 'GET', api(ROOM_LINK_PATHS.overview(room.uuid))), 403, 'AccessDeniedException');
  });
});

describe('a Secure room', () => {
  it('gets no folder or drop link: 409 encryptedRoom with the reason', async () => {
    const owner = await e2eActor(server, s.owner);
    await giveSecuPass(owner, 'Owner-SecuPass-folder-links-7');
    const created = await createE2eRoom(server, owner, 'Secure drop');
    const { handle } = await openRoomKey(server, owner, created.room.uuid);
    const e2eFolder = await ok<RoomFolder>(await createE2eFolder(server, owner, created.room.uuid, handle, 'Sealed'), 201);
    const refused = await expectBackendError(await createRaw({ kind: 'drop' }, created.room.uuid, e2eFolder.uuid), 409, 'ConflictException');
    expect(refused.message).toContain('the server cannot read its files nor encrypt files for it');
    expect(refused.metadata).toMatchObject({ reason: 'encryptedRoom' });
    // Its links overview says why it has none.
    const overview = await expectBackendError(await call(server, s.owner, 'GET', api(ROOM_LINK_PATHS.overview(created.room.uuid))), 409, 'ConflictException');
    expect(overview.metadata).toMatchObject({ reason: 'encryptedRoom' });
  });
});
