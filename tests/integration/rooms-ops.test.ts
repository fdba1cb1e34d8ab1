import { createHash, randomBytes } from 'node:crypto';
import AdmZip from 'adm-zip';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import type { RoomActivityList, RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_OPS_PATHS, type RoomFileVersionList, type StorageQuota } from '@shared/contract/room-ops';
import { ROOM_PATHS, type Room, type RoomContents, type RoomFolder } from '@shared/contract/rooms';
import { ROOM_SWEEP_JOB, ROOM_UPLOAD_MAX_AGE_MS, sweepRoomFiles } from '@server/rooms/plain/sweep';
import { VERSION_MAX_AGE_MS } from '@server/rooms/plain/versions';
import { NOT_INCLUDED_ENTRY } from '@server/rooms/plain/zip';
import { clamdUnavailable, EICAR, startTestClamd, type TestClamd } from '@tests/support/clamd';
import { startTestServer, type TestServer } from '@tests/support/server';
import { PNG_1X1 } from '@server/uploads/content-type.test-helper';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * File operations of plain data rooms (server/rooms scan, versions, preview, quota, sweep, zip;
 * issue 15): the virus scan against a REAL clamd (tests/support/clamd.ts, the delivery scan's
 * test double), blocked types, versions, the inline preview, the quota refusal before any part,
 * the abandoned-upload sweep, the streamed ZIP — and the SPEC §6 role matrix of every new route.
 * Runs on SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

const skipReason = clamdUnavailable();
if (skipReason) console.warn(skipReason);

const PART_SIZE = 1024;
let server: TestServer;
let clamd: TestClamd;
let admin: Session;
const s: Record<'owner' | 'editor' | 'viewer' | 'previewer' | 'outsider', Session> = {} as never;
const api = (path: string) => `/api/2${path}`;
type Actor = keyof typeof s | 'anonymous';
const ACTORS: Actor[] = ['owner', 'editor', 'viewer', 'previewer', 'outsider', 'anonymous'];
const sessionOf = (actor: Actor) => (actor === 'anonymous' ? null : s[actor]);
const email = (name: string) => `${name}@room-ops.test`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

const req = (actor: Actor, method: string, path: string, body?: unknown) => call(server, sessionOf(actor), method, api(path), body);

function headersOf(actor: Actor, extra: Record<string, string> = {}): Record<string, string> {
  const session = sessionOf(actor);
  return session ? { cookie: session.cookie, [ANTI_CSRF_HEADER]: session.csrf, ...extra } : extra;
}

const get = (actor: Actor, path: string, range?: string) => fetch(`${server.url}${api(path)}`, { headers: headersOf(actor, range ? { range } : {}) });

function putPart(actor: Actor, roomUuid: string, fileUuid: string, index: number, bytes: Uint8Array) {
  return fetch(`${server.url}${api(ROOM_PATHS.filePart(roomUuid, fileUuid, index))}`, {
    method: 'PUT',
    headers: headersOf(actor, { 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(bytes) }),
    body: new Blob([Uint8Array.from(bytes)]),
  });
}

async function newRoom(name: string): Promise<Room> {
  const room = await json<Room>(await req('owner', 'POST', ROOM_PATHS.rooms, { name }), 201);
  for (const [who, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email(who), role }), 200);
  }
  return room;
}
const newFolder = async (room: Room, name: string, parentUuid?: string) =>
  json<RoomFolder>(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name, ...(parentUuid ? { parentUuid } : {}) }), 201);

interface UploadOptions {
  folderUuid?: string;
  mimeType?: string;
  replace?: boolean;
  actor?: Actor;
}

/** Announces, uploads every part and commits; answers the committed file. */
async function upload(room: Room, name: string, bytes: Uint8Array, options: UploadOptions = {}): Promise<RoomUploadFile & { announcedUuid: string }> {
  const actor = options.actor ?? 'owner';
  const body = { name, size: bytes.length, mimeType: options.mimeType ?? 'application/octet-stream', ...(options.folderUuid ? { folderUuid: options.folderUuid } : {}), ...(options.replace ? { replace: true } : {}) };
  const file = await json<RoomUploadFile>(await req(actor, 'POST', ROOM_PATHS.files(room.uuid), body), 201);
  for (let i = 0; i < file.partCount; i++) await json(await putPart(actor, room.uuid, file.uuid, i, bytes.subarray(i * PART_SIZE, (i + 1) * PART_SIZE)), 200);
  return { ...(await json<RoomUploadFile>(await req(actor, 'POST', ROOM_PATHS.fileCommit(room.uuid, file.uuid)), 200)), announcedUuid: file.uuid };
}

/** Polls the file's details until the scan has a verdict (the job runs in the background). */
async function scanned(room: Room, fileUuid: string, timeoutMs = 20_000): Promise<RoomUploadFile> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const file = await json<RoomUploadFile>(await req('owner', 'GET', ROOM_PATHS.file(room.uuid, fileUuid)), 200);
    if (file.scanState !== 'scanning') return file;
    if (Date.now() > deadline) throw new Error(`scan of ${fileUuid} still running after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Uploads and waits for a clean verdict. */
async function cleanUpload(room: Room, name: string, bytes: Uint8Array, options: UploadOptions = {}): Promise<RoomUploadFile> {
  const file = await upload(room, name, bytes, options);
  expect((await scanned(room, file.uuid)).scanState).toBe('clean');
  return file;
}

function expected(allowed: readonly Actor[], ok: number): Record<Actor, number> {
  return Object.fromEntries(ACTORS.map((a) => [a, allowed.includes(a) ? ok : a === 'anonymous' ? 401 : a === 'outsider' ? 404 : 403])) as Record<Actor, number>;
}

/** Every actor against one route: the status, and a refusal never carries the bytes or the name. */
async function matrix(path: string, allowed: readonly Actor[], ok: number, secret: string) {
  const statuses: Record<string, number> = {};
  for (const actor of ACTORS) {
    const response = await get(actor, path);
    statuses[actor] = response.status;
    const text = await response.text();
    if (response.status !== ok) expect(text).not.toContain(secret);
  }
  expect(statuses).toEqual(expected(allowed, ok));
}

/** The storage report's running total of the data rooms equals the sum of what is stored. */
async function expectTotalsRight() {
  const db = server.app.db;
  const files = await db.selectFrom('room_files').select(['size']).where('state', '=', 'complete').execute();
  const versions = await db.selectFrom('room_file_versions').select(['size']).execute();
  const total = await db.selectFrom('storage_totals').select(['files', 'bytes']).where('area', '=', 'dataRooms').executeTakeFirstOrThrow();
  expect({ files: Number(total.files), bytes: Number(total.bytes) }).toEqual({
    files: files.length + versions.length,
    bytes: [...files, ...versions].reduce((sum, f) => sum + Number(f.size), 0),
  });
}

/** The file's activity once it holds `kinds` (a download is logged after its last byte went out, so shortly after the client has it). */
async function activityWith(room: Room, fileUuid: string, kinds: string[], timeoutMs = 5000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await json<RoomActivityList>(await req('owner', 'GET', `${ROOM_PATHS.activity(room.uuid)}?fileUuid=${fileUuid}`), 200)).entries.map((e) => e.kind);
    if (kinds.every((k) => found.includes(k as never)) || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  if (skipReason) return;
  clamd = await startTestClamd();
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE, clamdAddress: clamd.socket, scanAttempts: 3, scanRetryDelayMs: 1000, clamdTimeoutMs: 1500, jobPollIntervalMs: 100 } });
  admin = await signInAdmin(server);
  for (const name of ['owner', 'editor', 'viewer', 'previewer', 'outsider'] as const) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    s[name] = await signIn(server, email(name), 'Good-Passw0rd');
  }
}, 180_000);
afterAll(async () => {
  await server?.close();
  await clamd?.dispose();
});

describe.skipIf(skipReason !== null)('virus scan and blocked types', () => {
  it('scans each committed file with clamd: clean → downloadable; a virus → blocked for download and preview, shown in the list', async () => {
    const room = await newRoom('Scan room');
    const bytes = new Uint8Array(testFileBytes(2 * PART_SIZE + 5));
    const clean = await upload(room, 'clean.bin', bytes);
    expect(clean.scanState).toBe('scanning');
    expect((await scanned(room, clean.uuid)).scanState).toBe('clean');
    const ok = await get('viewer', ROOM_PATHS.fileContent(room.uuid, clean.uuid));
    expect(ok.status).toBe(200);
    expect(sha256(new Uint8Array(await ok.arrayBuffer()))).toBe(sha256(bytes));

    // The EICAR string straddles two parts: the scan sees the whole file.
    const infectedBytes = Buffer.concat([testFileBytes(PART_SIZE - 20), EICAR, randomBytes(30)]);
    const infected = await upload(room, 'invoice.txt', infectedBytes, { mimeType: 'text/plain' });
    expect((await scanned(room, infected.uuid)).scanState).toBe('virusDetected');
    const refused = await expectBackendError(await get('owner', ROOM_PATHS.fileContent(room.uuid, infected.uuid)), 403, 'FileNotAllowedException');
    expect(refused.metadata).toMatchObject({ name: 'invoice.txt', scanState: 'virusDetected', reason: 'virusDetected' });
    await expectBackendError(await get('previewer', ROOM_OPS_PATHS.preview(room.uuid, infected.uuid)), 403, 'FileNotAllowedException');
    const listed = await json<RoomContents>(await req('viewer', 'GET', ROOM_PATHS.room(room.uuid)), 200);
    expect(listed.files.map((f) => [f.name, f.scanState])).toEqual([['clean.bin', 'clean'], ['invoice.txt', 'virusDetected']]);
  });

  it('while the scan runs the file is refused as being checked; a scanner that stays down leaves it blocked ("scan failed"), never clean', async () => {
    const room = await newRoom('Scanner down room');
    await clamd.stop();
    try {
      const file = await upload(room, 'waiting.bin', new Uint8Array(testFileBytes(100)));
      const waiting = await expectBackendError(await get('owner', ROOM_PATHS.fileContent(room.uuid, file.uuid)), 403, 'FileNotAllowedException');
      expect(waiting.metadata).toMatchObject({ reason: 'scanInProgress', scanState: 'scanning' });
      expect((await scanned(room, file.uuid)).scanState).toBe('error');
      const failed = await expectBackendError(await get('owner', ROOM_PATHS.fileContent(room.uuid, file.uuid)), 403, 'FileNotAllowedException');
      expect(failed.metadata).toMatchObject({ reason: 'scanFailed', scanState: 'error' });
    } finally {
      await clamd.start();
    }
  });

  it('refuses a blocked type at the announcement with the delivery error class, nothing stored', async () => {
    const room = await newRoom('Blocked room');
    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.blockedExtensions]: 'exe,bat', [DELIVERY_SETTING_KEYS.blockedMimeTypes]: 'video/*' });
    try {
      const byName = await expectBackendError(await req('editor', 'POST', ROOM_PATHS.files(room.uuid), { name: 'Setup.EXE', size: 10 }), 400, 'FileNotAllowedException');
      expect(byName.metadata).toMatchObject({ name: 'Setup.EXE', extension: 'exe' });
      const byType = await expectBackendError(await req('editor', 'POST', ROOM_PATHS.files(room.uuid), { name: 'clip.bin', size: 10, mimeType: 'video/mp4' }), 400, 'FileNotAllowedException');
      expect(byType.metadata).toMatchObject({ name: 'clip.bin', mimeType: 'video/mp4' });
      const rows = await server.app.db.selectFrom('room_files').innerJoin('data_rooms', 'data_rooms.id', 'room_files.room_id').select('room_files.id').where('data_rooms.uuid', '=', room.uuid).execute();
      expect(rows).toEqual([]);
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.blockedExtensions]: '', [DELIVERY_SETTING_KEYS.blockedMimeTypes]: '' });
    }
  });
});

describe.skipIf(skipReason !== null)('file versions', () => {
  it('a same-named upload is a version conflict without `replace`, the next version with it; versions listed and downloadable (Range); totals right', async () => {
    const room = await newRoom('Versions room');
    const folder = await newFolder(room, 'Contracts');
    const v1 = new Uint8Array(testFileBytes(PART_SIZE + 300));
    const v2 = new Uint8Array(testFileBytes(2 * PART_SIZE + 1));
    const first = await cleanUpload(room, 'Contract.pdf', v1, { folderUuid: folder.uuid, mimeType: 'application/pdf' });
    const conflict = await expectBackendError(await req('editor', 'POST', ROOM_PATHS.files(room.uuid), { name: 'contract.PDF', size: 5, folderUuid: folder.uuid }), 409, 'ConflictException');
    expect(conflict.metadata).toMatchObject({ reason: 'nameExists', kind: 'file', fileUuid: first.uuid });

    const second = await upload(room, 'contract.PDF', v2, { folderUuid: folder.uuid, replace: true, actor: 'editor', mimeType: 'application/pdf' });
    // The file keeps its uuid and name; the new content is scanned before anyone gets it.
    expect(second).toMatchObject({ uuid: first.uuid, name: 'Contract.pdf', size: v2.length, sha256: sha256(v2), uploadedBy: email('editor') });
    // A repeated commit of the replace upload (a retry after a lost answer) answers the file again.
    expect(await json<RoomUploadFile>(await req('editor', 'POST', ROOM_PATHS.fileCommit(room.uuid, second.announcedUuid)), 200)).toMatchObject({ uuid: first.uuid, sha256: sha256(v2) });
    await expectBackendError(await req('viewer', 'POST', ROOM_PATHS.fileCommit(room.uuid, second.announcedUuid)), 404);
    expect((await scanned(room, first.uuid)).scanState).toBe('clean');
    const listed = await json<RoomContents>(await req('viewer', 'GET', ROOM_PATHS.folder(room.uuid, folder.uuid)), 200);
    expect(listed.files.map((f) => [f.uuid, f.size])).toEqual([[first.uuid, v2.length]]);
    const current = await get('viewer', ROOM_PATHS.fileContent(room.uuid, first.uuid));
    expect(sha256(new Uint8Array(await current.arrayBuffer()))).toBe(sha256(v2));

    // Issue 32: each version names its uploader's display name where one is known (the owner has none).
    await server.app.db.updateTable('users').set({ first_name: 'Erika', last_name: 'Editor' }).where('email', '=', email('editor')).execute();
    const { versions } = await json<RoomFileVersionList>(await req('editor', 'GET', ROOM_OPS_PATHS.versions(room.uuid, first.uuid)), 200);
    expect(versions.map((v) => [v.version, v.current, v.size, v.sha256, v.uploadedBy, v.uploadedByName])).toEqual([
      [2, true, v2.length, sha256(v2), email('editor'), 'Erika Editor'],
      [1, false, v1.length, sha256(v1), email('owner'), null],
    ]);
    const earlier = versions[1]!;
    expect(earlier.replacedAt).toBeGreaterThan(0);
    const whole = await get('owner', ROOM_OPS_PATHS.versionContent(room.uuid, first.uuid, earlier.uuid));
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(v1));
    const partial = await get('editor', ROOM_OPS_PATHS.versionContent(room.uuid, first.uuid, earlier.uuid), 'bytes=1000-1100');
    expect(partial.status).toBe(206);
    expect(Buffer.from(await partial.arrayBuffer()).equals(Buffer.from(v1.subarray(1000, 1101)))).toBe(true);
    expect(await activityWith(room, first.uuid, ['upload', 'new_version', 'version_download'])).toEqual(expect.arrayContaining(['upload', 'new_version', 'version_download']));
    await expectTotalsRight();

    // Role matrix: OWNER and EDITOR see and download versions (SPEC §6), nobody else.
    await matrix(ROOM_OPS_PATHS.versions(room.uuid, first.uuid), ['owner', 'editor'], 200, earlier.uuid);
    await matrix(ROOM_OPS_PATHS.versionContent(room.uuid, first.uuid, earlier.uuid), ['owner', 'editor'], 200, 'Contract');

    // A replace for a name that is free is an ordinary upload.
    const fresh = await cleanUpload(room, 'new.txt', new Uint8Array(testFileBytes(10)), { replace: true });
    expect((await json<RoomFileVersionList>(await req('owner', 'GET', ROOM_OPS_PATHS.versions(room.uuid, fresh.uuid)), 200)).versions).toHaveLength(1);

    // Purging the file takes every version's bytes with it.
    const versionRow = await server.app.db.selectFrom('room_file_versions').select('blob_prefix').where('uuid', '=', earlier.uuid).executeTakeFirstOrThrow();
    await json(await req('owner', 'DELETE', ROOM_PATHS.file(room.uuid, first.uuid)), 204);
    await json(await req('owner', 'DELETE', ROOM_PATHS.trashItem(room.uuid, first.uuid)), 204);
    expect(await server.app.blobs.exists(`${versionRow.blob_prefix}/0`)).toBe(false);
    expect(await server.app.db.selectFrom('room_file_versions').select('id').where('uuid', '=', earlier.uuid).executeTakeFirst()).toBeUndefined();
    await expectTotalsRight();
  });
});

describe.skipIf(skipReason !== null)('preview', () => {
  it('serves images, PDF and text inline, sandboxed and never stored, to every role (PREVIEWER too); refuses other types; download still refuses PREVIEWERs', async () => {
    const room = await newRoom('Preview room');
    // A real PNG (the preview goes by the bytes: file-type checks more than the signature).
    const png = Buffer.concat([PNG_1X1, randomBytes(1500)]);
    const image = await cleanUpload(room, 'photo.png', png, { mimeType: 'image/png' });
    const shown = await get('previewer', ROOM_OPS_PATHS.preview(room.uuid, image.uuid));
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(shown.headers.get('content-disposition')).toMatch(/^inline; filename="photo.png"/);
    expect(shown.headers.get('content-security-policy')).toContain('sandbox');
    expect(shown.headers.get('cache-control')).toContain('no-store');
    expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await shown.arrayBuffer()).equals(png)).toBe(true);
    await expectBackendError(await get('previewer', ROOM_PATHS.fileContent(room.uuid, image.uuid)), 403, 'AccessDeniedException');
    expect(await activityWith(room, image.uuid, ['view'])).toContain('view');

    // Text is always plain UTF-8 text (an uploaded text/html name or type never renders as a page).
    const text = await cleanUpload(room, 'notes.txt', Buffer.from('Grüße <script>alert(1)</script>\n'), { mimeType: 'text/plain' });
    const plain = await get('viewer', ROOM_OPS_PATHS.preview(room.uuid, text.uuid));
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await plain.text()).toContain('Grüße');

    for (const [name, mimeType] of [['page.html', 'text/html'], ['drawing.svg', 'image/svg+xml'], ['archive.zip', 'application/zip']] as const) {
      const file = await cleanUpload(room, name, new Uint8Array(testFileBytes(20)), { mimeType });
      const refused = await expectBackendError(await get('owner', ROOM_OPS_PATHS.preview(room.uuid, file.uuid)), 415, 'UnsupportedMediaTypeException');
      expect(refused.metadata).toMatchObject({ reason: 'previewNotSupported', mimeType });
    }
    // Types from the bytes, not the declaration: HTML declared as an image is not previewed; a PNG declared as text is shown as the image it is.
    const fake = await cleanUpload(room, 'fake.png', Buffer.from('<!doctype html><script>alert(1)</script>'), { mimeType: 'image/png' });
    expect((await expectBackendError(await get('owner', ROOM_OPS_PATHS.preview(room.uuid, fake.uuid)), 415, 'UnsupportedMediaTypeException')).metadata).toMatchObject({ reason: 'previewNotSupported' });
    const hidden = await cleanUpload(room, 'hidden.txt', png, { mimeType: 'text/plain' });
    expect((await get('viewer', ROOM_OPS_PATHS.preview(room.uuid, hidden.uuid))).headers.get('content-type')).toBe('image/png');
    await matrix(ROOM_OPS_PATHS.preview(room.uuid, image.uuid), ['owner', 'editor', 'viewer', 'previewer'], 200, 'photo');
  });
});

describe.skipIf(skipReason !== null)('storage quota', () => {
  it('answers used, total, other, secure rooms and free from the totals; refuses an upload over quota before any part is stored', async () => {
    const room = await newRoom('Quota room');
    await cleanUpload(room, 'some.bin', new Uint8Array(testFileBytes(3000)));
    const before = await json<StorageQuota>(await req('viewer', 'GET', ROOM_OPS_PATHS.quota), 200);
    const totals = await server.app.db.selectFrom('storage_totals').select(['area', 'bytes']).execute();
    const rooms = Number(totals.find((t) => t.area === 'dataRooms')!.bytes);
    const all = totals.reduce((sum, t) => sum + Number(t.bytes), 0);
    expect(before).toMatchObject({ used: all, secureRooms: rooms, other: all - rooms, total: null });
    expect(rooms).toBeGreaterThanOrEqual(3000);

    const quota = all + 500;
    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.globalQuota]: quota });
    try {
      const limited = await json<StorageQuota>(await req('owner', 'GET', ROOM_OPS_PATHS.quota), 200);
      expect(limited.total).toBe(quota);
      expect(limited.free).toBeLessThanOrEqual(500);
      const full = await expectBackendError(await req('editor', 'POST', ROOM_PATHS.files(room.uuid), { name: 'big.bin', size: 5000 }), 507, 'GlobalQuotaReachedException');
      expect(full.metadata).toMatchObject({ spaceRequired: 5000, spaceAvailable: limited.free });
      // Refused before anything exists: no row, so no part can be sent.
      expect(await server.app.db.selectFrom('room_files').select('id').where('name', '=', 'big.bin').executeTakeFirst()).toBeUndefined();
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.globalQuota]: 0 });
    }
    const statuses: Record<string, number> = {};
    for (const actor of ACTORS) statuses[actor] = (await get(actor, ROOM_OPS_PATHS.quota)).status;
    // Any signed-in user sees the quota (it names no room or file); anonymous callers do not.
    expect(statuses).toEqual({ owner: 200, editor: 200, viewer: 200, previewer: 200, outsider: 200, anonymous: 401 });
  });
});

describe.skipIf(skipReason !== null)('abandoned-upload sweep', () => {
  it('removes uploads left in `uploading` past the period with their parts, keeps recent ones and complete files; purges versions after 30 days', async () => {
    const room = await newRoom('Sweep room');
    const stuck = await json<RoomUploadFile>(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name: 'stuck.bin', size: 3 * PART_SIZE }), 201);
    await json(await putPart('owner', room.uuid, stuck.uuid, 0, new Uint8Array(testFileBytes(PART_SIZE))), 200);
    const stuckRow = await server.app.db.selectFrom('room_files').select('id').where('uuid', '=', stuck.uuid).executeTakeFirstOrThrow();
    const kept = await cleanUpload(room, 'kept.bin', new Uint8Array(testFileBytes(100)));
    await cleanUpload(room, 'kept.bin', new Uint8Array(testFileBytes(200)), { replace: true });

    // Within the period nothing goes.
    expect(await sweepRoomFiles(server.app, Date.now() + ROOM_UPLOAD_MAX_AGE_MS - 60_000)).toMatchObject({ uploads: 0 });
    expect(await server.app.blobs.exists(`rooms/${room.uuid}/${stuck.uuid}/0`)).toBe(true);
    const result = await sweepRoomFiles(server.app, Date.now() + ROOM_UPLOAD_MAX_AGE_MS + 60_000);
    expect(result.uploads).toBeGreaterThanOrEqual(1);
    expect(await server.app.blobs.exists(`rooms/${room.uuid}/${stuck.uuid}/0`)).toBe(false);
    expect(await server.app.db.selectFrom('room_files').select('id').where('uuid', '=', stuck.uuid).executeTakeFirst()).toBeUndefined();
    expect(await server.app.db.selectFrom('room_file_parts').select('file_id').where('file_id', '=', stuckRow.id).executeTakeFirst()).toBeUndefined();
    await json(await req('owner', 'GET', ROOM_PATHS.file(room.uuid, kept.uuid)), 200);
    expect((await json<RoomFileVersionList>(await req('owner', 'GET', ROOM_OPS_PATHS.versions(room.uuid, kept.uuid)), 200)).versions).toHaveLength(2);

    expect((await sweepRoomFiles(server.app, Date.now() + VERSION_MAX_AGE_MS + 60_000)).versions).toBeGreaterThanOrEqual(1);
    expect((await json<RoomFileVersionList>(await req('owner', 'GET', ROOM_OPS_PATHS.versions(room.uuid, kept.uuid)), 200)).versions).toHaveLength(1);
    await expectTotalsRight();
    // It runs as one leased periodic job for all servers.
    const job = await server.app.db.selectFrom('jobs').select(['kind', 'state']).where('unique_key', '=', ROOM_SWEEP_JOB).executeTakeFirst();
    expect(job).toMatchObject({ kind: ROOM_SWEEP_JOB, state: 'pending' });
  });
});

describe.skipIf(skipReason !== null)('folder ZIP', () => {
  it('streams a folder or the room as a ZIP of what the caller may download, bit-exact; blocked and not-allowed files are named in a text entry', async () => {
    const room = await newRoom('Zip room');
    const a = await newFolder(room, 'Alpha');
    const b = await newFolder(room, 'Beta', a.uuid);
    const hidden = await newFolder(room, 'Preview only');
    // The viewer is only a PREVIEWER below "Preview only".
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('viewer'), role: 'PREVIEWER', folderUuid: hidden.uuid }), 200);
    const files: Record<string, Uint8Array> = {
      'top.txt': new Uint8Array(testFileBytes(500)),
      'Alpha/one.bin': new Uint8Array(testFileBytes(3 * PART_SIZE + 7)),
      'Alpha/Beta/Grüße.txt': new Uint8Array(testFileBytes(PART_SIZE)),
      'Preview only/secret.bin': new Uint8Array(testFileBytes(50)),
    };
    await cleanUpload(room, 'top.txt', files['top.txt']!);
    await cleanUpload(room, 'one.bin', files['Alpha/one.bin']!, { folderUuid: a.uuid });
    await cleanUpload(room, 'Grüße.txt', files['Alpha/Beta/Grüße.txt']!, { folderUuid: b.uuid });
    await cleanUpload(room, 'secret.bin', files['Preview only/secret.bin']!, { folderUuid: hidden.uuid });
    const virus = await upload(room, 'virus.txt', EICAR, { folderUuid: a.uuid });
    expect((await scanned(room, virus.uuid)).scanState).toBe('virusDetected');

    const unzip = async (actor: Actor, path: string) => {
      const response = await get(actor, path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/zip');
      expect(response.headers.get('content-disposition')).toMatch(/^attachment/);
      const zip = new AdmZip(Buffer.from(await response.arrayBuffer()));
      return new Map(zip.getEntries().filter((e) => !e.isDirectory).map((e) => [e.entryName, e.getData()]));
    };
    const whole = await unzip('owner', ROOM_OPS_PATHS.roomZip(room.uuid));
    expect([...whole.keys()].sort()).toEqual([...Object.keys(files), NOT_INCLUDED_ENTRY].sort());
    for (const [name, bytes] of Object.entries(files)) expect(sha256(whole.get(name)!), name).toBe(sha256(bytes));
    expect(whole.get(NOT_INCLUDED_ENTRY)!.toString('utf8')).toContain('Alpha/virus.txt: a virus was found');

    const viewers = await unzip('viewer', ROOM_OPS_PATHS.roomZip(room.uuid));
    expect(viewers.has('Preview only/secret.bin')).toBe(false);
    expect(viewers.get(NOT_INCLUDED_ENTRY)!.toString('utf8')).toContain('Preview only/secret.bin: no download right');

    const folderZip = await unzip('editor', ROOM_OPS_PATHS.folderZip(room.uuid, a.uuid));
    expect([...folderZip.keys()].sort()).toEqual(['Beta/Grüße.txt', NOT_INCLUDED_ENTRY, 'one.bin'].sort());
    expect(sha256(folderZip.get('one.bin')!)).toBe(sha256(files['Alpha/one.bin']!));

    await matrix(ROOM_OPS_PATHS.folderZip(room.uuid, a.uuid), ['owner', 'editor', 'viewer'], 200, 'one.bin');
    await matrix(ROOM_OPS_PATHS.roomZip(room.uuid), ['owner', 'editor', 'viewer'], 200, 'top.txt');
    const deadline = Date.now() + 5000;
    let zipped = false;
    while (!zipped && Date.now() < deadline) {
      zipped = (await json<RoomActivityList>(await req('owner', 'GET', ROOM_PATHS.activity(room.uuid)), 200)).entries.some((e) => e.kind === 'download' && e.detail?.startsWith('zip'));
      if (!zipped) await new Promise((r) => setTimeout(r, 50));
    }
    expect(zipped).toBe(true);
  });
});
