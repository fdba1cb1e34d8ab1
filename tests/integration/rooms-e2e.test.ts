import { randomBytes } from 'node:crypto';
import type { ListUsersResponse } from '@shared/contract/admin-users';
import { ROOM_SETTING_KEYS } from '@shared/contract/room-admin';
import { ROOM_PATHS, type Room, type RoomList } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS, type E2eMember, type E2eMemberList, type E2eRoomState } from '@shared/contract/rooms-e2e';
import { SENDER_GROUP_PATHS } from '@shared/contract/sender-groups';
import { utf8Encode } from '@shared/crypto/bytes';
import { readMailbox } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eFolder, createE2eRoom, grant, json, markersAtRest, openRoomKey, readE2eFolder, req, sha256Hex, uploadE2eFile } from './rooms-e2e-helpers';

/**
 * End-to-end encrypted data rooms on the real server (SQLite, or PostgreSQL with
 * KUVERT_TEST_DATABASE_URL) with the real crypto (CryptoService, the code of the browser Worker):
 * creation (licence), the SPEC §6 roles, the grant after a late activation, what a reader detects
 * when the server changes things, and no plaintext name or byte at rest.
 */

const PART_SIZE = 1024;
const NAME_MARKER = 'NAME-MARKER-3c9e1f-e2e-room';
const FILE_MARKER = 'FILE-MARKER-8d2a47-e2e-room-bytes';
let server: TestServer;
let admin: Session;
const who = ['owner', 'editor', 'viewer', 'previewer', 'outsider', 'late', 'unlicensed'] as const;
const a = {} as Record<(typeof who)[number], E2eActor>;
const email = (name: string) => `${name}@rooms-e2e.test`;

function markedFile(size: number): Uint8Array {
  const bytes = new Uint8Array(randomBytes(size));
  bytes.set(utf8Encode(FILE_MARKER), Math.floor(size / 3));
  return bytes;
}

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  admin = await signInAdmin(server);
  for (const name of who) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    a[name] = await e2eActor(server, await signIn(server, email(name), 'Good-Passw0rd'));
  }
  for (const name of ['owner', 'editor', 'viewer', 'previewer', 'outsider', 'unlicensed'] as const) await giveSecuPass(a[name], `${name}-SecuPass-rooms-e2e-Marble-7`);
  const users = await json<ListUsersResponse>(await call(server, admin, 'GET', '/api/2/admin/users?q=unlicensed'), 200);
  await json(await call(server, admin, 'PATCH', `/api/2${SENDER_GROUP_PATHS.userSender(users.users[0]!.uuid)}`, { licensed: false }), 200);
}, 240_000);
afterAll(() => server?.close());

const share = (room: Room, name: (typeof who)[number], role: string) => req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(name), role });

async function memberOf(room: Room, name: (typeof who)[number]): Promise<E2eMember> {
  const list = await json<E2eMemberList>(await req(server, a.owner, 'GET', ROOM_E2E_PATHS.members(room.uuid)), 200);
  const member = list.members.find((m) => m.user.email === email(name));
  if (!member) throw new Error(`${name} is no member`);
  return member;
}

/** A room with a folder and two files (owner's in the folder, editor's at the top), every role shared and granted. */
async function populatedRoom(title: string) {
  const { room, response } = await createE2eRoom(server, a.owner, `${title} ${NAME_MARKER}`);
  expect(response.status).toBe(201);
  for (const [name, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await share(room, name, role), 200);
    await json(await grant(server, a.owner, room.uuid, a[name].userUuid), 200);
  }
  const { handle } = await openRoomKey(server, a.owner, room.uuid);
  const folder = await json<{ uuid: string }>(await createE2eFolder(server, a.owner, room.uuid, handle, `Contracts ${NAME_MARKER}`), 201);
  const ownerBytes = markedFile(5 * PART_SIZE + 77);
  const owned = await uploadE2eFile(server, a.owner, room.uuid, handle, { name: `Owner plan ${NAME_MARKER}.pdf`, bytes: ownerBytes, folderUuid: folder.uuid, partSize: PART_SIZE });
  const editorKey = (await openRoomKey(server, a.editor, room.uuid)).handle;
  const editorBytes = markedFile(2 * PART_SIZE);
  const edited = await uploadE2eFile(server, a.editor, room.uuid, editorKey, { name: `Editor notes ${NAME_MARKER}.txt`, bytes: editorBytes, partSize: PART_SIZE });
  return { room, folder, ownerBytes, editorBytes, ownerFile: owned.file!, editorFile: edited.file! };
}

describe('creating an E2E room', () => {
  it('only licensed users create one; the creator holds a copy; names are stored sealed', async () => {
    const refused = await createE2eRoom(server, a.unlicensed, 'Not mine');
    const error = await expectBackendError(refused.response, 403, 'AccessDeniedException');
    expect(error.metadata).toMatchObject({ reason: 'e2eRoomsNeedLicence' });
    expect(error.message).toBe('Only licensed users can create end-to-end encrypted data rooms');
    // The room list tells the web which create buttons to show: the same rules.
    const mayCreate = async (actor: E2eActor) => (await json<RoomList>(await req(server, actor, 'GET', ROOM_PATHS.rooms), 200)).mayCreate;
    expect(await mayCreate(a.unlicensed)).toEqual({ plain: false, e2e: false });
    expect(await mayCreate(a.owner)).toEqual({ plain: true, e2e: true });

    const { room, response } = await createE2eRoom(server, a.owner, 'Deal room');
    expect(response.status).toBe(201);
    expect(room).toMatchObject({ encrypted: true, role: 'OWNER' });
    expect(room.name).toMatch(/^r1\./);
    // Listed under Secure rooms only (issue 32), with its sealed name.
    const listed = await json<RoomList>(await req(server, a.owner, 'GET', ROOM_E2E_PATHS.list), 200);
    expect(listed.rooms.find((r) => r.uuid === room.uuid)?.name).toBe(room.name);
    const state = await json<E2eRoomState>(await req(server, a.owner, 'GET', ROOM_E2E_PATHS.state(room.uuid)), 200);
    expect(state.state).toBe('approved');
    expect(state.roomKey?.recipientKeyId).toBe(a.owner.keys!.encryption.keyId);
    expect((await readE2eFolder(server, a.owner, room.uuid)).roomName).toBe('Deal room');
  });

  it('Secure rooms › General decides too: E2E rooms switched off, or room creation for nobody → 403 even for a licensed user', async () => {
    await updateSettings(server, admin, { [ROOM_SETTING_KEYS.e2eAllowed]: false });
    const off = await createE2eRoom(server, a.owner, 'Switched off');
    expect((await expectBackendError(off.response, 403, 'AccessDeniedException')).metadata).toMatchObject({ reason: 'e2eRoomsNotAllowed' });
    const mayCreate = async () => (await json<RoomList>(await req(server, a.owner, 'GET', ROOM_PATHS.rooms), 200)).mayCreate;
    expect(await mayCreate()).toEqual({ plain: true, e2e: false });
    await updateSettings(server, admin, { [ROOM_SETTING_KEYS.e2eAllowed]: true, [ROOM_SETTING_KEYS.creation]: 'nobody' });
    await expectBackendError((await createE2eRoom(server, a.owner, 'Nobody creates')).response, 403, 'AccessDeniedException');
    expect(await mayCreate()).toEqual({ plain: false, e2e: false });
    await updateSettings(server, admin, { [ROOM_SETTING_KEYS.creation]: 'licenceOrPermission' });
    expect(await mayCreate()).toEqual({ plain: true, e2e: true });
    expect((await createE2eRoom(server, a.owner, 'Allowed again')).response.status).toBe(201);
  });

  it('a copy wrapped to somebody else’s key is refused and leaves no room behind', async () => {
    const uuid = crypto.randomUUID();
    const { handle } = await a.owner.crypto.generateRoomKey();
    const [name] = (await a.owner.crypto.encryptRoomNames({ roomKey: handle, roomId: uuid, items: [{ kind: 'room', itemId: uuid, name: 'X' }] })).sealed;
    const wrappedKey = await a.owner.crypto.wrapRoomKey({ roomKey: handle, roomId: uuid, recipientPublicKey: a.editor.keys!.encryption.publicKey });
    const refused = await req(server, a.owner, 'POST', ROOM_E2E_PATHS.create, { uuid, name, recipientKeyId: wrappedKey.recipientKeyId, wrappedKey });
    expect((await expectBackendError(refused, 400, 'ValidationException')).metadata).toMatchObject({ reason: 'recipientKeyNotLive' });
    await expectBackendError(await req(server, a.owner, 'GET', ROOM_PATHS.room(uuid)), 404, 'NotFoundException');
    // Not a sealed string: schema refusal, 400.
    await expectBackendError(await req(server, a.owner, 'POST', ROOM_E2E_PATHS.create, { uuid, name: 'Plain name', recipientKeyId: 'k', wrappedKey }), 400, 'ValidationException');
  });

  it('plain-room calls with names answer 409 encryptedRoom; plain rooms refuse the E2E calls with 409 notEncrypted', async () => {
    const { room } = await createE2eRoom(server, a.owner, 'Strict room');
    for (const [method, path, body] of [
      ['POST', ROOM_PATHS.folders(room.uuid), { name: 'Plain folder' }],
      ['POST', ROOM_PATHS.files(room.uuid), { name: 'plain.txt', size: 10 }],
      ['PATCH', ROOM_PATHS.room(room.uuid), { name: 'Plain' }],
      ['GET', `/rooms/${room.uuid}/search?q=plan`, undefined],
    ] as const) {
      const error = await expectBackendError(await req(server, a.owner, method, path, body), 409, 'ConflictException');
      expect(error.metadata, `${method} ${path}`).toMatchObject({ reason: 'encryptedRoom' });
    }
    const plain = await json<Room>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name: 'Plain for E2E calls' }), 201);
    expect((await expectBackendError(await req(server, a.owner, 'GET', ROOM_E2E_PATHS.state(plain.uuid)), 409, 'ConflictException')).metadata).toMatchObject({ reason: 'notEncrypted' });
  });
});

describe('roles in an E2E room (SPEC §6)', () => {
  it('every member reads names, verifies the signed metadata and decrypts bit-exact; VIEWER and PREVIEWER cannot write; PREVIEWER gets no bytes; outsiders see nothing', async () => {
    const r = await populatedRoom('Roles');
    for (const name of ['owner', 'editor', 'viewer'] as const) {
      const top = await readE2eFolder(server, a[name], r.room.uuid);
      expect(top.roomName).toBe(`Roles ${NAME_MARKER}`);
      expect([...top.folders.keys()]).toEqual([`Contracts ${NAME_MARKER}`]);
      const notes = top.files.get(`Editor notes ${NAME_MARKER}.txt`)!;
      expect(sha256Hex(notes.bytes)).toBe(sha256Hex(r.editorBytes));
      // The signed metadata names the uploader.
      expect(notes.metadata).toMatchObject({ uploaderUserId: a.editor.userUuid, uploaderEmail: email('editor'), size: r.editorBytes.length });
      const inner = await readE2eFolder(server, a[name], r.room.uuid, r.folder.uuid);
      expect(sha256Hex(inner.files.get(`Owner plan ${NAME_MARKER}.pdf`)!.bytes)).toBe(sha256Hex(r.ownerBytes));
    }
    // PREVIEWER: names and metadata yes, bytes no.
    const preview = await readE2eFolder(server, a.previewer, r.room.uuid, undefined, { download: false });
    expect([...preview.files.keys()]).toEqual([`Editor notes ${NAME_MARKER}.txt`]);
    await expect(readE2eFolder(server, a.previewer, r.room.uuid)).rejects.toMatchObject({ status: 403 });
    // VIEWER and PREVIEWER cannot upload or create folders, even with the room key.
    for (const name of ['viewer', 'previewer'] as const) {
      const { handle } = await openRoomKey(server, a[name], r.room.uuid);
      const upload = await uploadE2eFile(server, a[name], r.room.uuid, handle, { name: 'sneaky.txt', bytes: markedFile(100), partSize: PART_SIZE });
      await expectBackendError(upload.announce, 403, 'AccessDeniedException');
      await expectBackendError(await createE2eFolder(server, a[name], r.room.uuid, handle, 'sneaky'), 403, 'AccessDeniedException');
    }
    // Only OWNERs list members or grant.
    await expectBackendError(await req(server, a.editor, 'GET', ROOM_E2E_PATHS.members(r.room.uuid)), 403, 'AccessDeniedException');
    await expectBackendError(await req(server, a.editor, 'PUT', ROOM_E2E_PATHS.grant(r.room.uuid, a.viewer.userUuid), { approve: false }), 403, 'AccessDeniedException');
    // Outsiders and anonymous callers.
    for (const path of [ROOM_E2E_PATHS.state(r.room.uuid), ROOM_E2E_PATHS.files(r.room.uuid), ROOM_E2E_PATHS.members(r.room.uuid)]) {
      const denied = await expectBackendError(await req(server, a.outsider, 'GET', path), 404, 'NotFoundException');
      expect(JSON.stringify(denied)).not.toContain('r1.');
      await expectBackendError(await call(server, null, 'GET', `/api/2${path}`), 401, 'AuthenticationRequiredException');
    }
  }, 120_000);
});

describe('renaming an E2E room (SPEC §2 breadcrumb menu, SPEC §6 OWNER)', () => {
  it('the OWNER replaces the sealed room name (stored as sent, read back decrypted); EDITOR and VIEWER 403, outsiders 404, a plain name 400', async () => {
    const { room } = await createE2eRoom(server, a.owner, `Before ${NAME_MARKER}`);
    for (const [name, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER']] as const) {
      await json(await share(room, name, role), 200);
      await json(await grant(server, a.owner, room.uuid, a[name].userUuid), 200);
    }
    const storedName = async () => (await server.app.db.selectFrom('data_rooms').select('name').where('uuid', '=', room.uuid).executeTakeFirstOrThrow()).name;
    const sealedBy = async (actor: E2eActor, name: string) => {
      const { handle } = await openRoomKey(server, actor, room.uuid);
      return (await actor.crypto.encryptRoomNames({ roomKey: handle, roomId: room.uuid, items: [{ kind: 'room', itemId: room.uuid, name }] })).sealed[0]!;
    };
    const before = await storedName();
    // Members with the room key could seal a name, but only an OWNER may set it (as the plain rename).
    for (const name of ['editor', 'viewer'] as const) {
      const body = { name: await sealedBy(a[name], `By ${name}`) };
      await expectBackendError(await req(server, a[name], 'PATCH', ROOM_E2E_PATHS.item(room.uuid, room.uuid), body), 403, 'AccessDeniedException');
    }
    const foreign = await expectBackendError(await req(server, a.outsider, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, room.uuid), { name: before }), 404, 'NotFoundException');
    expect(JSON.stringify(foreign)).not.toContain('r1.');
    // Not a sealed string: refused by the schema, as for folders and files.
    await expectBackendError(await req(server, a.owner, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, room.uuid), { name: 'After in plain text' }), 400, 'ValidationException');
    expect(await storedName()).toBe(before);

    const sealed = await sealedBy(a.owner, `After ${NAME_MARKER}`);
    expect((await req(server, a.owner, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, room.uuid), { name: sealed })).status).toBe(204);
    expect(await storedName()).toBe(sealed);
    for (const name of ['owner', 'editor', 'viewer'] as const) expect((await readE2eFolder(server, a[name], room.uuid, undefined, { download: false })).roomName).toBe(`After ${NAME_MARKER}`);
  }, 120_000);
});

describe('grant after a late activation (SPEC §4 grant-access progress)', () => {
  it('noSecuPass → pending (missing file key) → not approved → approved; then the member reads and downloads', async () => {
    const r = await populatedRoom('Late');
    await json(await share(r.room, 'late', 'EDITOR'), 200);
    expect(await memberOf(r.room, 'late')).toMatchObject({ state: 'noSecuPass', encryptionNotActivated: true, missingFileKey: false, keys: [] });
    expect((await expectBackendError(await req(server, a.owner, 'PUT', ROOM_E2E_PATHS.grant(r.room.uuid, a.late.userUuid), { approve: true }), 400, 'ValidationException')).metadata).toMatchObject({ reason: 'encryptionNotActivated' });

    await giveSecuPass(a.late, 'late-SecuPass-rooms-e2e-Marble-8');
    expect(await memberOf(r.room, 'late')).toMatchObject({ state: 'pending', encryptionNotActivated: false, missingFileKey: true });
    const own = await json<E2eRoomState>(await req(server, a.late, 'GET', ROOM_E2E_PATHS.state(r.room.uuid)), 200);
    expect(own).toMatchObject({ state: 'pending', roomKey: null });

    await json(await req(server, a.owner, 'PUT', ROOM_E2E_PATHS.grant(r.room.uuid, a.late.userUuid), { approve: false }), 200);
    expect((await json<E2eRoomState>(await req(server, a.late, 'GET', ROOM_E2E_PATHS.state(r.room.uuid)), 200)).state).toBe('notApproved');
    // A copy for a key that is not the member's live one is refused.
    const { handle } = await openRoomKey(server, a.owner, r.room.uuid);
    const wrong = await a.owner.crypto.wrapRoomKey({ roomKey: handle, roomId: r.room.uuid, recipientPublicKey: a.outsider.keys!.encryption.publicKey });
    const refused = await req(server, a.owner, 'PUT', ROOM_E2E_PATHS.grant(r.room.uuid, a.late.userUuid), { approve: true, recipientKeyId: wrong.recipientKeyId, wrappedKey: wrong });
    expect((await expectBackendError(refused, 400, 'ValidationException')).metadata).toMatchObject({ reason: 'recipientKeyNotLive' });

    const granted = await json<E2eMember>(await grant(server, a.owner, r.room.uuid, a.late.userUuid), 200);
    expect(granted).toMatchObject({ state: 'approved', missingFileKey: false, role: 'EDITOR' });
    const inner = await readE2eFolder(server, a.late, r.room.uuid, r.folder.uuid);
    expect(sha256Hex(inner.files.get(`Owner plan ${NAME_MARKER}.pdf`)!.bytes)).toBe(sha256Hex(r.ownerBytes));
  }, 120_000);
});

describe('SecuPass reset and trash', () => {
  it('a member’s SecuPass reset invalidates the copy (back to no key); deleted E2E files go to the trash and come back readable', async () => {
    const r = await populatedRoom('Reset');
    expect((await memberOf(r.room, 'viewer')).state).toBe('approved');
    await json(await call(server, admin, 'POST', `/api/2/admin/users/${a.viewer.userUuid}/secupass/reset`), 204);
    expect(await memberOf(r.room, 'viewer')).toMatchObject({ state: 'noSecuPass', missingFileKey: false, encryptionNotActivated: true });
    expect(await json<E2eRoomState>(await req(server, a.viewer, 'GET', ROOM_E2E_PATHS.state(r.room.uuid)), 200)).toMatchObject({ state: 'noSecuPass', roomKey: null });
    // A new SecuPass: pending until an OWNER grants again.
    await giveSecuPass(a.viewer, 'viewer-SecuPass-rooms-e2e-Marble-9');
    expect((await memberOf(r.room, 'viewer')).state).toBe('pending');
    // The owner's pin check refuses the new key until she compared fingerprints.
    await expect(grant(server, a.owner, r.room.uuid, a.viewer.userUuid)).rejects.toMatchObject({ code: 'contact-key-changed' });
    await json(await grant(server, a.owner, r.room.uuid, a.viewer.userUuid, { confirmChangedKey: true }), 200);

    await json(await req(server, a.editor, 'DELETE', `/rooms/${r.room.uuid}/files/${r.editorFile.uuid}`), 204);
    expect((await readE2eFolder(server, a.viewer, r.room.uuid)).files.size).toBe(0);
    const trash = await json<{ entries: { uuid: string; name: string }[] }>(await req(server, a.owner, 'GET', `/rooms/${r.room.uuid}/trash`), 200);
    expect(trash.entries.find((e) => e.uuid === r.editorFile.uuid)?.name).toMatch(/^r1\./);
    await json(await req(server, a.owner, 'POST', `/rooms/${r.room.uuid}/trash/${r.editorFile.uuid}/restore`), 204);
    const back = await readE2eFolder(server, a.viewer, r.room.uuid);
    expect(sha256Hex(back.files.get(`Editor notes ${NAME_MARKER}.txt`)!.bytes)).toBe(sha256Hex(r.editorBytes));
  }, 120_000);
});

describe('what the reader detects when the server changes things', () => {
  it('a moved name, a changed size, a swapped file key, another file’s metadata: each its own error', async () => {
    const r = await populatedRoom('Tamper');
    const db = server.app.db;
    const row = async (uuid: string) => db.selectFrom('room_files').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();
    const ownerRow = await row(r.ownerFile.uuid);
    const editorRow = await row(r.editorFile.uuid);
    const e2eOf = async (id: number) => db.selectFrom('room_e2e_files').selectAll().where('file_id', '=', id).executeTakeFirstOrThrow();
    const ownerE2e = await e2eOf(ownerRow.id);
    const editorE2e = await e2eOf(editorRow.id);
    const read = () => readE2eFolder(server, a.viewer, r.room.uuid);

    // The folder's sealed name copied onto the file: it does not open for the file.
    const folderName = (await db.selectFrom('room_folders').select('name').where('uuid', '=', r.folder.uuid).executeTakeFirstOrThrow()).name;
    await db.updateTable('room_files').set({ name: folderName }).where('id', '=', editorRow.id).execute();
    await expect(read()).rejects.toMatchObject({ code: 'room-name-invalid' });
    await db.updateTable('room_files').set({ name: editorRow.name }).where('id', '=', editorRow.id).execute();

    // A changed plaintext size: the signed size differs.
    await db.updateTable('room_e2e_files').set({ plaintext_size: Number(editorE2e.plaintext_size) - 1 }).where('file_id', '=', editorRow.id).execute();
    await expect(read()).rejects.toMatchObject({ code: 'room-metadata-mismatch' });
    await db.updateTable('room_e2e_files').set({ plaintext_size: editorE2e.plaintext_size }).where('file_id', '=', editorRow.id).execute();

    // Another file's key.
    await db.updateTable('room_e2e_files').set({ wrapped_file_key: ownerE2e.wrapped_file_key }).where('file_id', '=', editorRow.id).execute();
    await expect(read()).rejects.toMatchObject({ code: 'room-file-key-unwrap-failed' });
    await db.updateTable('room_e2e_files').set({ wrapped_file_key: editorE2e.wrapped_file_key }).where('file_id', '=', editorRow.id).execute();

    // Another file's metadata.
    await db.updateTable('room_e2e_files').set({ metadata: ownerE2e.metadata }).where('file_id', '=', editorRow.id).execute();
    await expect(read()).rejects.toMatchObject({ code: 'room-metadata-invalid' });
    await db.updateTable('room_e2e_files').set({ metadata: editorE2e.metadata }).where('file_id', '=', editorRow.id).execute();

    // The server claims another uploader: the key the signature names is not that user's.
    await db.updateTable('room_files').set({ uploaded_by: ownerRow.uploaded_by }).where('id', '=', editorRow.id).execute();
    await expect(read()).rejects.toThrow(/signing key is not listed/);
    await db.updateTable('room_files').set({ uploaded_by: editorRow.uploaded_by }).where('id', '=', editorRow.id).execute();

    // Restored: reads again.
    expect(sha256Hex((await read()).files.get(`Editor notes ${NAME_MARKER}.txt`)!.bytes)).toBe(sha256Hex(r.editorBytes));
  }, 120_000);
});

describe('at rest', () => {
  it('no plaintext name or byte in the blob folder, any table or any mail', async () => {
    await populatedRoom('At rest');
    const needles = [NAME_MARKER, FILE_MARKER];
    const tables = await server.app.db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['room_files', 'room_e2e_files', 'access_descriptors', 'room_activity']));
    const hits = await markersAtRest(server, needles);
    for (const mail of await readMailbox(server.mailboxDir)) {
      for (const needle of needles) if (`${mail.subject}\n${mail.text}\n${mail.html}`.includes(needle)) hits.push(`mail ${mail.id}: ${needle}`);
    }
    expect(hits).toEqual([]);
  }, 120_000);
});
