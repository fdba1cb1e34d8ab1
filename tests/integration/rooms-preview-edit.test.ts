import { randomBytes } from 'node:crypto';
import { ROOM_OPS_PATHS, type RoomFileVersionList } from '@shared/contract/room-ops';
import { contentEtag, ROOM_PREVIEW_PATHS, SAVE_CONFLICT_REASON } from '@shared/contract/room-preview';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room } from '@shared/contract/rooms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBackendError, signInAdmin } from './core-helpers';
import { e2eActorsWithSecuPass, type E2eActor } from './e2e-helpers';
import { announceRoomFile, roomGet, uploadRoomFile } from './room-upload-helpers';
import { createE2eRoom, grant, json, openRoomKey, readE2eFolder, req, sha256Hex, uploadE2eFile } from './rooms-e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Preview kinds and editing with save conflicts (issue 31 §3; shared/contract/room-preview.ts) on the
 * real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL): the preview's types and Range
 * (206, the bytes asked for), its ETag; an editor's save (the replace upload's commit with If-Match)
 * in plain and Secure rooms — two saves from the same version race and exactly one wins, the other
 * gets 412 saveConflict and changes nothing; the Secure room's ciphertext preview for every role,
 * PREVIEWER too, and the SPEC §6 denials.
 */

const PART_SIZE = 1024;
const who = ['owner', 'editor', 'viewer', 'previewer', 'outsider'] as const;
let server: TestServer;
let a: Record<(typeof who)[number], E2eActor>;
const email = (name: string) => `${name}@rooms-preview-edit.test`;

/** An MP4 file's first box (`ftyp`, brand isom: file-type names it video/mp4), then filler. */
const mp4 = () => new Uint8Array(Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), randomBytes(5000)]));

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  a = await e2eActorsWithSecuPass(server, await signInAdmin(server), who, email, (name) => `${name}-SecuPass-preview-edit-Birch-3`);
}, 240_000);
afterAll(() => server?.close());

async function plainRoom(name: string): Promise<Room> {
  const room = await json<Room>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name }), 201);
  for (const [name, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(name), role }), 200);
  }
  return room;
}

async function secureRoom(title: string): Promise<Room> {
  const { room } = await createE2eRoom(server, a.owner, title);
  for (const [name, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(name), role }), 200);
    await json(await grant(server, a.owner, room.uuid, a[name].userUuid), 200);
  }
  return room;
}

const upload = (actor: E2eActor, room: Room, name: string, bytes: Uint8Array, mimeType = 'application/octet-stream') =>
  uploadRoomFile(server, actor.session, room.uuid, { name, bytes, partSize: PART_SIZE, mimeType });
const text = (s: string) => new Uint8Array(Buffer.from(s));

describe('preview kinds (plain rooms)', () => {
  it('serves each text kind as UTF-8 of that kind (by the name when no type was declared), media by the bytes, with the content’s ETag', async () => {
    const room = await plainRoom('Kinds room');
    const cases = [
      ['notes.md', '# Title\n\nSome *text*', 'text/markdown; charset=utf-8'],
      ['table.csv', 'a,b\n1,2\n', 'text/csv; charset=utf-8'],
      ['data.json', '{"a":[1,2]}', 'application/json; charset=utf-8'],
      ['plain.txt', 'Grüße', 'text/plain; charset=utf-8'],
    ] as const;
    for (const [name, content, type] of cases) {
      const file = await upload(a.owner, room, name, text(content));
      const shown = await roomGet(server, a.previewer.session, ROOM_OPS_PATHS.preview(room.uuid, file.uuid));
      expect(shown.status, name).toBe(200);
      expect(shown.headers.get('content-type'), name).toBe(type);
      expect(shown.headers.get('etag'), name).toBe(contentEtag(file.sha256!));
      expect(await shown.text()).toBe(content);
    }
    const video = await upload(a.owner, room, 'clip.mp4', mp4());
    const shown = await roomGet(server, a.viewer.session, ROOM_OPS_PATHS.preview(room.uuid, video.uuid));
    expect(shown.headers.get('content-type')).toBe('video/mp4');
    expect(shown.headers.get('accept-ranges')).toBe('bytes');
    // A declared text type on binary bytes is not shown as text, nor a .md name on them.
    const binary = await upload(a.owner, room, 'fake.md', new Uint8Array(Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(200)])));
    expect((await roomGet(server, a.owner.session, ROOM_OPS_PATHS.preview(room.uuid, binary.uuid))).headers.get('content-type')).toBe('application/pdf');
    const office = await upload(a.owner, room, 'report.docx', new Uint8Array(testFileBytes(300)), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const refused = await expectBackendError(await roomGet(server, a.owner.session, ROOM_OPS_PATHS.preview(room.uuid, office.uuid)), 415, 'UnsupportedMediaTypeException');
    expect(refused.metadata).toMatchObject({ reason: 'previewNotSupported' });
  });

  it('answers a Range of a video with 206 and exactly those bytes (the player seeks); an unsatisfiable one 416', async () => {
    const room = await plainRoom('Range room');
    const bytes = mp4();
    const video = await upload(a.owner, room, 'seek.mp4', bytes);
    const part = await roomGet(server, a.previewer.session, ROOM_OPS_PATHS.preview(room.uuid, video.uuid), 'bytes=1500-2599');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1500-2599/${bytes.length}`);
    expect(part.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(bytes.subarray(1500, 2600)))).toBe(true);
    const tail = await roomGet(server, a.previewer.session, ROOM_OPS_PATHS.preview(room.uuid, video.uuid), 'bytes=-10');
    expect(Buffer.from(await tail.arrayBuffer()).equals(Buffer.from(bytes.subarray(bytes.length - 10)))).toBe(true);
    await expectBackendError(await roomGet(server, a.previewer.session, ROOM_OPS_PATHS.preview(room.uuid, video.uuid), `bytes=${bytes.length + 5}-`), 416, 'ValidationException');
    // A PREVIEWER previews and never downloads.
    await expectBackendError(await roomGet(server, a.previewer.session, ROOM_PATHS.fileContent(room.uuid, video.uuid)), 403, 'AccessDeniedException');
  });
});

describe('saving an edit (plain rooms)', () => {
  it('two saves from the same version race: exactly one wins, the other gets 412 saveConflict and changes nothing', async () => {
    const room = await plainRoom('Save race room');
    const original = await upload(a.owner, room, 'minutes.md', text('# Minutes\n'));
    const loaded = (await roomGet(server, a.editor.session, ROOM_OPS_PATHS.preview(room.uuid, original.uuid))).headers.get('etag')!;
    const mine = await announceRoomFile(server, a.owner.session, room.uuid, { name: 'minutes.md', bytes: text('# Minutes\nowner'), partSize: PART_SIZE, replace: true });
    const theirs = await announceRoomFile(server, a.editor.session, room.uuid, { name: 'minutes.md', bytes: text('# Minutes\neditor'), partSize: PART_SIZE, replace: true });
    const answers = await Promise.all([mine(loaded), theirs(loaded)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 412]);
    const lost = answers.find((r) => r.status === 412)!;
    const won = (await answers.find((r) => r.status === 200)!.json()) as RoomUploadFile;
    const error = await expectBackendError(lost, 412, 'ConflictException');
    expect(error.metadata).toEqual({ reason: SAVE_CONFLICT_REASON, etag: contentEtag(won.sha256!) });
    expect(won.uuid).toBe(original.uuid);
    // One new version: the original is version 1, the winner's content current.
    const versions = await json<RoomFileVersionList>(await req(server, a.owner, 'GET', ROOM_OPS_PATHS.versions(room.uuid, original.uuid)), 200);
    expect(versions.versions.map((v) => [v.version, v.sha256])).toEqual([
      [2, won.sha256],
      [1, original.sha256],
    ]);
    const now = await roomGet(server, a.owner.session, ROOM_OPS_PATHS.preview(room.uuid, original.uuid));
    expect(now.headers.get('etag')).toBe(contentEtag(won.sha256!));
    // The loser loads the new version and saves again from it: accepted.
    const again = await announceRoomFile(server, a.editor.session, room.uuid, { name: 'minutes.md', bytes: text('# Minutes\neditor again'), partSize: PART_SIZE, replace: true });
    expect((await again(now.headers.get('etag')!)).status).toBe(200);
  });

  it('an If-Match naming no version of the file (garbage, a deleted file) is 412; `*` and none save as before', async () => {
    const room = await plainRoom('Precondition room');
    const file = await upload(a.owner, room, 'a.txt', text('one'));
    const stale = await announceRoomFile(server, a.owner.session, room.uuid, { name: 'a.txt', bytes: text('two'), partSize: PART_SIZE, replace: true });
    expect((await expectBackendError(await stale('"not-a-version"'), 412, 'ConflictException')).metadata).toMatchObject({ reason: SAVE_CONFLICT_REASON, etag: contentEtag(file.sha256!) });
    // Nothing changed: the content and its ETag are the original's.
    const shown = await roomGet(server, a.owner.session, ROOM_OPS_PATHS.preview(room.uuid, file.uuid));
    expect(await shown.text()).toBe('one');
    expect((await stale('*')).status).toBe(200);
    const plain = await announceRoomFile(server, a.owner.session, room.uuid, { name: 'a.txt', bytes: text('three'), partSize: PART_SIZE, replace: true });
    expect((await plain()).status).toBe(200);
    // A save whose file went to the trash meanwhile: 412 with no current ETag.
    const orphan = await announceRoomFile(server, a.owner.session, room.uuid, { name: 'a.txt', bytes: text('four'), partSize: PART_SIZE, replace: true });
    await json(await req(server, a.owner, 'DELETE', ROOM_PATHS.file(room.uuid, file.uuid)), 204);
    expect((await expectBackendError(await orphan(shown.headers.get('etag')!), 412, 'ConflictException')).metadata).toMatchObject({ etag: null });
    // A new file (no replace) with If-Match has no version to match: 412.
    const fresh = await announceRoomFile(server, a.owner.session, room.uuid, { name: 'b.txt', bytes: text('b'), partSize: PART_SIZE });
    await expectBackendError(await fresh(contentEtag(file.sha256!)), 412, 'ConflictException');
  });

  it('who may save: VIEWER and PREVIEWER cannot announce a new version (403), a non-member 404, anonymous 401', async () => {
    const room = await plainRoom('Save roles room');
    await upload(a.owner, room, 'r.txt', text('r'));
    const body = { name: 'r.txt', size: 1, replace: true };
    for (const actor of [a.viewer, a.previewer]) await expectBackendError(await req(server, actor, 'POST', ROOM_PATHS.files(room.uuid), body), 403, 'AccessDeniedException');
    await expectBackendError(await req(server, a.outsider, 'POST', ROOM_PATHS.files(room.uuid), body), 404, 'NotFoundException');
    const anonymous = await fetch(`${server.url}/api/2${ROOM_PATHS.files(room.uuid)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await expectBackendError(anonymous, 401);
  });
});

describe('Secure rooms: the ciphertext preview and saving with If-Match', () => {
  it('serves the ciphertext to every role, PREVIEWER too (Range 206), which decrypts to the file; refuses non-members, anonymous and plain rooms', async () => {
    const room = await secureRoom('Secure preview room');
    const key = (await openRoomKey(server, a.owner, room.uuid)).handle;
    const bytes = new Uint8Array(randomBytes(3 * PART_SIZE + 7));
    const { file } = await uploadE2eFile(server, a.owner, room.uuid, key, { name: 'clip.bin', bytes, partSize: PART_SIZE });
    const path = ROOM_PREVIEW_PATHS.e2e(room.uuid, file!.uuid);
    let whole: Buffer | undefined;
    for (const actor of [a.owner, a.editor, a.viewer, a.previewer]) {
      const shown = await roomGet(server, actor.session, path);
      expect(shown.status).toBe(200);
      expect(shown.headers.get('etag')).toBe(contentEtag(file!.sha256!));
      expect(shown.headers.get('content-type')).toBe('application/octet-stream');
      whole = Buffer.from(await shown.arrayBuffer());
      expect(sha256Hex(whole)).toBe(file!.sha256);
    }
    const part = await roomGet(server, a.previewer.session, path, 'bytes=100-199');
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole!.subarray(100, 200))).toBe(true);
    // What the preview served is what the folder's reader decrypts to the file.
    expect(sha256Hex((await readE2eFolder(server, a.viewer, room.uuid)).files.get('clip.bin')!.bytes)).toBe(sha256Hex(bytes));
    // The download stays refused to a PREVIEWER.
    await expectBackendError(await roomGet(server, a.previewer.session, ROOM_PATHS.fileContent(room.uuid, file!.uuid)), 403, 'AccessDeniedException');
    await expectBackendError(await roomGet(server, a.outsider.session, path), 404, 'NotFoundException');
    await expectBackendError(await fetch(`${server.url}/api/2${path}`), 401);
    const plain = await plainRoom('Plain, not Secure');
    const plainFile = await upload(a.owner, plain, 'p.txt', text('p'));
    const refused = await expectBackendError(await roomGet(server, a.owner.session, ROOM_PREVIEW_PATHS.e2e(plain.uuid, plainFile.uuid)), 409, 'ConflictException');
    expect(refused.metadata).toMatchObject({ reason: 'notEncrypted' });
  });

  it('two saves of the same version race on the encrypted content: exactly one wins, the other 412 saveConflict', async () => {
    const room = await secureRoom('Secure save room');
    const ownerKey = (await openRoomKey(server, a.owner, room.uuid)).handle;
    const editorKey = (await openRoomKey(server, a.editor, room.uuid)).handle;
    const { file } = await uploadE2eFile(server, a.owner, room.uuid, ownerKey, { name: 'notes.md', bytes: text('# v1'), partSize: PART_SIZE });
    const loaded = (await roomGet(server, a.editor.session, ROOM_PREVIEW_PATHS.e2e(room.uuid, file!.uuid))).headers.get('etag')!;
    const replace = { uuid: file!.uuid, version: 2 };
    const mine = await uploadE2eFile(server, a.owner, room.uuid, ownerKey, { name: 'notes.md', bytes: text('# v2 owner'), partSize: PART_SIZE, replace, deferCommit: true, metadataAtCommit: true });
    const theirs = await uploadE2eFile(server, a.editor, room.uuid, editorKey, { name: 'notes.md', bytes: text('# v2 editor'), partSize: PART_SIZE, replace, deferCommit: true });
    const answers = await Promise.all([mine.commit!(loaded), theirs.commit!(loaded)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 412]);
    const won = (await answers.find((r) => r.status === 200)!.json()) as RoomUploadFile;
    expect((await expectBackendError(answers.find((r) => r.status === 412)!, 412, 'ConflictException')).metadata).toEqual({ reason: SAVE_CONFLICT_REASON, etag: contentEtag(won.sha256!) });
    // The reader sees the winner's content, verified, as version 2.
    const read = (await readE2eFolder(server, a.viewer, room.uuid)).files.get('notes.md')!;
    expect(read.metadata.version).toBe(2);
    expect(['# v2 owner', '# v2 editor']).toContain(Buffer.from(read.bytes).toString());
  });
});
