import { randomBytes } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { ROOM_OPS_PATHS } from '@shared/contract/room-ops';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room } from '@shared/contract/rooms';
import { ROOM_E2E_VERSION_PATHS, type E2eFileVersion, type E2eFileVersionList } from '@shared/contract/rooms-e2e-versions';
import { signedContentOf } from '@shared/crypto/room';
import { bytesToStream, collectStream } from '@shared/crypto/stream-encoder';
import { verifiedContactKey } from '@shared/transfer/e2e';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eRoom, grant, json, openRoomKey, readE2eFolder, req, sha256Hex, uploadE2eFile } from './rooms-e2e-helpers';

/**
 * The earlier versions of an E2E room file on the real server (SQLite, or PostgreSQL with
 * KUVERT_TEST_DATABASE_URL) with the real crypto (CryptoService, the code of the browser Worker):
 * the versions call with sealed file keys and signed metadata, every version opened, verified and
 * its ciphertext (plain version download) decrypted; the SPEC §6 roles; two new versions racing.
 */

const PART_SIZE = 1024;
let server: TestServer;
let admin: Session;
const who = ['owner', 'editor', 'viewer', 'previewer', 'outsider'] as const;
const a = {} as Record<(typeof who)[number], E2eActor>;
const email = (name: string) => `${name}@rooms-e2e-versions.test`;
const api = (path: string) => `/api/2${path}`;

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  admin = await signInAdmin(server);
  for (const name of who) {
    await createUserAsAdmin(server, admin, { email: email(name), firstName: name === 'editor' ? 'Edda' : 'Otto', lastName: name });
    a[name] = await e2eActor(server, await signIn(server, email(name), 'Good-Passw0rd'));
  }
  for (const name of ['owner', 'editor', 'viewer', 'previewer'] as const) await giveSecuPass(a[name], `${name}-SecuPass-rooms-e2e-versions-Amber-7`);
}, 240_000);
afterAll(() => server?.close());

async function sharedRoom(title: string): Promise<Room> {
  const { room } = await createE2eRoom(server, a.owner, title);
  for (const [name, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(name), role }), 200);
    await json(await grant(server, a.owner, room.uuid, a[name].userUuid), 200);
  }
  return room;
}

const getBytes = (actor: E2eActor | null, path: string) => fetch(`${server.url}${api(path)}`, { headers: actor ? { cookie: actor.session.cookie } : {} });

/** What the versions dialog does with one row: open and verify the metadata (signer's pinned key), unwrap the key, download, decrypt. */
async function openVersion(actor: E2eActor, roomUuid: string, fileUuid: string, row: E2eFileVersion, name: string) {
  const { handle, state } = await openRoomKey(server, actor, roomUuid);
  const file = { roomId: roomUuid, fileId: fileUuid, version: row.version };
  const signed = await actor.crypto.openRoomFileMetadata({ roomKey: handle, file, sealed: row.metadata });
  const signer = state.signers.find((s) => s.userUuid === row.signerUuid);
  const listed = signer?.keys.find((k) => k.keyId === signed.metadata.signerKeyId && k.usage === 'signing');
  if (!signer || !listed) throw new Error('the signer’s key is not listed');
  const key = await verifiedContactKey(actor.client, { crypto: actor.crypto, keys: actor.keys!, pins: actor.pins }, { email: signer.email, userUuid: signer.userUuid, usage: 'signing', keyId: listed.keyId, publicKey: listed.publicKey });
  const metadata = await actor.crypto.verifyRoomFileMetadata({
    signed, signerPublicKey: key.publicKey,
    expected: { ...file, name, size: row.plaintextSize, ...(row.uploaderUuid ? { uploaderUserId: row.uploaderUuid } : {}) },
  });
  const fileKey = await actor.crypto.unwrapRoomFileKey({ roomKey: handle, file, wrapped: row.wrappedFileKey });
  const response = await getBytes(actor, ROOM_OPS_PATHS.versionContent(roomUuid, fileUuid, row.uuid));
  expect(response.status).toBe(200);
  const ciphertext = new Uint8Array(await response.arrayBuffer());
  expect(ciphertext.length).toBe(row.size);
  const { plaintext } = await actor.crypto.decryptStream({ fileKey: fileKey.handle, ciphertext: bytesToStream(ciphertext), plaintextLength: metadata.size, expectedHeaderSha256: metadata.headerSha256, ...signedContentOf(metadata) });
  return { metadata, bytes: await collectStream(plaintext) };
}

describe('the versions of an E2E file', () => {
  it('lists the earlier versions newest first with sealed extras; each opens, verifies against its signer and decrypts bit-exact', async () => {
    const room = await sharedRoom('Versions room');
    const ownerKey = (await openRoomKey(server, a.owner, room.uuid)).handle;
    const editorKey = (await openRoomKey(server, a.editor, room.uuid)).handle;
    const v1 = new Uint8Array(randomBytes(2 * PART_SIZE + 5));
    const v2 = new Uint8Array(randomBytes(PART_SIZE - 3));
    const v3 = new Uint8Array(randomBytes(3 * PART_SIZE));
    const { uuid } = await uploadE2eFile(server, a.owner, room.uuid, ownerKey, { name: 'plan.pdf', bytes: v1, partSize: PART_SIZE, metadataAtCommit: true });
    await uploadE2eFile(server, a.editor, room.uuid, editorKey, { name: 'plan.pdf', bytes: v2, partSize: PART_SIZE, metadataAtCommit: true, replace: { uuid, version: 2 } });
    await uploadE2eFile(server, a.owner, room.uuid, ownerKey, { name: 'plan.pdf', bytes: v3, partSize: PART_SIZE, replace: { uuid, version: 3 } });

    for (const reader of [a.owner, a.editor]) {
      const list = await json<E2eFileVersionList>(await req(server, reader, 'GET', ROOM_E2E_VERSION_PATHS.versions(room.uuid, uuid)), 200);
      expect(list.versions.map((v) => [v.version, v.plaintextSize, v.uploaderUuid, v.signerUuid])).toEqual([
        [2, v2.length, a.editor.userUuid, a.editor.userUuid],
        [1, v1.length, a.owner.userUuid, a.owner.userUuid],
      ]);
      // Issue 32: the uploader's display name, as the plain versions list answers it.
      expect(list.versions.map((v) => v.uploadedByName)).toEqual(['Edda editor', 'Otto owner']);
      for (const v of list.versions) expect(v.replacedAt).toBeGreaterThanOrEqual(v.createdAt);
      // Only sealed strings: no name, no plaintext.
      expect(JSON.stringify(list)).not.toContain('plan.pdf');
      const [second, first] = list.versions;
      const opened1 = await openVersion(reader, room.uuid, uuid, first!, 'plan.pdf');
      expect(sha256Hex(opened1.bytes)).toBe(sha256Hex(v1));
      expect(opened1.metadata.uploaderEmail).toBe(email('owner'));
      const opened2 = await openVersion(reader, room.uuid, uuid, second!, 'plan.pdf');
      expect(sha256Hex(opened2.bytes)).toBe(sha256Hex(v2));
      expect(opened2.metadata.version).toBe(2);
    }
    // The current content is version 3 (the folder's file keys), not in the list.
    const read = await readE2eFolder(server, a.viewer, room.uuid);
    expect(read.files.get('plan.pdf')!.metadata.version).toBe(3);
    expect(sha256Hex(read.files.get('plan.pdf')!.bytes)).toBe(sha256Hex(v3));
  });

  it('a version row bound to another version number does not verify (the reader detects a swapped row)', async () => {
    const room = await sharedRoom('Swapped versions room');
    const key = (await openRoomKey(server, a.owner, room.uuid)).handle;
    const { uuid } = await uploadE2eFile(server, a.owner, room.uuid, key, { name: 'a.txt', bytes: new Uint8Array(randomBytes(100)), partSize: PART_SIZE });
    await uploadE2eFile(server, a.owner, room.uuid, key, { name: 'a.txt', bytes: new Uint8Array(randomBytes(200)), partSize: PART_SIZE, replace: { uuid, version: 2 } });
    const [row] = (await json<E2eFileVersionList>(await req(server, a.owner, 'GET', ROOM_E2E_VERSION_PATHS.versions(room.uuid, uuid)), 200)).versions;
    await expect(openVersion(a.owner, room.uuid, uuid, { ...row!, version: 2 }, 'a.txt')).rejects.toThrow();
  });

  it('roles: VIEWER and PREVIEWER 403 (no bytes), non-member 404, anonymous 401; a plain room’s file 400', async () => {
    const room = await sharedRoom('Versions roles room');
    const key = (await openRoomKey(server, a.owner, room.uuid)).handle;
    const { uuid } = await uploadE2eFile(server, a.owner, room.uuid, key, { name: 'r.bin', bytes: new Uint8Array(randomBytes(300)), partSize: PART_SIZE });
    await uploadE2eFile(server, a.owner, room.uuid, key, { name: 'r.bin', bytes: new Uint8Array(randomBytes(400)), partSize: PART_SIZE, replace: { uuid, version: 2 } });
    const path = ROOM_E2E_VERSION_PATHS.versions(room.uuid, uuid);
    const [row] = (await json<E2eFileVersionList>(await req(server, a.owner, 'GET', path), 200)).versions;
    const content = ROOM_OPS_PATHS.versionContent(room.uuid, uuid, row!.uuid);
    for (const actor of [a.viewer, a.previewer]) {
      await expectBackendError(await req(server, actor, 'GET', path), 403, 'AccessDeniedException');
      await expectBackendError(await getBytes(actor, content), 403, 'AccessDeniedException');
    }
    await expectBackendError(await req(server, a.outsider, 'GET', path), 404, 'NotFoundException');
    await expectBackendError(await getBytes(a.outsider, content), 404, 'NotFoundException');
    await expectBackendError(await getBytes(null, path), 401);
    await expectBackendError(await getBytes(null, content), 401);
    await expectBackendError(await req(server, a.owner, 'GET', ROOM_E2E_VERSION_PATHS.versions(room.uuid, crypto.randomUUID())), 404, 'NotFoundException');

    const plain = await json<Room>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name: 'Plain versions room' }), 201);
    const announced = await json<RoomUploadFile>(await req(server, a.owner, 'POST', ROOM_PATHS.files(plain.uuid), { name: 'p.txt', size: 3 }), 201);
    const bytes = new Uint8Array([1, 2, 3]);
    const put = await fetch(`${server.url}${api(ROOM_PATHS.filePart(plain.uuid, announced.uuid, 0))}`, {
      method: 'PUT',
      headers: { cookie: a.owner.session.cookie, [ANTI_CSRF_HEADER]: a.owner.session.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256Hex(bytes) },
      body: new Blob([bytes]),
    });
    await json(put, 200);
    await json(await req(server, a.owner, 'POST', ROOM_PATHS.fileCommit(plain.uuid, announced.uuid)), 200);
    const bad = await expectBackendError(await req(server, a.owner, 'GET', ROOM_E2E_VERSION_PATHS.versions(plain.uuid, announced.uuid)), 409, 'ConflictException');
    expect(bad.metadata).toMatchObject({ reason: 'notEncrypted' });
  });
});

describe('two new versions of one E2E file racing', () => {
  it('exactly one commit wins; the other gets 409 versionConflict; the stored version and metadata are the winner’s', async () => {
    const room = await sharedRoom('Race room');
    const ownerKey = (await openRoomKey(server, a.owner, room.uuid)).handle;
    const editorKey = (await openRoomKey(server, a.editor, room.uuid)).handle;
    const v1 = new Uint8Array(randomBytes(PART_SIZE + 1));
    const { uuid } = await uploadE2eFile(server, a.owner, room.uuid, ownerKey, { name: 'race.txt', bytes: v1, partSize: PART_SIZE });
    const mine = new Uint8Array(randomBytes(2 * PART_SIZE + 9));
    const theirs = new Uint8Array(randomBytes(PART_SIZE + 77));
    // Both announced while version 1 is current: both bind version 2.
    const one = await uploadE2eFile(server, a.owner, room.uuid, ownerKey, { name: 'race.txt', bytes: mine, partSize: PART_SIZE, metadataAtCommit: true, replace: { uuid, version: 2 }, deferCommit: true });
    const two = await uploadE2eFile(server, a.editor, room.uuid, editorKey, { name: 'race.txt', bytes: theirs, partSize: PART_SIZE, replace: { uuid, version: 2 }, deferCommit: true });
    const answers = await Promise.all([one.commit!(), two.commit!()]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = answers[0]!.status === 200 ? { bytes: mine, by: 'owner' } : { bytes: theirs, by: 'editor' };
    const loser = answers.find((r) => r.status === 409)!;
    const error = await expectBackendError(loser, 409, 'ConflictException');
    expect(error.metadata).toMatchObject({ reason: 'versionConflict' });
    const read = await readE2eFolder(server, a.viewer, room.uuid);
    expect([...read.files.keys()]).toEqual(['race.txt']);
    const current = read.files.get('race.txt')!;
    expect(current.metadata.version).toBe(2);
    expect(current.metadata.uploaderEmail).toBe(email(winner.by));
    expect(sha256Hex(current.bytes)).toBe(sha256Hex(winner.bytes));
    // One earlier version (version 1), not two.
    const list = await json<E2eFileVersionList>(await req(server, a.owner, 'GET', ROOM_E2E_VERSION_PATHS.versions(room.uuid, uuid)), 200);
    expect(list.versions.map((v) => v.version)).toEqual([1]);
    expect(sha256Hex((await openVersion(a.owner, room.uuid, uuid, list.versions[0]!, 'race.txt')).bytes)).toBe(sha256Hex(v1));
  });
});
