import { createHash, randomBytes } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import type { RoomActivityList, RoomFileParts, RoomSearchResult, RoomTrashList, RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomContents, type RoomFolder } from '@shared/contract/rooms';
import { EXE_HEADER } from '@server/uploads/content-type.test-helper';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Files in plain data rooms (server/rooms files, issue 15): upload through the shared resumable
 * parts (server/uploads), Range download bit-exact, rename/move/delete, names shared with folders,
 * search, activity — and the SPEC §6 role matrix over every file route, denial and success.
 * Runs on SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

const PART_SIZE = 1024;
let server: TestServer;
let admin: Session;
const s: Record<'owner' | 'editor' | 'viewer' | 'previewer' | 'outsider', Session> = {} as never;
const api = (path: string) => `/api/2${path}`;
type Actor = keyof typeof s | 'anonymous';
const ACTORS: Actor[] = ['owner', 'editor', 'viewer', 'previewer', 'outsider', 'anonymous'];
const sessionOf = (actor: Actor) => (actor === 'anonymous' ? null : s[actor]);
const email = (name: string) => `${name}@room-files.test`;
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

function putPart(actor: Actor, roomUuid: string, fileUuid: string, index: number, bytes: Uint8Array, hash = sha256(bytes)) {
  return fetch(`${server.url}${api(ROOM_PATHS.filePart(roomUuid, fileUuid, index))}`, {
    method: 'PUT',
    headers: headersOf(actor, { 'content-type': 'application/octet-stream', 'x-content-sha256': hash }),
    body: new Blob([Uint8Array.from(bytes)]),
  });
}

const download = (actor: Actor, roomUuid: string, fileUuid: string, range?: string) =>
  fetch(`${server.url}${api(ROOM_PATHS.fileContent(roomUuid, fileUuid))}`, { headers: headersOf(actor, range ? { range } : {}) });

async function newRoom(name: string): Promise<Room> {
  const room = await json<Room>(await req('owner', 'POST', ROOM_PATHS.rooms, { name }), 201);
  for (const [who, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email(who), role }), 200);
  }
  return room;
}
const newFolder = async (room: Room, name: string, parentUuid?: string) =>
  json<RoomFolder>(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name, ...(parentUuid ? { parentUuid } : {}) }), 201);

/** Announces, uploads every part and commits; answers the committed file and its bytes. */
async function upload(actor: Actor, room: Room, name: string, size: number, folderUuid?: string): Promise<{ file: RoomUploadFile; bytes: Uint8Array }> {
  const bytes = new Uint8Array(testFileBytes(size));
  const file = await json<RoomUploadFile>(await req(actor, 'POST', ROOM_PATHS.files(room.uuid), { name, size, mimeType: 'application/pdf', ...(folderUuid ? { folderUuid } : {}) }), 201);
  for (let i = 0; i < file.partCount; i++) {
    await json(await putPart(actor, room.uuid, file.uuid, i, bytes.subarray(i * PART_SIZE, Math.min(size, (i + 1) * PART_SIZE))), 200);
  }
  return { file: await json<RoomUploadFile>(await req(actor, 'POST', ROOM_PATHS.fileCommit(room.uuid, file.uuid)), 200), bytes };
}

function expected(allowed: readonly Actor[], ok: number): Record<Actor, number> {
  return Object.fromEntries(ACTORS.map((a) => [a, allowed.includes(a) ? ok : a === 'anonymous' ? 401 : a === 'outsider' ? 404 : 403])) as Record<Actor, number>;
}

async function expectDenied(response: Response, status: number, secret: string) {
  const error = await expectBackendError(response, status, status === 401 ? 'AuthenticationRequiredException' : status === 404 ? 'NotFoundException' : 'AccessDeniedException');
  expect(JSON.stringify(error)).not.toContain(secret);
  if (status === 403) expect(error.message).toBe("You don't have sufficient rights, please ask your administrator");
}

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  admin = await signInAdmin(server);
  for (const name of ['owner', 'editor', 'viewer', 'previewer', 'outsider'] as const) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    s[name] = await signIn(server, email(name), 'Good-Passw0rd');
  }
}, 180_000);
afterAll(() => server?.close());

describe('upload and download', () => {
  it('uploads in parts into a folder, lists the file, downloads it whole and by Range bit-exact', async () => {
    const room = await newRoom('Upload room');
    const folder = await newFolder(room, 'Reports');
    const { file, bytes } = await upload('editor', room, 'Q3 report.pdf', 3 * PART_SIZE + 17, folder.uuid);
    expect(file).toMatchObject({ state: 'complete', size: bytes.length, partSize: PART_SIZE, partCount: 4, sha256: sha256(bytes), folderUuid: folder.uuid, uploadedBy: email('editor') });
    const contents = await json<RoomContents>(await req('viewer', 'GET', ROOM_PATHS.folder(room.uuid, folder.uuid)), 200);
    expect(contents.files.map((f) => [f.name, f.role, f.size])).toEqual([['Q3 report.pdf', 'VIEWER', bytes.length]]);
    expect((await json<RoomContents>(await req('viewer', 'GET', ROOM_PATHS.room(room.uuid)), 200)).files).toEqual([]);

    const whole = await download('viewer', room.uuid, file.uuid);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-disposition')).toContain('Q3 report.pdf');
    expect(Buffer.from(await whole.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    // Across a part boundary, an open end, a suffix.
    for (const [range, start, end] of [['bytes=1000-2100', 1000, 2100], ['bytes=3000-', 3000, bytes.length - 1], ['bytes=-20', bytes.length - 20, bytes.length - 1]] as const) {
      const partial = await download('owner', room.uuid, file.uuid, range);
      expect(partial.status).toBe(206);
      expect(partial.headers.get('content-range')).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(Buffer.from(await partial.arrayBuffer()).equals(Buffer.from(bytes.subarray(start, end + 1)))).toBe(true);
    }
    const unsatisfiable = await download('owner', room.uuid, file.uuid, `bytes=${bytes.length}-`);
    expect(unsatisfiable.status).toBe(416);
    expect(unsatisfiable.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
  });

  it('resumes: parts listed, a repeated part is a no-op, a wrong hash or size refused, commit refused until complete', async () => {
    const room = await newRoom('Resume room');
    const bytes = new Uint8Array(testFileBytes(2 * PART_SIZE + 5));
    const file = await json<RoomUploadFile>(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name: 'big.bin', size: bytes.length }), 201);
    expect(file.state).toBe('uploading');
    // Not listed, not downloadable, invisible to others while uploading.
    expect((await json<RoomContents>(await req('owner', 'GET', ROOM_PATHS.room(room.uuid)), 200)).files).toEqual([]);
    await expectBackendError(await download('owner', room.uuid, file.uuid), 404, 'NotFoundException');
    await expectBackendError(await req('editor', 'GET', ROOM_PATHS.fileParts(room.uuid, file.uuid)), 404, 'NotFoundException');
    await json(await putPart('owner', room.uuid, file.uuid, 0, bytes.subarray(0, PART_SIZE)), 200);
    await json(await putPart('owner', room.uuid, file.uuid, 0, bytes.subarray(0, PART_SIZE)), 200);
    const badHash = await expectBackendError(await putPart('owner', room.uuid, file.uuid, 1, bytes.subarray(PART_SIZE, 2 * PART_SIZE), sha256(new Uint8Array(1))), 400);
    expect(badHash.metadata.reason).toBe('sha256Mismatch');
    const badSize = await expectBackendError(await putPart('owner', room.uuid, file.uuid, 2, bytes.subarray(0, 10)), 400);
    expect(badSize.metadata.reason).toBe('partSizeMismatch');
    expect((await expectBackendError(await putPart('owner', room.uuid, file.uuid, 3, bytes.subarray(0, 5)), 400)).metadata.reason).toBe('partIndexOutOfRange');
    const parts = await json<RoomFileParts>(await req('owner', 'GET', ROOM_PATHS.fileParts(room.uuid, file.uuid)), 200);
    expect(parts.parts.map((p) => p.index)).toEqual([0]);
    const incomplete = await expectBackendError(await req('owner', 'POST', ROOM_PATHS.fileCommit(room.uuid, file.uuid)), 400, 'ValidationException');
    expect(incomplete.metadata).toMatchObject({ reason: 'uploadIncomplete', missing: [1, 2] });
    await json(await putPart('owner', room.uuid, file.uuid, 1, bytes.subarray(PART_SIZE, 2 * PART_SIZE)), 200);
    await json(await putPart('owner', room.uuid, file.uuid, 2, bytes.subarray(2 * PART_SIZE)), 200);
    const done = await json<RoomUploadFile>(await req('owner', 'POST', ROOM_PATHS.fileCommit(room.uuid, file.uuid)), 200);
    expect(done.sha256).toBe(sha256(bytes));
    // Committing again is a no-op; parts cannot change any more.
    expect((await json<RoomUploadFile>(await req('owner', 'POST', ROOM_PATHS.fileCommit(room.uuid, file.uuid)), 200)).state).toBe('complete');
    await expectBackendError(await putPart('owner', room.uuid, file.uuid, 0, bytes.subarray(0, PART_SIZE)), 409, 'ConflictException');
    const got = await download('owner', room.uuid, file.uuid);
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses a zero-byte file, a bad name, a name taken by a file or a folder, and bad input with 400', async () => {
    const room = await newRoom('Names room');
    await newFolder(room, 'Taken');
    await upload('owner', room, 'exists.txt', 10);
    expect((await expectBackendError(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name: 'empty.txt', size: 0 }), 400)).metadata.reason).toBe('zeroByteFile');
    expect((await expectBackendError(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name: 'a/b', size: 3 }), 400)).metadata).toMatchObject({ reason: 'invalidFileName', nameProblem: 'invalidCharacters' });
    // Issue 28: a disguising or invisible character in an uploaded file's name.
    for (const [name, nameProblem] of [['invoice\u202Efdp.exe', 'bidiControl'], ['\uFEFFreport.pdf', 'zeroWidth'], ['re\u200Bport.pdf', 'zeroWidth']] as const) {
      expect((await expectBackendError(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name, size: 3 }), 400, 'ValidationException')).metadata).toMatchObject({ reason: 'invalidFileName', nameProblem });
    }
    // NFC: the decomposed spelling of a taken name is the taken name.
    await upload('owner', room, 'résumé.txt', 10);
    expect((await expectBackendError(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name: 're\u0301sume\u0301.txt', size: 3 }), 409, 'ConflictException')).metadata).toMatchObject({ reason: 'nameExists', kind: 'file' });
    const byFolder = await expectBackendError(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name: 'taken', size: 3 }), 409, 'ConflictException');
    expect(byFolder.metadata).toMatchObject({ reason: 'nameExists', kind: 'folder' });
    const byFile = await expectBackendError(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name: 'EXISTS.txt', size: 3 }), 409, 'ConflictException');
    expect(byFile.metadata).toMatchObject({ reason: 'nameExists', kind: 'file' });
    // A folder cannot take a file's name either.
    expect((await expectBackendError(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'exists.txt' }), 409)).metadata).toMatchObject({ kind: 'file' });
    await expectBackendError(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name: 'x', size: -1 }), 400, 'ValidationException');
    await expectBackendError(await req('owner', 'GET', ROOM_PATHS.file(room.uuid, 'not-a-uuid')), 400, 'ValidationException');
    const missingHash = await fetch(`${server.url}${api(ROOM_PATHS.filePart(room.uuid, crypto.randomUUID(), 0))}`, {
      method: 'PUT', headers: headersOf('owner', { 'content-type': 'application/octet-stream' }), body: new Uint8Array(3),
    });
    await expectBackendError(missingHash, 404, 'NotFoundException');
  });

  it('types from the bytes: a program declared as a PDF is refused at commit (another member cannot commit it at all), a real one commits; an HTML file is downloaded as octet-stream', async () => {
    const room = await newRoom('Types room');
    const announce = async (name: string, mimeType: string, bytes: Uint8Array) => {
      const file = await json<RoomUploadFile>(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name, size: bytes.length, mimeType }), 201);
      for (let i = 0; i < file.partCount; i++) await json(await putPart('owner', room.uuid, file.uuid, i, bytes.subarray(i * PART_SIZE, (i + 1) * PART_SIZE)), 200);
      return file;
    };
    const disguised = await announce('invoice.pdf', 'application/pdf', Buffer.concat([EXE_HEADER, randomBytes(2000)]));
    // Only the uploader commits: for another member the upload does not exist.
    await expectBackendError(await req('viewer', 'POST', ROOM_PATHS.fileCommit(room.uuid, disguised.uuid)), 404);
    const refused = await expectBackendError(await req('owner', 'POST', ROOM_PATHS.fileCommit(room.uuid, disguised.uuid)), 400, 'FileNotAllowedException');
    expect(refused.metadata).toEqual({ name: 'invoice.pdf', extension: 'exe', mimeType: 'application/x-msdownload', reason: 'blockedContent' });
    expect((await json<RoomContents>(await req('owner', 'GET', ROOM_PATHS.room(room.uuid)), 200)).files.map((f) => f.name)).not.toContain('invoice.pdf');

    const pdf = await announce('real.pdf', 'application/pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(1200)]));
    await json(await req('owner', 'POST', ROOM_PATHS.fileCommit(room.uuid, pdf.uuid)), 200);
    expect((await download('viewer', room.uuid, pdf.uuid)).headers.get('content-type')).toBe('application/pdf');
    const page = await announce('page.html', 'text/html', Buffer.from('<!doctype html><script>alert(document.cookie)</script>'));
    await json(await req('owner', 'POST', ROOM_PATHS.fileCommit(room.uuid, page.uuid)), 200);
    const served = await download('viewer', room.uuid, page.uuid);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('refuses an upload over the storage quota before any part is stored (GlobalQuotaReachedException with the figures)', async () => {
    const room = await newRoom('Quota room');
    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.globalQuota]: 1 });
    try {
      const refused = await expectBackendError(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name: 'big.bin', size: 5000 }), 507, 'GlobalQuotaReachedException');
      expect(refused.metadata).toMatchObject({ spaceAvailable: 0, spaceRequired: 5000 });
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.globalQuota]: 0 });
    }
  });
});

describe('rename, move, delete, search', () => {
  it('renames and moves within the room; another room is refused with its message; delete hides it', async () => {
    const room = await newRoom('Edit room');
    const other = await newRoom('Other room');
    const target = await newFolder(room, 'Archive');
    const { file, bytes } = await upload('owner', room, 'draft.txt', 50);
    const renamed = await json<RoomUploadFile>(await req('editor', 'PATCH', ROOM_PATHS.file(room.uuid, file.uuid), { name: 'final.txt' }), 200);
    expect(renamed.name).toBe('final.txt');
    const moved = await json<RoomUploadFile>(await req('editor', 'PATCH', ROOM_PATHS.file(room.uuid, file.uuid), { folderUuid: target.uuid }), 200);
    expect(moved.folderUuid).toBe(target.uuid);
    expect((await json<RoomContents>(await req('owner', 'GET', ROOM_PATHS.folder(room.uuid, target.uuid)), 200)).files.map((f) => f.name)).toEqual(['final.txt']);
    const away = await expectBackendError(await req('owner', 'PATCH', ROOM_PATHS.file(room.uuid, file.uuid), { roomUuid: other.uuid }), 400, 'ValidationException');
    expect(away).toMatchObject({ message: 'Moving content into another data room is not supported', metadata: { reason: 'moveToOtherRoom' } });
    // Into a folder of the other room: that folder does not exist in this room.
    const foreign = await json<RoomFolder>(await req('owner', 'POST', ROOM_PATHS.folders(other.uuid), { name: 'Foreign' }), 201);
    await expectBackendError(await req('owner', 'PATCH', ROOM_PATHS.file(room.uuid, file.uuid), { folderUuid: foreign.uuid }), 404, 'NotFoundException');
    await upload('owner', room, 'clash.txt', 5, target.uuid);
    expect((await expectBackendError(await req('owner', 'PATCH', ROOM_PATHS.file(room.uuid, file.uuid), { name: 'Clash.TXT' }), 409)).metadata).toMatchObject({ reason: 'nameExists' });
    await json(await req('editor', 'DELETE', ROOM_PATHS.file(room.uuid, file.uuid)), 204);
    expect((await json<RoomContents>(await req('owner', 'GET', ROOM_PATHS.folder(room.uuid, target.uuid)), 200)).files.map((f) => f.name)).toEqual(['clash.txt']);
    await expectBackendError(await download('owner', room.uuid, file.uuid), 404, 'NotFoundException');
    await expectBackendError(await req('owner', 'GET', ROOM_PATHS.file(room.uuid, file.uuid)), 404, 'NotFoundException');
    // The name is free again; the bytes stay in the store (the trash keeps them).
    await upload('owner', room, 'final.txt', 3, target.uuid);
    expect(await server.app.blobs.exists(`rooms/${room.uuid}/${file.uuid}/0`)).toBe(true);
    expect(bytes.length).toBe(50);
    // A file below a deleted folder is gone with it.
    const inner = await upload('owner', room, 'inner.txt', 4, target.uuid);
    await json(await req('owner', 'DELETE', ROOM_PATHS.folder(room.uuid, target.uuid)), 204);
    await expectBackendError(await download('owner', room.uuid, inner.file.uuid), 404, 'NotFoundException');
  });

  it('q search finds folders and files by name in the room, with their path, not the deleted ones', async () => {
    const room = await newRoom('Search room');
    const a = await newFolder(room, 'Contracts 2026');
    const b = await newFolder(room, 'Old', a.uuid);
    await upload('owner', room, 'contract-signed.pdf', 8, b.uuid);
    await upload('owner', room, 'notes.txt', 8);
    const gone = await upload('owner', room, 'contract-draft.pdf', 8);
    await json(await req('owner', 'DELETE', ROOM_PATHS.file(room.uuid, gone.file.uuid)), 204);
    const found = await json<RoomSearchResult>(await req('previewer', 'GET', `${ROOM_PATHS.search(room.uuid)}?q=CONTRACT`), 200);
    expect(found.folders.map((f) => [f.name, f.createdBy, f.path])).toEqual([['Contracts 2026', email('owner'), []]]);
    expect(found.files.map((f) => [f.name, f.role, f.path.map((p) => p.name)])).toEqual([['contract-signed.pdf', 'PREVIEWER', ['Contracts 2026', 'Old']]]);
    expect((await json<RoomSearchResult>(await req('owner', 'GET', `${ROOM_PATHS.search(room.uuid)}?q=%25`), 200)).files).toEqual([]);
    await expectDenied(await req('outsider', 'GET', `${ROOM_PATHS.search(room.uuid)}?q=contract`), 404, 'contract');
    await expectBackendError(await req('owner', 'GET', ROOM_PATHS.search(room.uuid)), 400, 'ValidationException');
  });
});

describe('role matrix (SPEC §6) over the file routes', () => {
  const EVERYONE: Actor[] = ['owner', 'editor', 'viewer', 'previewer'];
  const WRITERS: Actor[] = ['owner', 'editor'];
  const DOWNLOADERS: Actor[] = ['owner', 'editor', 'viewer'];

  it('announce + parts + commit: OWNER and EDITOR; VIEWER and PREVIEWER 403, outsider 404, anonymous 401', async () => {
    const room = await newRoom('Matrix upload');
    for (const [actor, status] of Object.entries(expected(WRITERS, 201)) as Array<[Actor, number]>) {
      if (status === 201) {
        const { file } = await upload(actor, room, `by-${actor}.bin`, PART_SIZE + 1);
        expect(file.state).toBe('complete');
      } else {
        await expectDenied(await req(actor, 'POST', ROOM_PATHS.files(room.uuid), { name: 'sneaky.bin', size: 4 }), status, 'Matrix upload');
      }
    }
    // Someone else's upload in progress: not even the room's OWNER reaches its parts.
    const pending = await json<RoomUploadFile>(await req('editor', 'POST', ROOM_PATHS.files(room.uuid), { name: 'pending.bin', size: 4 }), 201);
    for (const actor of ['owner', 'viewer', 'previewer', 'outsider'] as const) {
      await expectBackendError(await putPart(actor, room.uuid, pending.uuid, 0, new Uint8Array(4)), 404, 'NotFoundException');
      await expectBackendError(await req(actor, 'POST', ROOM_PATHS.fileCommit(room.uuid, pending.uuid)), 404, 'NotFoundException');
      await expectBackendError(await req(actor, 'GET', ROOM_PATHS.fileParts(room.uuid, pending.uuid)), 404, 'NotFoundException');
    }
    await expectBackendError(await putPart('anonymous', room.uuid, pending.uuid, 0, new Uint8Array(4)), 401, 'AuthenticationRequiredException');
    // A complete file's parts: the others without the upload right are refused as such.
    const done = (await json<RoomContents>(await req('owner', 'GET', ROOM_PATHS.room(room.uuid)), 200)).files[0]!;
    for (const actor of ['viewer', 'previewer'] as const) await expectDenied(await putPart(actor, room.uuid, done.uuid, 0, new Uint8Array(4)), 403, done.name);
    await expectBackendError(await putPart('editor', room.uuid, done.uuid, 0, new Uint8Array(4)), 409, 'ConflictException');
    // An uploader who lost the upload right cannot go on.
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('editor'), role: 'VIEWER' }), 200);
    await expectDenied(await putPart('editor', room.uuid, pending.uuid, 0, new Uint8Array(4)), 403, 'pending.bin');
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('editor'), role: 'EDITOR' }), 200);
  });

  it('details: every member; download: OWNER, EDITOR, VIEWER — a PREVIEWER never gets the bytes', async () => {
    const room = await newRoom('Matrix download');
    const { file, bytes } = await upload('owner', room, 'secret-plan.pdf', 100);
    for (const [actor, status] of Object.entries(expected(EVERYONE, 200)) as Array<[Actor, number]>) {
      const details = await req(actor, 'GET', ROOM_PATHS.file(room.uuid, file.uuid));
      if (status === 200) expect((await json<RoomUploadFile>(details, 200)).name).toBe('secret-plan.pdf');
      else await expectDenied(details, status, 'secret-plan');
    }
    for (const [actor, status] of Object.entries(expected(DOWNLOADERS, 200)) as Array<[Actor, number]>) {
      for (const range of [undefined, 'bytes=0-9']) {
        const got = await download(actor, room.uuid, file.uuid, range);
        if (status === 200) {
          expect(got.status).toBe(range ? 206 : 200);
          expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(range ? bytes.subarray(0, 10) : bytes))).toBe(true);
        } else {
          expect(got.headers.get('content-disposition')).toBeNull();
          await expectDenied(got, status, 'secret-plan');
        }
      }
    }
  });

  it('rename, move and delete: OWNER and EDITOR; the others are refused and the file is unchanged', async () => {
    const room = await newRoom('Matrix edit');
    const folder = await newFolder(room, 'Dest');
    for (const actor of ['viewer', 'previewer', 'outsider', 'anonymous'] as const) {
      const { file } = await upload('owner', room, `victim-${actor}.txt`, 5);
      const status = expected(WRITERS, 0)[actor];
      await expectDenied(await req(actor, 'PATCH', ROOM_PATHS.file(room.uuid, file.uuid), { name: 'mine.txt' }), status, 'victim');
      await expectDenied(await req(actor, 'PATCH', ROOM_PATHS.file(room.uuid, file.uuid), { folderUuid: folder.uuid }), status, 'victim');
      await expectDenied(await req(actor, 'DELETE', ROOM_PATHS.file(room.uuid, file.uuid)), status, 'victim');
      expect(await json<RoomUploadFile>(await req('owner', 'GET', ROOM_PATHS.file(room.uuid, file.uuid)), 200)).toMatchObject({ name: `victim-${actor}.txt`, folderUuid: null });
    }
    for (const actor of WRITERS) {
      const { file } = await upload('owner', room, `own-${actor}.txt`, 5);
      await json(await req(actor, 'PATCH', ROOM_PATHS.file(room.uuid, file.uuid), { name: `renamed-${actor}.txt`, folderUuid: folder.uuid }), 200);
      await json(await req(actor, 'DELETE', ROOM_PATHS.file(room.uuid, file.uuid)), 204);
    }
  });

  it('per-folder override: a room VIEWER who is EDITOR on a folder uploads there only; a room EDITOR made PREVIEWER on a folder cannot download there', async () => {
    const room = await newRoom('Matrix override');
    const open = await newFolder(room, 'Open');
    const locked = await newFolder(room, 'Locked');
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('viewer'), role: 'EDITOR', folderUuid: open.uuid }), 200);
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('editor'), role: 'PREVIEWER', folderUuid: locked.uuid }), 200);
    await upload('viewer', room, 'ok.txt', 3, open.uuid);
    await expectDenied(await req('viewer', 'POST', ROOM_PATHS.files(room.uuid), { name: 'no.txt', size: 3 }), 403, 'Matrix override');
    const { file } = await upload('owner', room, 'locked.txt', 3, locked.uuid);
    await expectDenied(await download('editor', room.uuid, file.uuid), 403, 'locked.txt');
    // Moving a file into a folder needs the upload right there.
    const top = await upload('editor', room, 'top.txt', 3);
    await expectDenied(await req('editor', 'PATCH', ROOM_PATHS.file(room.uuid, top.file.uuid), { folderUuid: locked.uuid }), 403, 'top.txt');
  });

  it('activity: OWNERs only (others 403/404/401); upload, download, edit and delete recorded, newest first, cursor paging', async () => {
    const room = await newRoom('Activity room');
    const folder = await newFolder(room, 'Docs');
    const { file } = await upload('editor', room, 'a.txt', 5, folder.uuid);
    await (await download('viewer', room.uuid, file.uuid)).arrayBuffer();
    // The download is logged once its last byte went out, which can be after the client has it: wait
    // for the row, else (a busy machine, PostgreSQL) the rename below may be logged first.
    await expect
      .poll(async () => (await json<RoomActivityList>(await req('owner', 'GET', `${ROOM_PATHS.activity(room.uuid)}?fileUuid=${file.uuid}`), 200)).entries.map((e) => e.kind))
      .toContain('download');
    // A Range that stops short is no download.
    await (await download('viewer', room.uuid, file.uuid, 'bytes=0-1')).arrayBuffer();
    await json(await req('editor', 'PATCH', ROOM_PATHS.file(room.uuid, file.uuid), { name: 'b.txt' }), 200);
    await json(await req('owner', 'PATCH', ROOM_PATHS.file(room.uuid, file.uuid), { folderUuid: null }), 200);
    await json(await req('editor', 'DELETE', ROOM_PATHS.file(room.uuid, file.uuid)), 204);
    for (const [actor, status] of Object.entries(expected(['owner'], 200)) as Array<[Actor, number]>) {
      const response = await req(actor, 'GET', ROOM_PATHS.activity(room.uuid));
      if (status !== 200) await expectDenied(response, status, 'a.txt');
      else await response.text();
    }
    const list = await json<RoomActivityList>(await req('owner', 'GET', ROOM_PATHS.activity(room.uuid)), 200);
    expect(list.entries.map((e) => [e.kind, e.actor, e.item.type, e.item.name, e.detail])).toEqual([
      ['delete', email('editor'), 'file', 'b.txt', null],
      ['edit', email('owner'), 'file', 'b.txt', 'moved:Activity room'], // moved to the room's top level (issue 32 §1: the target named)
      ['edit', email('editor'), 'file', 'b.txt', 'a.txt'],
      ['download', email('viewer'), 'file', 'a.txt', null],
      ['upload', email('editor'), 'file', 'a.txt', null],
      // newRoom's sharing: access changes are logged on the room too.
      ['access_changed', email('owner'), 'room', 'Activity room', `${email('previewer')}: PREVIEWER`],
      ['access_changed', email('owner'), 'room', 'Activity room', `${email('viewer')}: VIEWER`],
      ['access_changed', email('owner'), 'room', 'Activity room', `${email('editor')}: EDITOR`],
    ]);
    const pages: RoomActivityList[] = [await json<RoomActivityList>(await req('owner', 'GET', `${ROOM_PATHS.activity(room.uuid)}?pageSize=2`), 200)];
    while (pages.at(-1)!.nextCursor) {
      pages.push(await json<RoomActivityList>(await req('owner', 'GET', `${ROOM_PATHS.activity(room.uuid)}?pageSize=2&cursor=${pages.at(-1)!.nextCursor}`), 200));
    }
    expect(pages.flatMap((p) => p.entries)).toEqual(list.entries);
    expect(pages).toHaveLength(4);
    // The folder's log: what happened while the file was in it.
    const inFolder = await json<RoomActivityList>(await req('owner', 'GET', `${ROOM_PATHS.activity(room.uuid)}?folderUuid=${folder.uuid}`), 200);
    expect(inFolder.entries.map((e) => e.kind)).toEqual(['edit', 'download', 'upload']);
    await expectDenied(await req('editor', 'GET', `${ROOM_PATHS.activity(room.uuid)}?folderUuid=${folder.uuid}`), 403, 'a.txt');
    await expectBackendError(await req('owner', 'GET', `${ROOM_PATHS.activity(room.uuid)}?cursor=bad!`), 400, 'ValidationException');
    // Folders and the room are logged too.
    await json(await req('editor', 'PATCH', ROOM_PATHS.folder(room.uuid, folder.uuid), { name: 'Docs 2' }), 200);
    await json(await req('owner', 'PATCH', ROOM_PATHS.room(room.uuid), { name: 'Activity room 2' }), 200);
    const latest = await json<RoomActivityList>(await req('owner', 'GET', `${ROOM_PATHS.activity(room.uuid)}?pageSize=2`), 200);
    expect(latest.entries.map((e) => [e.kind, e.item, e.detail])).toEqual([
      ['edit', { type: 'room', uuid: room.uuid, name: 'Activity room 2' }, 'Activity room'],
      ['edit', { type: 'folder', uuid: folder.uuid, name: 'Docs 2' }, 'Docs'],
    ]);
    // In the trash: no longer a live file.
    await expectBackendError(await req('owner', 'GET', `${ROOM_PATHS.activity(room.uuid)}?fileUuid=${file.uuid}`), 404, 'NotFoundException');
  });
});

describe('trash (OWNER and EDITOR: who may delete may undo it, issue 32 §1)', () => {
  const ROOM_WRITERS: Actor[] = ['owner', 'editor'];

  it('lists deleted folders and files, restores them bit-exact to where they were, purges for good with the bytes', async () => {
    const room = await newRoom('Trash room');
    const folder = await newFolder(room, 'Box');
    const kept = await upload('owner', room, 'kept.bin', 2 * PART_SIZE + 3, folder.uuid);
    const loose = await upload('editor', room, 'loose.bin', 10);
    await json(await req('editor', 'DELETE', ROOM_PATHS.file(room.uuid, loose.file.uuid)), 204);
    await json(await req('editor', 'DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid)), 204);
    for (const [actor, status] of Object.entries(expected(ROOM_WRITERS, 200)) as Array<[Actor, number]>) {
      const response = await req(actor, 'GET', ROOM_PATHS.trash(room.uuid));
      if (status !== 200) {
        await expectDenied(response, status, 'loose.bin');
        await expectDenied(await req(actor, 'POST', ROOM_PATHS.trashRestore(room.uuid, folder.uuid)), status, 'Box');
        await expectDenied(await req(actor, 'DELETE', ROOM_PATHS.trashItem(room.uuid, folder.uuid)), status, 'Box');
        continue;
      }
      const trash = await json<RoomTrashList>(response, 200);
      expect(trash.entries.map((e) => [e.type, e.name, e.deletedBy])).toEqual([['folder', 'Box', email('editor')], ['file', 'loose.bin', email('editor')]]);
    }
    // A name taken meanwhile blocks the restore.
    const clash = await upload('owner', room, 'loose.bin', 4);
    expect((await expectBackendError(await req('owner', 'POST', ROOM_PATHS.trashRestore(room.uuid, loose.file.uuid)), 409)).metadata).toMatchObject({ reason: 'nameExists' });
    await json(await req('owner', 'DELETE', ROOM_PATHS.file(room.uuid, clash.file.uuid)), 204);
    await json(await req('owner', 'POST', ROOM_PATHS.trashRestore(room.uuid, folder.uuid)), 204);
    const back = await download('viewer', room.uuid, kept.file.uuid);
    expect(Buffer.from(await back.arrayBuffer()).equals(Buffer.from(kept.bytes))).toBe(true);
    expect((await json<RoomContents>(await req('viewer', 'GET', ROOM_PATHS.folder(room.uuid, folder.uuid)), 200)).files.map((f) => f.name)).toEqual(['kept.bin']);
    await json(await req('owner', 'POST', ROOM_PATHS.trashRestore(room.uuid, loose.file.uuid)), 204);
    expect((await json<RoomContents>(await req('viewer', 'GET', ROOM_PATHS.room(room.uuid)), 200)).files.map((f) => f.name)).toEqual(['loose.bin']);
    const log = await json<RoomActivityList>(await req('owner', 'GET', ROOM_PATHS.activity(room.uuid)), 200);
    const restored = log.entries.filter((e) => e.kind === 'item_restored');
    expect(restored.map((e) => [e.item.type, e.item.name])).toEqual([['file', 'loose.bin'], ['folder', 'Box']]);
    // Not in the trash any more.
    await expectBackendError(await req('owner', 'POST', ROOM_PATHS.trashRestore(room.uuid, folder.uuid)), 404, 'NotFoundException');

    // A file inside a trashed folder waits for its folder.
    const inner = await upload('owner', room, 'inner.bin', 5, folder.uuid);
    await json(await req('owner', 'DELETE', ROOM_PATHS.file(room.uuid, inner.file.uuid)), 204);
    await json(await req('owner', 'DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid)), 204);
    expect((await expectBackendError(await req('owner', 'POST', ROOM_PATHS.trashRestore(room.uuid, inner.file.uuid)), 409)).metadata).toMatchObject({ reason: 'parentInTrash' });

    // The storage report's running total (server/reports/storage-totals.ts) follows commits and
    // purges: it equals the sum over the committed room files, trashed ones included.
    const roomStorage = async () => {
      const total = await server.app.db.selectFrom('storage_totals').select(['files', 'bytes']).where('area', '=', 'dataRooms').executeTakeFirstOrThrow();
      const sum = await server.app.db.selectFrom('room_files').select((eb) => [eb.fn.countAll().as('files'), eb.fn.sum('size').as('bytes')]).where('state', '=', 'complete').executeTakeFirstOrThrow();
      return { total: { files: Number(total.files), bytes: Number(total.bytes) }, sum: { files: Number(sum.files), bytes: Number(sum.bytes ?? 0) } };
    };
    const beforePurge = await roomStorage();
    expect(beforePurge.total).toEqual(beforePurge.sum);
    expect(beforePurge.total.files).toBeGreaterThan(0);
    // Purge: rows and bytes gone, for the folder with everything below it.
    expect(await server.app.blobs.exists(`rooms/${room.uuid}/${kept.file.uuid}/0`)).toBe(true);
    await json(await req('owner', 'DELETE', ROOM_PATHS.trashItem(room.uuid, folder.uuid)), 204);
    for (const f of [kept.file, inner.file]) expect(await server.app.blobs.exists(`rooms/${room.uuid}/${f.uuid}/0`)).toBe(false);
    expect((await json<RoomTrashList>(await req('owner', 'GET', ROOM_PATHS.trash(room.uuid)), 200)).entries.map((e) => e.name)).toEqual(['loose.bin']);
    await expectBackendError(await req('owner', 'POST', ROOM_PATHS.trashRestore(room.uuid, inner.file.uuid)), 404, 'NotFoundException');
    const afterPurge = await roomStorage();
    expect(afterPurge.total).toEqual(afterPurge.sum);
    expect(afterPurge.total).toEqual({ files: beforePurge.total.files - 2, bytes: beforePurge.total.bytes - kept.bytes.length - inner.bytes.length });
    // The log keeps what happened to purged items.
    const after = await json<RoomActivityList>(await req('owner', 'GET', `${ROOM_PATHS.activity(room.uuid)}?pageSize=3`), 200);
    expect(after.entries.map((e) => [e.kind, e.item.type, e.item.name])).toEqual([['delete', 'folder', 'Box'], ['delete', 'file', 'inner.bin'], ['upload', 'file', 'inner.bin']]);
  });
});
