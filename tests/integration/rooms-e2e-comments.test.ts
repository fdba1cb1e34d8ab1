import { ROOM_COMMENT_PATHS, ROOM_COMMENT_WIRE_MAX, type RoomComment, type RoomCommentList } from '@shared/contract/room-comments';
import type { RoomActivityList } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS, type E2eFileKeysList, type E2eRoomState } from '@shared/contract/rooms-e2e';
import type { RoomCommentRef } from '@shared/crypto/room-comments';
import { roomCommentSignerKeyId } from '@shared/crypto/room-comments';
import { roomFolderLabelsSignerKeyId, type RoomFolderLabels } from '@shared/crypto/room-folder-labels';
import type { E2eFolderLabelsList } from '@shared/contract/rooms-e2e-folder-labels';
import { verifiedContactKey } from '@shared/transfer/e2e';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBackendError, signInAdmin } from './core-helpers';
import { e2eActorsWithSecuPass, e2eOf, type E2eActor } from './e2e-helpers';
import { createE2eFolder, createE2eRoom, grant, json, markersAtRest, openRoomKey, renameE2eFileBody, req, uploadE2eFile } from './rooms-e2e-helpers';

/**
 * Comments in Secure (E2E) rooms (issue 31 §1; shared/crypto/README.md section 7 "Comments"): the
 * text is sealed with the room key and signed by its author with the real CryptoService (the code of
 * the browser Worker); the server keeps ciphertext and signature only. The SPEC §6 roles per route
 * (denial and success), a reader refusing a comment the server moved, bad input in the SPEC §8
 * shape, and a marker written as comment text and file name found in no table row and no blob.
 * Runs on SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

const PART_SIZE = 1024;
const COMMENT_MARKER = 'COMMENT-MARKER-5f1c0d-secure-room';
const NAME_MARKER = 'NAME-MARKER-9a7e22-secure-comments';
const who = ['owner', 'editor', 'viewer', 'previewer', 'outsider'] as const;
type Who = (typeof who)[number];
const email = (name: string) => `${name}@rooms-e2e-comments.test`;

let server: TestServer;
let a: Record<Who, E2eActor>;
let room: Room;
let fileUuid: string;
let folderUuid: string;
const roomKeys = new Map<Who, string>();

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  a = await e2eActorsWithSecuPass(server, await signInAdmin(server), who, email, (name) => `${name}-SecuPass-e2e-comments-Quartz-4`);
  room = (await createE2eRoom(server, a.owner, 'Comments room')).room;
  for (const [name, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(name), role }), 200);
    await json(await grant(server, a.owner, room.uuid, a[name].userUuid), 200);
  }
  for (const name of ['owner', 'editor', 'viewer', 'previewer'] as const) roomKeys.set(name, (await openRoomKey(server, a[name], room.uuid)).handle);
  folderUuid = (await json<{ uuid: string }>(await createE2eFolder(server, a.owner, room.uuid, roomKeys.get('owner')!, 'Contracts'), 201)).uuid;
  // Only the OWNER uploads: the EDITOR signs comments alone, and readers must still find her key.
  const uploaded = await uploadE2eFile(server, a.owner, room.uuid, roomKeys.get('owner')!, { name: `Offer ${NAME_MARKER}.pdf`, bytes: new Uint8Array(3000).fill(7), partSize: PART_SIZE });
  fileUuid = uploaded.file!.uuid;
}, 240_000);
afterAll(() => server?.close());

type Target = { fileUuid: string } | { folderUuid: string };
const refOf = (target: Target, authorUserId: string): RoomCommentRef =>
  'fileUuid' in target ? { roomId: room.uuid, kind: 'file', itemId: target.fileUuid, authorUserId } : { roomId: room.uuid, kind: 'folder', itemId: target.folderUuid, authorUserId };

/** What the web client sends: the text sealed with the room key and signed with the author's key. */
async function sealed(name: Who, target: Target, text: string) {
  const actor = a[name];
  return actor.crypto.sealRoomComment({ roomKey: roomKeys.get(name)!, signingKey: actor.keys!.signing.handle, ref: refOf(target, actor.userUuid), text, writtenAt: new Date().toISOString() });
}

const add = async (name: Who, target: Target, text: string) => json<RoomComment>(await req(server, a[name], 'POST', ROOM_COMMENT_PATHS.list(room.uuid), { ...target, ...(await sealed(name, target, text)) }), 201);
const query = (target: Target) => ('fileUuid' in target ? `fileUuid=${target.fileUuid}` : `folderUuid=${target.folderUuid}`);

/** What a reader sees: each comment verified with its author's pinned key and opened (or the code why not). */
async function read(name: Exclude<Who, 'outsider'>, target: Target): Promise<(string | { problem: string })[]> {
  const actor = a[name];
  const list = await json<RoomCommentList>(await req(server, actor, 'GET', `${ROOM_COMMENT_PATHS.list(room.uuid)}?${query(target)}`), 200);
  const state = await json<E2eRoomState>(await req(server, actor, 'GET', `/rooms/${room.uuid}/e2e`), 200);
  const items = [];
  for (const comment of list.comments) {
    const author = state.signers.find((s) => s.userUuid === comment.author?.uuid);
    const key = author?.keys.find((k) => k.usage === 'signing' && k.keyId === roomCommentSignerKeyId(comment.signature ?? ''));
    if (!author || !key) throw new Error(`the room state lists no key for ${comment.author?.email}`);
    const pinned = await verifiedContactKey(actor.client, e2eOf(actor), { email: author.email, userUuid: author.userUuid, usage: 'signing', keyId: key.keyId, publicKey: key.publicKey });
    items.push({ ref: refOf(target, author.userUuid), text: comment.text, signature: comment.signature!, signerPublicKey: pinned.publicKey });
  }
  const { results } = await actor.crypto.openRoomComments({ roomKey: roomKeys.get(name)!, items });
  return results.map((r) => (r.ok ? r.value.text : { problem: r.code }));
}

describe('comments in a Secure room', () => {
  it('OWNER and EDITOR add sealed comments; every member reads and verifies them; the server holds ciphertext only', async () => {
    const first = await add('owner', { fileUuid }, 'Please check the price.');
    expect(first.text).toMatch(/^r1\./);
    expect(first.text).not.toContain('price');
    expect(first.signature).toMatch(/^[A-Za-z0-9_-]+\./);
    await add('editor', { fileUuid }, 'Price checked.');
    await add('editor', { folderUuid }, 'All signed contracts go here.');
    for (const name of ['owner', 'editor', 'viewer', 'previewer'] as const) {
      expect(await read(name, { fileUuid })).toEqual(['Please check the price.', 'Price checked.']);
      expect(await read(name, { folderUuid })).toEqual(['All signed contracts go here.']);
    }
  });

  it('roles: VIEWER and PREVIEWER cannot write, an outsider cannot read; the author edits her own, an EDITOR cannot touch the OWNER’s, the OWNER deletes any', async () => {
    const owners = await add('owner', { fileUuid }, 'Owner remark');
    const editors = await add('editor', { fileUuid }, 'Editor remark');
    for (const name of ['viewer', 'previewer'] as const) {
      await expectBackendError(await req(server, a[name], 'POST', ROOM_COMMENT_PATHS.list(room.uuid), { fileUuid, ...(await sealed('editor', { fileUuid }, 'x')) }), 403, 'AccessDeniedException');
      await expectBackendError(await req(server, a[name], 'DELETE', ROOM_COMMENT_PATHS.one(room.uuid, editors.uuid)), 403, 'AccessDeniedException');
      await expectBackendError(await req(server, a[name], 'PATCH', ROOM_COMMENT_PATHS.one(room.uuid, editors.uuid), await sealed('editor', { fileUuid }, 'x')), 403, 'AccessDeniedException');
    }
    // Not a member: the room is not there for her (no hint that it exists).
    await expectBackendError(await req(server, a.outsider, 'GET', `${ROOM_COMMENT_PATHS.list(room.uuid)}?fileUuid=${fileUuid}`), 404, 'NotFoundException');

    const notAuthor = await expectBackendError(await req(server, a.editor, 'PATCH', ROOM_COMMENT_PATHS.one(room.uuid, owners.uuid), await sealed('editor', { fileUuid }, 'Hijacked')), 403, 'AccessDeniedException');
    expect(notAuthor.metadata?.reason).toBe('notCommentAuthor');
    await expectBackendError(await req(server, a.editor, 'DELETE', ROOM_COMMENT_PATHS.one(room.uuid, owners.uuid)), 403, 'AccessDeniedException');

    const edited = await json<RoomComment>(await req(server, a.editor, 'PATCH', ROOM_COMMENT_PATHS.one(room.uuid, editors.uuid), await sealed('editor', { fileUuid }, 'Editor remark, revised')), 200);
    expect(edited.text).not.toBe(editors.text);
    expect((await read('viewer', { fileUuid })).slice(-2)).toEqual(['Owner remark', 'Editor remark, revised']);
    const removed = await req(server, a.owner, 'DELETE', ROOM_COMMENT_PATHS.one(room.uuid, editors.uuid));
    expect(removed.status).toBe(204);
    expect((await read('viewer', { fileUuid })).at(-1)).toBe('Owner remark');
    expect((await req(server, a.owner, 'DELETE', ROOM_COMMENT_PATHS.one(room.uuid, owners.uuid))).status).toBe(204);
  });

  it('a comment the server moves to another item or hands to another author does not verify for the reader', async () => {
    const moved = await add('editor', { fileUuid }, 'Belongs to the file');
    const db = server.app.db;
    const folderRow = await db.selectFrom('room_folders').select('id').where('uuid', '=', folderUuid).executeTakeFirstOrThrow();
    await db.updateTable('room_comments').set({ file_id: null, folder_id: folderRow.id }).where('uuid', '=', moved.uuid).execute();
    expect((await read('viewer', { folderUuid })).at(-1)).toEqual({ problem: 'room-comment-invalid' });

    const stolen = await add('editor', { fileUuid }, 'Mine');
    const ownerRow = await db.selectFrom('users').select('id').where('uuid', '=', a.owner.userUuid).executeTakeFirstOrThrow();
    // Shown as the OWNER's: her key does not verify the EDITOR's signature (a key id she does not have is refused earlier).
    await db.updateTable('room_comments').set({ author_id: ownerRow.id }).where('uuid', '=', stolen.uuid).execute();
    await expect(read('viewer', { fileUuid })).rejects.toThrow(/no key/);
    await db.deleteFrom('room_comments').where('uuid', 'in', [moved.uuid, stolen.uuid]).execute();
  });

  it('bad input answers 400 in the SPEC §8 shape: unsigned, empty, over the wire limit, wrong types, no item', async () => {
    const post = (body: unknown) => req(server, a.owner, 'POST', ROOM_COMMENT_PATHS.list(room.uuid), body);
    const unsigned = await expectBackendError(await post({ fileUuid, text: 'plain text in a Secure room' }), 400, 'ValidationException');
    expect(unsigned.metadata).toMatchObject({ field: 'signature', reason: 'signatureRequired' });
    const empty = await expectBackendError(await post({ fileUuid, text: '', signature: 'k.s' }), 400, 'ValidationException');
    expect(empty.metadata?.reason).toBe('signatureRequired');
    await expectBackendError(await post({ fileUuid, text: 'r1.' + 'A'.repeat(ROOM_COMMENT_WIRE_MAX), signature: 'k.s' }), 400, 'ValidationException');
    await expectBackendError(await post({ fileUuid, text: 'r1.x', signature: 'k.' + 's'.repeat(2000) }), 400, 'ValidationException');
    await expectBackendError(await post({ fileUuid, text: 42, signature: 'k.s' }), 400, 'ValidationException');
    await expectBackendError(await post({ ...(await sealed('owner', { fileUuid }, 'no item')) }), 400, 'ValidationException');
    const patched = await add('owner', { fileUuid }, 'to be patched');
    await expectBackendError(await req(server, a.owner, 'PATCH', ROOM_COMMENT_PATHS.one(room.uuid, patched.uuid), { text: 'unsigned edit' }), 400, 'ValidationException');
  });
});

describe('classification and file status of a Secure room file (signed metadata)', () => {
  const FILE_NAME = `Offer ${NAME_MARKER}.pdf`;
  const relabel = async (name: Exclude<Who, 'outsider'>, labels: { classification?: 'confidential' | 'public'; status?: 'toDo' | 'none' }, labelChanges: string[]) =>
    req(server, a[name], 'PATCH', ROOM_E2E_PATHS.item(room.uuid, fileUuid), { ...(await renameE2eFileBody(server, a[name], room.uuid, roomKeys.get(name)!, fileUuid, FILE_NAME, undefined, undefined, labels)), labelChanges });
  const labelActivity = async () =>
    (await json<RoomActivityList>(await req(server, a.owner, 'GET', `${ROOM_PATHS.activity(room.uuid)}?fileUuid=${fileUuid}`), 200)).entries
      .filter((e) => e.kind.startsWith('classification') || e.kind.startsWith('status') || e.kind === 'edit')
      .map((e) => [e.kind, e.detail])
      .reverse();

  it('an EDITOR signs them into the metadata; the activity names the SPEC §4 types without the values; readers open them', async () => {
    expect((await relabel('editor', { classification: 'confidential', status: 'toDo' }, ['classification_set', 'status_set'])).status).toBe(204);
    expect((await relabel('owner', { classification: 'public', status: 'none' }, ['classification_changed', 'status_removed'])).status).toBe(204);
    expect(await labelActivity()).toEqual([
      ['classification_set', null],
      ['status_set', null],
      ['classification_changed', null],
      ['status_removed', null],
    ]);
    // What a VIEWER reads: the values as the OWNER signed them last.
    const keys = await json<E2eFileKeysList>(await req(server, a.viewer, 'GET', ROOM_E2E_PATHS.files(room.uuid)), 200);
    const extra = keys.files.find((f) => f.uuid === fileUuid)!;
    const opened = await a.viewer.crypto.openRoomFileMetadata({ roomKey: roomKeys.get('viewer')!, file: { roomId: room.uuid, fileId: fileUuid, version: extra.version }, sealed: extra.metadata });
    expect(opened.metadata).toMatchObject({ classification: 'public', status: 'none', name: FILE_NAME });
  });

  it('VIEWER and PREVIEWER cannot; a folder or the room carries none; bad changes answer 400', async () => {
    for (const name of ['viewer', 'previewer'] as const) await expectBackendError(await relabel(name, { classification: 'public' }, ['classification_set']), 403, 'AccessDeniedException');
    const sealedFolderName = (await a.owner.crypto.encryptRoomNames({ roomKey: roomKeys.get('owner')!, roomId: room.uuid, items: [{ kind: 'folder', itemId: folderUuid, name: 'Contracts' }] })).sealed[0];
    await expectBackendError(await req(server, a.owner, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, folderUuid), { name: sealedFolderName, labelChanges: ['status_set'] }), 400, 'ValidationException');
    await expectBackendError(await req(server, a.owner, 'PATCH', ROOM_E2E_PATHS.item(room.uuid, room.uuid), { name: sealedFolderName, labelChanges: ['status_set'] }), 400, 'ValidationException');
    await expectBackendError(await relabel('owner', { status: 'toDo' }, ['status_set', 'status_changed']), 400, 'ValidationException');
    await expectBackendError(await relabel('owner', { status: 'toDo' }, ['secret_set']), 400, 'ValidationException');
    await expectBackendError(await relabel('owner', { status: 'toDo' }, []), 400, 'ValidationException');
  });
});

describe('classification and status of a Secure room folder (README section 7 "Folder labels")', () => {
  const put = async (name: Exclude<Who, 'outsider'>, labels: RoomFolderLabels, labelChanges: string[], target = folderUuid) => {
    const actor = a[name];
    const wire = await actor.crypto.sealRoomFolderLabels({ roomKey: roomKeys.get(name)!, signingKey: actor.keys!.signing.handle, ref: { roomId: room.uuid, folderId: target, signerUserId: actor.userUuid }, labels });
    return req(server, actor, 'PUT', `/rooms/${room.uuid}/e2e/folders/${target}/labels`, { ...wire, labelChanges });
  };
  /** What a reader sees of the top level's folders: each record verified with its signer's pinned key and opened (or the code why not). */
  async function readFolders(name: Exclude<Who, 'outsider'>): Promise<Record<string, unknown>> {
    const actor = a[name];
    const list = await json<E2eFolderLabelsList>(await req(server, actor, 'GET', `/rooms/${room.uuid}/e2e/folder-labels`), 200);
    const state = await json<E2eRoomState>(await req(server, actor, 'GET', `/rooms/${room.uuid}/e2e`), 200);
    const items = [];
    for (const record of list.folders) {
      const signer = state.signers.find((s) => s.userUuid === record.signerUuid)!;
      const key = signer.keys.find((k) => k.usage === 'signing' && k.keyId === roomFolderLabelsSignerKeyId(record.signature))!;
      const pinned = await verifiedContactKey(actor.client, e2eOf(actor), { email: signer.email, userUuid: signer.userUuid, usage: 'signing', keyId: key.keyId, publicKey: key.publicKey });
      items.push({ ref: { roomId: room.uuid, folderId: record.uuid, signerUserId: signer.userUuid }, labels: record.labels, signature: record.signature, signerPublicKey: pinned.publicKey });
    }
    const { results } = await actor.crypto.openRoomFolderLabels({ roomKey: roomKeys.get(name)!, items });
    return Object.fromEntries(list.folders.map((f, i) => {
      const r = results[i]!;
      return [f.uuid, r.ok ? { classification: r.value.classification, status: r.value.status, counter: r.value.counter } : { problem: r.code }];
    }));
  }
  const folderActivity = async () =>
    (await json<RoomActivityList>(await req(server, a.owner, 'GET', ROOM_PATHS.activity(room.uuid)), 200)).entries
      .filter((e) => e.item.uuid === folderUuid && (e.kind.startsWith('classification') || e.kind.startsWith('status')))
      .map((e) => [e.kind, e.detail])
      .reverse();

  it('an EDITOR seals and signs them, the OWNER changes them; every member verifies the last record; the activity has the types without values; the row is ciphertext', async () => {
    const signedAt = new Date().toISOString();
    expect((await put('editor', { classification: 'confidential', status: 'toDo', counter: 1, signedAt }, ['classification_set', 'status_set'])).status).toBe(204);
    expect((await put('owner', { classification: 'internal', counter: 2, signedAt }, ['classification_changed', 'status_removed'])).status).toBe(204);
    for (const name of ['owner', 'editor', 'viewer', 'previewer'] as const) expect(await readFolders(name)).toEqual({ [folderUuid]: { classification: 'internal', status: undefined, counter: 2 } });
    expect(await folderActivity()).toEqual([['classification_set', null], ['status_set', null], ['classification_changed', null], ['status_removed', null]]);
    const row = JSON.stringify(await server.app.db.selectFrom('room_e2e_folder_labels').selectAll().execute());
    expect(row).not.toMatch(/internal|confidential|toDo/);
  });

  it('roles: VIEWER and PREVIEWER cannot set them, an outsider cannot list them; a plain room answers 409; bad bodies 400', async () => {
    const signedAt = new Date().toISOString();
    for (const name of ['viewer', 'previewer'] as const) await expectBackendError(await put(name, { status: 'done', counter: 3, signedAt }, ['status_set']), 403, 'AccessDeniedException');
    await expectBackendError(await req(server, a.outsider, 'GET', `/rooms/${room.uuid}/e2e/folder-labels`), 404, 'NotFoundException');
    const good = await a.owner.crypto.sealRoomFolderLabels({ roomKey: roomKeys.get('owner')!, signingKey: a.owner.keys!.signing.handle, ref: { roomId: room.uuid, folderId: folderUuid, signerUserId: a.owner.userUuid }, labels: { status: 'done', counter: 3, signedAt } });
    const path = `/rooms/${room.uuid}/e2e/folders/${folderUuid}/labels`;
    for (const body of [{ ...good }, { ...good, labelChanges: [] }, { ...good, labelChanges: ['status_set', 'status_changed'] }, { ...good, labels: 'plain', labelChanges: ['status_set'] }, { ...good, signature: 'no separator', labelChanges: ['status_set'] }]) {
      await expectBackendError(await req(server, a.owner, 'PUT', path, body), 400, 'ValidationException');
    }
    await expectBackendError(await req(server, a.owner, 'PUT', `/rooms/${room.uuid}/e2e/folders/${crypto.randomUUID()}/labels`, { ...good, labelChanges: ['status_set'] }), 404, 'NotFoundException');
    const plain = await json<{ uuid: string }>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name: 'Plain labels room' }), 201);
    await expectBackendError(await req(server, a.owner, 'GET', `/rooms/${plain.uuid}/e2e/folder-labels`), 409, 'ConflictException');
  });

  it('a record the server moves to another folder, hands to another signer or rolls back is refused or detected by the reader', async () => {
    const db = server.app.db;
    const other = (await json<{ uuid: string }>(await createE2eFolder(server, a.owner, room.uuid, roomKeys.get('owner')!, 'Drafts'), 201)).uuid;
    const signedAt = new Date().toISOString();
    expect((await put('editor', { classification: 'public', counter: 1, signedAt }, ['classification_set'], other)).status).toBe(204);
    const ids = Object.fromEntries((await db.selectFrom('room_folders').select(['id', 'uuid']).where('uuid', 'in', [folderUuid, other]).execute()).map((r) => [r.uuid, r.id]));
    const before = await db.selectFrom('room_e2e_folder_labels').selectAll().where('folder_id', '=', ids[folderUuid]!).executeTakeFirstOrThrow();
    const drafts = await db.selectFrom('room_e2e_folder_labels').selectAll().where('folder_id', '=', ids[other]!).executeTakeFirstOrThrow();
    // The "public" record of Drafts shown on the confidential folder: its signature binds the folder.
    await db.updateTable('room_e2e_folder_labels').set({ labels: drafts.labels, signature: drafts.signature, signed_by: drafts.signed_by }).where('folder_id', '=', ids[folderUuid]!).execute();
    expect((await readFolders('viewer'))[folderUuid]).toEqual({ problem: 'room-metadata-signature-invalid' });
    // The EDITOR's record shown as the OWNER's: her key does not verify it (the key id is not hers either).
    const ownerId = (await db.selectFrom('users').select('id').where('uuid', '=', a.owner.userUuid).executeTakeFirstOrThrow()).id;
    await db.updateTable('room_e2e_folder_labels').set({ signed_by: ownerId }).where('folder_id', '=', ids[other]!).execute();
    await expect(readFolders('viewer')).rejects.toThrow();
    await db.updateTable('room_e2e_folder_labels').set({ ...before }).where('folder_id', '=', ids[folderUuid]!).execute();
    await db.updateTable('room_e2e_folder_labels').set({ ...drafts }).where('folder_id', '=', ids[other]!).execute();
    // An older genuine record served again opens, with its lower counter: the reader compares it with the highest she saw.
    expect((await readFolders('viewer'))[folderUuid]).toMatchObject({ counter: 2 });
  });
});

describe('at rest', () => {
  it('a marker written as a comment (and as a file name) is in no table row and no blob', async () => {
    await add('editor', { fileUuid }, `Remark ${COMMENT_MARKER}`);
    await add('owner', { folderUuid }, `Folder remark ${COMMENT_MARKER}`);
    expect((await read('viewer', { fileUuid })).at(-1)).toBe(`Remark ${COMMENT_MARKER}`);
    const tables = (await server.app.db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(['room_comments', 'room_files', 'room_activity']));
    expect(await markersAtRest(server, [COMMENT_MARKER, NAME_MARKER])).toEqual([]);
  });
});
