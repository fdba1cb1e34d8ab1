import { randomBytes } from 'node:crypto';
import type { RoomActivityList } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomFolder } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS, type E2eFileKeysList } from '@shared/contract/rooms-e2e';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eFolder, createE2eRoom, grant, json, openRoomKey, readE2eFolder, req, sha256Hex, uploadE2eFile } from './rooms-e2e-helpers';

/**
 * Moving files and folders inside an end-to-end encrypted room: the plain move calls
 * (`PATCH …/files/{id}` `{folderUuid}`, `PATCH …/folders/{id}` `{parentUuid}`), because nothing
 * sealed or signed names the folder an item lies in (shared/crypto/README.md "7. Data rooms",
 * "Move"): the moved file still opens and verifies against its uploader's key with the same bytes.
 * Real server, real crypto (CryptoService); SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

const PART_SIZE = 1024;
let server: TestServer;
let admin: Session;
const who = ['owner', 'editor', 'viewer', 'previewer', 'stranger'] as const;
const a = {} as Record<(typeof who)[number], E2eActor>;
const email = (name: string) => `${name}@rooms-e2e-move.test`;

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  admin = await signInAdmin(server);
  for (const name of who) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    a[name] = await e2eActor(server, await signIn(server, email(name), 'Good-Passw0rd'));
  }
  for (const name of ['owner', 'editor', 'viewer'] as const) await giveSecuPass(a[name], `${name}-SecuPass-rooms-e2e-move-Basalt-7`);
}, 240_000);
afterAll(() => server?.close());

interface Fixture {
  room: Room;
  key: string;
  alpha: RoomFolder;
  beta: RoomFolder;
  /** A file at the top level. */
  fileUuid: string;
  bytes: Uint8Array;
}

/** An E2E room shared with an EDITOR, a VIEWER and a PREVIEWER: folders Alpha and Beta, report.pdf at the top level. */
async function fixture(title: string): Promise<Fixture> {
  const { room } = await createE2eRoom(server, a.owner, title);
  for (const [name, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(name), role }), 200);
    if (name !== 'previewer') await json(await grant(server, a.owner, room.uuid, a[name].userUuid), 200);
  }
  const { handle: key } = await openRoomKey(server, a.owner, room.uuid);
  const alpha = await json<RoomFolder>(await createE2eFolder(server, a.owner, room.uuid, key, 'Alpha'), 201);
  const beta = await json<RoomFolder>(await createE2eFolder(server, a.owner, room.uuid, key, 'Beta'), 201);
  const bytes = new Uint8Array(randomBytes(2 * PART_SIZE + 77));
  const { uuid: fileUuid } = await uploadE2eFile(server, a.owner, room.uuid, key, { name: 'report.pdf', bytes, partSize: PART_SIZE, metadataAtCommit: true });
  return { room, key, alpha, beta, fileUuid, bytes };
}

const moveFile = (actor: E2eActor | null, roomUuid: string, fileUuid: string, body: Record<string, unknown>) =>
  actor ? req(server, actor, 'PATCH', ROOM_PATHS.file(roomUuid, fileUuid), body) : call(server, null, 'PATCH', `/api/2${ROOM_PATHS.file(roomUuid, fileUuid)}`, body);
const moveFolder = (actor: E2eActor | null, roomUuid: string, folderUuid: string, body: Record<string, unknown>) =>
  actor ? req(server, actor, 'PATCH', ROOM_PATHS.folder(roomUuid, folderUuid), body) : call(server, null, 'PATCH', `/api/2${ROOM_PATHS.folder(roomUuid, folderUuid)}`, body);

describe('moving inside an E2E room', () => {
  it('an EDITOR moves a file and a folder; readers open and verify them where they went (same bytes, uploader still the signer); activity `moved`', async () => {
    const f = await fixture('Move room');
    expect((await moveFile(a.editor, f.room.uuid, f.fileUuid, { folderUuid: f.beta.uuid })).status).toBe(200);
    // Alpha (with a file inside) goes into Beta.
    const inner = new Uint8Array(randomBytes(500));
    await uploadE2eFile(server, a.owner, f.room.uuid, f.key, { name: 'inner.txt', bytes: inner, folderUuid: f.alpha.uuid, partSize: PART_SIZE });
    const moved = await json<RoomFolder>(await moveFolder(a.editor, f.room.uuid, f.alpha.uuid, { parentUuid: f.beta.uuid }), 200);
    expect(moved.parentUuid).toBe(f.beta.uuid);

    for (const reader of [a.viewer, a.editor, a.owner]) {
      const top = await readE2eFolder(server, reader, f.room.uuid);
      expect([...top.folders.keys()]).toEqual(['Beta']);
      expect([...top.files.keys()]).toEqual([]);
      const beta = await readE2eFolder(server, reader, f.room.uuid, f.beta.uuid);
      expect([...beta.folders]).toEqual([['Alpha', f.alpha.uuid]]);
      const report = beta.files.get('report.pdf')!;
      expect(sha256Hex(report.bytes)).toBe(sha256Hex(f.bytes));
      // Nothing was re-signed: the uploader's signature still verifies.
      expect(report.metadata.uploaderEmail).toBe(email('owner'));
      expect(report.metadata.signerKeyId).toBe(a.owner.keys!.signing.keyId);
      const alpha = await readE2eFolder(server, reader, f.room.uuid, f.alpha.uuid);
      expect(sha256Hex(alpha.files.get('inner.txt')!.bytes)).toBe(sha256Hex(inner));
    }
    const keys = await json<E2eFileKeysList>(await req(server, a.viewer, 'GET', `${ROOM_E2E_PATHS.files(f.room.uuid)}?folderUuid=${f.beta.uuid}`), 200);
    expect(keys.files.map((k) => [k.uuid, k.signerUuid])).toEqual([[f.fileUuid, a.owner.userUuid]]);

    // The activity names the moved items by their sealed names (the OWNER's browser opens them).
    const log = await json<RoomActivityList>(await req(server, a.owner, 'GET', ROOM_PATHS.activity(f.room.uuid)), 200);
    const moves = log.entries.filter((e) => e.detail === 'moved');
    expect(moves.map((e) => [e.kind, e.actor, e.item.type, e.item.uuid])).toEqual([
      ['edit', email('editor'), 'folder', f.alpha.uuid],
      ['edit', email('editor'), 'file', f.fileUuid],
    ]);
    const { names } = await a.owner.crypto.decryptRoomNames({
      roomKey: f.key,
      roomId: f.room.uuid,
      items: moves.map((e) => ({ kind: e.item.type as 'file' | 'folder', itemId: e.item.uuid, sealed: e.item.name })),
    });
    expect(names.map((n) => (n.ok ? n.name : n.code))).toEqual(['Alpha', 'report.pdf']);

    // And back to the top level (`null`).
    expect((await moveFile(a.owner, f.room.uuid, f.fileUuid, { folderUuid: null })).status).toBe(200);
    expect([...(await readE2eFolder(server, a.viewer, f.room.uuid)).files.keys()]).toEqual(['report.pdf']);
  });

  it('role denials as in plain rooms: VIEWER and PREVIEWER 403, a non-member 404, anonymous 401; an EDITOR who only views the target 403', async () => {
    const f = await fixture('Denied move room');
    for (const [actor, status] of [[a.viewer, 403], [a.previewer, 403], [a.stranger, 404], [null, 401]] as const) {
      await expectBackendError(await moveFile(actor, f.room.uuid, f.fileUuid, { folderUuid: f.beta.uuid }), status);
      await expectBackendError(await moveFolder(actor, f.room.uuid, f.alpha.uuid, { parentUuid: f.beta.uuid }), status);
    }
    // The upload right on the target is needed too.
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(f.room.uuid), { user: email('editor'), role: 'VIEWER', folderUuid: f.beta.uuid }), 200);
    await expectBackendError(await moveFile(a.editor, f.room.uuid, f.fileUuid, { folderUuid: f.beta.uuid }), 403, 'AccessDeniedException');
    await expectBackendError(await moveFolder(a.editor, f.room.uuid, f.alpha.uuid, { parentUuid: f.beta.uuid }), 403, 'AccessDeniedException');
    // Nothing moved.
    const top = await readE2eFolder(server, a.viewer, f.room.uuid, undefined, { download: false });
    expect([...top.files.keys()]).toEqual(['report.pdf']);
    expect([...top.folders.keys()].sort()).toEqual(['Alpha', 'Beta']);
  });

  it('refused: into another room (400 moveToOtherRoom; a folder of another room 404), a folder into itself or below itself (400 moveIntoItself)', async () => {
    const f = await fixture('Refused move room');
    const other = await fixture('Other move room');
    for (const response of [
      await moveFile(a.owner, f.room.uuid, f.fileUuid, { roomUuid: other.room.uuid }),
      await moveFolder(a.owner, f.room.uuid, f.alpha.uuid, { roomUuid: other.room.uuid }),
    ]) {
      const error = await expectBackendError(response, 400, 'ValidationException');
      expect(error).toMatchObject({ message: 'Moving content into another data room is not supported', metadata: { reason: 'moveToOtherRoom' } });
    }
    await expectBackendError(await moveFile(a.owner, f.room.uuid, f.fileUuid, { folderUuid: other.beta.uuid }), 404, 'NotFoundException');
    const below = await json<RoomFolder>(await createE2eFolder(server, a.owner, f.room.uuid, f.key, 'Below', f.alpha.uuid), 201);
    const deeper = await json<RoomFolder>(await createE2eFolder(server, a.owner, f.room.uuid, f.key, 'Deeper', below.uuid), 201);
    for (const target of [f.alpha.uuid, below.uuid, deeper.uuid]) {
      const error = await expectBackendError(await moveFolder(a.editor, f.room.uuid, f.alpha.uuid, { parentUuid: target }), 400, 'ValidationException');
      expect(error.metadata).toMatchObject({ reason: 'moveIntoItself' });
    }
    // A name in a move call is refused (names are sealed by the E2E rename): nothing changed.
    const named = await expectBackendError(await moveFile(a.owner, f.room.uuid, f.fileUuid, { name: 'x.pdf', folderUuid: f.beta.uuid }), 409, 'ConflictException');
    expect(named.metadata).toMatchObject({ reason: 'encryptedRoom' });
    expect([...(await readE2eFolder(server, a.viewer, f.room.uuid, undefined, { download: false })).files.keys()]).toEqual(['report.pdf']);
    expect([...(await readE2eFolder(server, a.viewer, f.room.uuid, f.alpha.uuid)).folders.keys()]).toEqual(['Below']);
  });

  it('the server cannot compare sealed names: a target holding the same decrypted name does not stop the move (the browser checks first)', async () => {
    const f = await fixture('Clash move room');
    await uploadE2eFile(server, a.owner, f.room.uuid, f.key, { name: 'report.pdf', bytes: new Uint8Array(randomBytes(100)), folderUuid: f.beta.uuid, partSize: PART_SIZE });
    expect((await moveFile(a.editor, f.room.uuid, f.fileUuid, { folderUuid: f.beta.uuid })).status).toBe(200);
    const contents = await json<{ files: { uuid: string }[] }>(await req(server, a.viewer, 'GET', ROOM_PATHS.folder(f.room.uuid, f.beta.uuid)), 200);
    expect(contents.files).toHaveLength(2);
    expect(contents.files.map((file) => file.uuid)).toContain(f.fileUuid);
  });

  it('a moved file and a moved folder go to the trash and come back where they were moved to, still verified', async () => {
    const f = await fixture('Trash move room');
    await json(await moveFile(a.editor, f.room.uuid, f.fileUuid, { folderUuid: f.beta.uuid }), 200);
    await json(await moveFolder(a.editor, f.room.uuid, f.alpha.uuid, { parentUuid: f.beta.uuid }), 200);
    await json(await req(server, a.editor, 'DELETE', ROOM_PATHS.file(f.room.uuid, f.fileUuid)), 204);
    await json(await req(server, a.editor, 'DELETE', ROOM_PATHS.folder(f.room.uuid, f.alpha.uuid)), 204);
    const emptied = await readE2eFolder(server, a.viewer, f.room.uuid, f.beta.uuid);
    expect([emptied.folders.size, emptied.files.size]).toEqual([0, 0]);
    for (const uuid of [f.fileUuid, f.alpha.uuid]) await json(await req(server, a.owner, 'POST', ROOM_PATHS.trashRestore(f.room.uuid, uuid)), 204);
    const back = await readE2eFolder(server, a.viewer, f.room.uuid, f.beta.uuid);
    expect([...back.folders]).toEqual([['Alpha', f.alpha.uuid]]);
    expect(sha256Hex(back.files.get('report.pdf')!.bytes)).toBe(sha256Hex(f.bytes));
    expect(back.files.get('report.pdf')!.metadata.signerKeyId).toBe(a.owner.keys!.signing.keyId);
  });
});
