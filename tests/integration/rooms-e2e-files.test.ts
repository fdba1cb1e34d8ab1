import { randomBytes } from 'node:crypto';
import { ROOM_PATHS, type Room } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS } from '@shared/contract/rooms-e2e';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eFolder, createE2eRoom, grant, json, openRoomKey, readE2eFolder, renameE2eFileBody, req, sha256Hex, uploadE2eFile } from './rooms-e2e-helpers';

/**
 * File operations of end-to-end encrypted rooms on the real server (SQLite, or PostgreSQL with
 * KUVERT_TEST_DATABASE_URL) with the real crypto (CryptoService, the code of the browser Worker):
 * the E2E commit that brings the signed metadata after the single read, rename of a file (sealed
 * name and metadata re-signed by the renamer) and new versions.
 */

const PART_SIZE = 1024;
let server: TestServer;
let admin: Session;
const who = ['owner', 'editor', 'viewer', 'nokey'] as const;
const a = {} as Record<(typeof who)[number], E2eActor>;
const email = (name: string) => `${name}@rooms-e2e-files.test`;

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  admin = await signInAdmin(server);
  for (const name of who) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    a[name] = await e2eActor(server, await signIn(server, email(name), 'Good-Passw0rd'));
  }
  for (const name of ['owner', 'editor', 'viewer'] as const) await giveSecuPass(a[name], `${name}-SecuPass-rooms-e2e-files-Cobalt-9`);
}, 240_000);
afterAll(() => server?.close());

async function sharedRoom(title: string): Promise<Room> {
  const { room } = await createE2eRoom(server, a.owner, title);
  for (const [name, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['nokey', 'EDITOR']] as const) {
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(name), role }), 200);
    if (name !== 'nokey') await json(await grant(server, a.owner, room.uuid, a[name].userUuid), 200);
  }
  return room;
}

describe('the E2E commit (metadata after the single read)', () => {
  it('an upload announced without metadata commits only through the E2E commit; readers verify it', async () => {
    const room = await sharedRoom('Commit room');
    const { handle } = await openRoomKey(server, a.owner, room.uuid);
    const bytes = new Uint8Array(randomBytes(3 * PART_SIZE + 10));
    const { uuid } = await uploadE2eFile(server, a.owner, room.uuid, handle, { name: 'half.bin', bytes, partSize: PART_SIZE, metadataAtCommit: true });
    const read = await readE2eFolder(server, a.editor, room.uuid);
    expect(sha256Hex(read.files.get('half.bin')!.bytes)).toBe(sha256Hex(bytes));
    expect(read.files.get('half.bin')!.metadata.uploaderEmail).toBe(email('owner'));
    // Committed: a repeated E2E commit answers the file and changes nothing.
    const again = await req(server, a.owner, 'POST', ROOM_E2E_PATHS.commit(room.uuid, uuid), { metadata: 'r1.' + 'A'.repeat(60) });
    expect(again.status).toBe(200);
    expect(sha256Hex((await readE2eFolder(server, a.viewer, room.uuid)).files.get('half.bin')!.bytes)).toBe(sha256Hex(bytes));
  });

  it('the plain commit of an E2E upload without metadata is refused; a VIEWER cannot commit', async () => {
    const room = await sharedRoom('Refused commit room');
    const { handle } = await openRoomKey(server, a.owner, room.uuid);
    const uuid = crypto.randomUUID();
    const [name] = (await a.owner.crypto.encryptRoomNames({ roomKey: handle, roomId: room.uuid, items: [{ kind: 'file', itemId: uuid, name: 'x.bin' }] })).sealed;
    const fileKey = await a.owner.crypto.generateFileKey();
    const { wrapped } = await a.owner.crypto.wrapRoomFileKey({ roomKey: handle, fileKey: fileKey.handle, file: { roomId: room.uuid, fileId: uuid, version: 1 } });
    await json(await req(server, a.owner, 'POST', ROOM_E2E_PATHS.files(room.uuid), { uuid, name, size: 100, plaintextSize: 10, wrappedFileKey: wrapped }), 201);
    await expectBackendError(await req(server, a.owner, 'POST', ROOM_PATHS.fileCommit(room.uuid, uuid)), 409, 'ConflictException');
    expect((await req(server, a.viewer, 'POST', ROOM_E2E_PATHS.commit(room.uuid, uuid), { metadata: 'r1.' + 'A'.repeat(60) })).status).toBe(404);
    // Bad input: 400 in the SPEC §8 shape, never 5xx.
    await expectBackendError(await req(server, a.owner, 'POST', ROOM_E2E_PATHS.commit(room.uuid, uuid), { metadata: 'plain text' }), 400, 'ValidationException');
  });
});

describe('renaming an E2E file', () => {
  it('content formats side by side: an old file (metadata format 1, whole-plaintext SHA-256) and a new one (format 2, content commitment) both verify and decrypt; a rename keeps the old format', async () => {
    const room = await sharedRoom('Formats room');
    const { handle } = await openRoomKey(server, a.owner, room.uuid);
    const oldBytes = new Uint8Array(randomBytes(2 * PART_SIZE + 7));
    const newBytes = new Uint8Array(randomBytes(3 * PART_SIZE + 1));
    const old = await uploadE2eFile(server, a.owner, room.uuid, handle, { name: 'old.bin', bytes: oldBytes, partSize: PART_SIZE, legacyContentSha256: true });
    await uploadE2eFile(server, a.owner, room.uuid, handle, { name: 'new.bin', bytes: newBytes, partSize: PART_SIZE });
    const read = await readE2eFolder(server, a.viewer, room.uuid);
    expect(read.files.get('old.bin')!.metadata).toMatchObject({ format: 1, contentSha256: expect.any(String) });
    expect(read.files.get('old.bin')!.metadata.contentCommitment).toBeUndefined();
    expect(sha256Hex(read.files.get('old.bin')!.bytes)).toBe(sha256Hex(oldBytes));
    expect(read.files.get('new.bin')!.metadata).toMatchObject({ format: 2, contentCommitment: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(read.files.get('new.bin')!.metadata.contentSha256).toBeUndefined();
    expect(sha256Hex(read.files.get('new.bin')!.bytes)).toBe(sha256Hex(newBytes));
    const editorKey = (await openRoomKey(server, a.editor, room.uuid)).handle;
    expect((await req(server, a.editor, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, old.uuid), await renameE2eFileBody(server, a.editor, room.uuid, editorKey, old.uuid, 'old renamed.bin'))).status).toBe(204);
    const renamed = (await readE2eFolder(server, a.owner, room.uuid)).files.get('old renamed.bin')!;
    expect(renamed.metadata.format).toBe(1);
    expect(sha256Hex(renamed.bytes)).toBe(sha256Hex(oldBytes));
  });

  it('an EDITOR re-seals the name and re-signs the metadata; every reader verifies it against the renamer’s key', async () => {
    const room = await sharedRoom('Rename room');
    const { handle } = await openRoomKey(server, a.owner, room.uuid);
    const bytes = new Uint8Array(randomBytes(2 * PART_SIZE + 3));
    const { uuid } = await uploadE2eFile(server, a.owner, room.uuid, handle, { name: 'draft.txt', bytes, partSize: PART_SIZE, metadataAtCommit: true });
    const editorKey = (await openRoomKey(server, a.editor, room.uuid)).handle;
    const body = await renameE2eFileBody(server, a.editor, room.uuid, editorKey, uuid, 'final.txt');
    expect((await req(server, a.editor, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, uuid), body)).status).toBe(204);
    for (const reader of [a.owner, a.viewer, a.editor]) {
      const read = await readE2eFolder(server, reader, room.uuid);
      expect([...read.files.keys()]).toEqual(['final.txt']);
      const file = read.files.get('final.txt')!;
      expect(sha256Hex(file.bytes)).toBe(sha256Hex(bytes));
      // Who uploaded stays; the signature is the editor's.
      expect(file.metadata.uploaderEmail).toBe(email('owner'));
      expect(file.metadata.signerKeyId).toBe(a.editor.keys!.signing.keyId);
    }
    // The owner renames back: she is the uploader again as signer.
    const back = await renameE2eFileBody(server, a.owner, room.uuid, handle, uuid, 'draft v2.txt');
    expect((await req(server, a.owner, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, uuid), back)).status).toBe(204);
    const read = await readE2eFolder(server, a.viewer, room.uuid);
    expect(read.files.get('draft v2.txt')!.metadata.signerKeyId).toBe(a.owner.keys!.signing.keyId);
  });

  it('refused: a VIEWER (403), without metadata (400), a member without a signing key (409); a name the metadata does not sign is detected by readers', async () => {
    const room = await sharedRoom('Refused rename room');
    const { handle } = await openRoomKey(server, a.owner, room.uuid);
    const { uuid } = await uploadE2eFile(server, a.owner, room.uuid, handle, { name: 'plan.pdf', bytes: new Uint8Array(randomBytes(500)), partSize: PART_SIZE, metadataAtCommit: true });
    const body = await renameE2eFileBody(server, a.owner, room.uuid, handle, uuid, 'renamed.pdf');
    await expectBackendError(await req(server, a.viewer, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, uuid), body), 403);
    const missing = await expectBackendError(await req(server, a.editor, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, uuid), { name: body.name }), 400, 'ValidationException');
    expect(JSON.stringify(missing)).toContain('e2eMetadataRequired');
    const nokey = await expectBackendError(await req(server, a.nokey, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, uuid), body), 409, 'ConflictException');
    expect(JSON.stringify(nokey)).toContain('noSigningKey');
    expect((await readE2eFolder(server, a.viewer, room.uuid)).files.has('plan.pdf')).toBe(true);
    // A member seals one name and signs another: the reader's name check fails.
    const signed = await renameE2eFileBody(server, a.editor, room.uuid, (await openRoomKey(server, a.editor, room.uuid)).handle, uuid, 'signed.pdf');
    const shown = await renameE2eFileBody(server, a.editor, room.uuid, (await openRoomKey(server, a.editor, room.uuid)).handle, uuid, 'shown.pdf');
    expect((await req(server, a.editor, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, uuid), { name: shown.name, metadata: signed.metadata })).status).toBe(204);
    await expect(readE2eFolder(server, a.viewer, room.uuid)).rejects.toMatchObject({ code: 'room-metadata-mismatch' });
  });
});

describe('a new version of an E2E file', () => {
  it('replaces the content under the same file (version 2, readers verify); the earlier content stays a version with its sealed extras', async () => {
    const room = await sharedRoom('Version room');
    const { handle } = await openRoomKey(server, a.owner, room.uuid);
    const first = new Uint8Array(randomBytes(2 * PART_SIZE + 1));
    const { uuid } = await uploadE2eFile(server, a.owner, room.uuid, handle, { name: 'budget.xlsx', bytes: first, partSize: PART_SIZE, metadataAtCommit: true });
    const second = new Uint8Array(randomBytes(3 * PART_SIZE + 7));
    const editorKey = (await openRoomKey(server, a.editor, room.uuid)).handle;
    const next = await uploadE2eFile(server, a.editor, room.uuid, editorKey, { name: 'budget.xlsx', bytes: second, partSize: PART_SIZE, metadataAtCommit: true, replace: { uuid, version: 2 } });
    expect(next.file!.uuid).toBe(uuid);
    const read = await readE2eFolder(server, a.viewer, room.uuid);
    expect([...read.files.keys()]).toEqual(['budget.xlsx']);
    const current = read.files.get('budget.xlsx')!;
    expect(current.metadata.version).toBe(2);
    expect(current.metadata.uploaderEmail).toBe(email('editor'));
    expect(sha256Hex(current.bytes)).toBe(sha256Hex(second));
    const versions = await json<{ versions: { version: number; current: boolean; uploadedBy: string }[] }>(await req(server, a.owner, 'GET', `/rooms/${room.uuid}/files/${uuid}/versions`), 200);
    expect(versions.versions.map((v) => [v.version, v.current, v.uploadedBy])).toEqual([[2, true, email('editor')], [1, false, email('owner')]]);
    // The earlier content's sealed extras are kept with it (the first version's key opens for version 1).
    const kept = await server.app.db.selectFrom('room_e2e_versions').selectAll().execute();
    const mine = kept.find((k) => k.version === 1)!;
    await expect(a.owner.crypto.unwrapRoomFileKey({ roomKey: handle, file: { roomId: room.uuid, fileId: uuid, version: 1 }, wrapped: mine.wrapped_file_key })).resolves.toBeTruthy();
    const opened = await a.owner.crypto.openRoomFileMetadata({ roomKey: handle, file: { roomId: room.uuid, fileId: uuid, version: 1 }, sealed: mine.metadata });
    expect(opened.metadata.size).toBe(first.length);
  });

  it('refused: a VIEWER (403), a file of another folder or unknown (400 / 404)', async () => {
    const room = await sharedRoom('Refused version room');
    const { handle } = await openRoomKey(server, a.owner, room.uuid);
    const { uuid } = await uploadE2eFile(server, a.owner, room.uuid, handle, { name: 'a.txt', bytes: new Uint8Array(randomBytes(100)), partSize: PART_SIZE });
    const viewerKey = (await openRoomKey(server, a.viewer, room.uuid)).handle;
    const viewer = await uploadE2eFile(server, a.viewer, room.uuid, viewerKey, { name: 'a.txt', bytes: new Uint8Array(10), partSize: PART_SIZE, replace: { uuid, version: 2 } });
    await expectBackendError(viewer.announce, 403);
    const unknown = await uploadE2eFile(server, a.owner, room.uuid, handle, { name: 'a.txt', bytes: new Uint8Array(10), partSize: PART_SIZE, replace: { uuid: crypto.randomUUID(), version: 2 } });
    await expectBackendError(unknown.announce, 404);
    const folder = await json<{ uuid: string }>(await createE2eFolder(server, a.owner, room.uuid, handle, 'Elsewhere'), 201);
    const elsewhere = await uploadE2eFile(server, a.owner, room.uuid, handle, { name: 'a.txt', bytes: new Uint8Array(10), folderUuid: folder.uuid, partSize: PART_SIZE, replace: { uuid, version: 2 } });
    await expectBackendError(elsewhere.announce, 400, 'ValidationException');
  });
});
