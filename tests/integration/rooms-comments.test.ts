import { ROOM_COMMENT_MAX, ROOM_COMMENT_PATHS, type RoomComment, type RoomCommentList } from '@shared/contract/room-comments';
import type { RoomActivityList, RoomSearchResult } from '@shared/contract/room-files';
import type { RoomsSearchResult } from '@shared/contract/room-search';
import { ROOM_PATHS, type Room, type RoomContents, type RoomFolder } from '@shared/contract/rooms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { createPlainRoom, roomCall, uploadRoomFile } from './room-upload-helpers';

/**
 * Comments, classification and file status in plain rooms (issue 31 §1; server/README "Comments,
 * classification and file status"): the comment list (oldest first, author, own), editing and
 * deleting one's own, an OWNER deleting anyone's, the length rule in the SPEC §8 error shape, the
 * classification and status changes with their SPEC §4 activity types, and the room search by them.
 * Who may call each route at all is proven in rooms-role-matrix.test.ts. Runs on SQLite, and on
 * PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

let server: TestServer;
let owner: Session;
let editor: Session;
let viewer: Session;
let room: Room;
let folder: RoomFolder;
let fileUuid: string;
const PASSWORD = 'Good-Passw0rd';
const email = (who: string) => `${who}@room-comments.test`;
const api = (path: string) => `/api/2${path}`;

const comments = (session: Session, query: string) => roomCall<RoomCommentList>(server, session, 'GET', `${ROOM_COMMENT_PATHS.list(room.uuid)}?${query}`, 200);
const comment = (session: Session, body: Record<string, unknown>) => roomCall<RoomComment>(server, session, 'POST', ROOM_COMMENT_PATHS.list(room.uuid), 201, body);
const send = (session: Session, method: string, path: string, body?: unknown) => call(server, session, method, api(path), body);
const patchFile = (body: Record<string, unknown>) => roomCall(server, owner, 'PATCH', ROOM_PATHS.file(room.uuid, fileUuid), 200, body);

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: 1024 } });
  const admin = await signInAdmin(server);
  for (const [who, first] of [['owner', 'Olga'], ['editor', 'Emil'], ['viewer', 'Vera']] as const) {
    await createUserAsAdmin(server, admin, { email: email(who), firstName: first, lastName: 'Tester' });
  }
  owner = await signIn(server, email('owner'), PASSWORD);
  editor = await signIn(server, email('editor'), PASSWORD);
  viewer = await signIn(server, email('viewer'), PASSWORD);
  room = await createPlainRoom(server, owner, 'Comments room');
  await roomCall(server, owner, 'PUT', ROOM_PATHS.access(room.uuid), 200, { user: email('editor'), role: 'EDITOR' });
  await roomCall(server, owner, 'PUT', ROOM_PATHS.access(room.uuid), 200, { user: email('viewer'), role: 'VIEWER' });
  folder = await roomCall<RoomFolder>(server, owner, 'POST', ROOM_PATHS.folders(room.uuid), 201, { name: 'Contracts' });
  fileUuid = (await uploadRoomFile(server, owner, room.uuid, { name: 'offer.txt', bytes: new TextEncoder().encode('the offer'), partSize: 1024 })).uuid;
}, 180_000);
afterAll(() => server?.close());

describe('comments on files and folders', () => {
  it('lists oldest first with author name and own flag; the author edits, an EDITOR cannot touch the OWNER’s, the OWNER deletes the EDITOR’s', async () => {
    const first = await comment(owner, { fileUuid, text: '  Please check the price.  ' });
    expect(first).toMatchObject({ fileUuid, folderUuid: null, text: 'Please check the price.', signature: null, own: true, author: { name: 'Olga Tester', email: email('owner') } });
    const second = await comment(editor, { fileUuid, text: 'Price checked.' });
    const seen = await comments(viewer, `fileUuid=${fileUuid}`);
    expect(seen.comments.map((c) => [c.text, c.author?.name, c.own])).toEqual([
      ['Please check the price.', 'Olga Tester', false],
      ['Price checked.', 'Emil Tester', false],
    ]);

    const edited = await roomCall<RoomComment>(server, editor, 'PATCH', ROOM_COMMENT_PATHS.one(room.uuid, second.uuid), 200, { text: 'Price checked twice.' });
    expect(edited.text).toBe('Price checked twice.');
    expect(edited.updatedAt).toBeGreaterThanOrEqual(edited.createdAt);

    const notAuthor = await expectBackendError(await send(editor, 'PATCH', ROOM_COMMENT_PATHS.one(room.uuid, first.uuid), { text: 'Hijacked' }), 403, 'AccessDeniedException');
    expect(notAuthor.metadata?.reason).toBe('notCommentAuthor');
    await expectBackendError(await send(editor, 'DELETE', ROOM_COMMENT_PATHS.one(room.uuid, first.uuid)), 403, 'AccessDeniedException');
    // Not even an OWNER edits someone else's words; she deletes them.
    await expectBackendError(await send(owner, 'PATCH', ROOM_COMMENT_PATHS.one(room.uuid, second.uuid), { text: 'Rewritten' }), 403, 'AccessDeniedException');
    expect((await send(owner, 'DELETE', ROOM_COMMENT_PATHS.one(room.uuid, second.uuid))).status).toBe(204);
    expect((await comments(owner, `fileUuid=${fileUuid}`)).comments.map((c) => c.text)).toEqual(['Please check the price.']);
  });

  it('a folder has its own comments; a file in the trash takes its comments out of reach (404)', async () => {
    await comment(editor, { folderUuid: folder.uuid, text: 'All signed contracts go here.' });
    expect((await comments(viewer, `folderUuid=${folder.uuid}`)).comments.map((c) => c.text)).toEqual(['All signed contracts go here.']);
    const doomed = await uploadRoomFile(server, owner, room.uuid, { name: 'doomed.txt', bytes: new TextEncoder().encode('x'), partSize: 1024 });
    const remark = await comment(owner, { fileUuid: doomed.uuid, text: 'Outdated' });
    await roomCall(server, owner, 'DELETE', ROOM_PATHS.file(room.uuid, doomed.uuid), 204);
    await expectBackendError(await send(owner, 'GET', `${ROOM_COMMENT_PATHS.list(room.uuid)}?fileUuid=${doomed.uuid}`), 404, 'NotFoundException');
    await expectBackendError(await send(owner, 'PATCH', ROOM_COMMENT_PATHS.one(room.uuid, remark.uuid), { text: 'x' }), 404, 'NotFoundException');
  });

  it('bad input answers 400 in the SPEC §8 shape: too long (with maxLength), blank, no item or two, unknown fields', async () => {
    const tooLong = await expectBackendError(await send(owner, 'POST', ROOM_COMMENT_PATHS.list(room.uuid), { fileUuid, text: 'x'.repeat(ROOM_COMMENT_MAX + 1) }), 400, 'ValidationException');
    expect(tooLong.metadata).toMatchObject({ field: 'text', reason: 'commentTooLong', maxLength: ROOM_COMMENT_MAX, length: ROOM_COMMENT_MAX + 1 });
    expect((await comment(owner, { fileUuid, text: 'y'.repeat(ROOM_COMMENT_MAX) })).text).toHaveLength(ROOM_COMMENT_MAX);
    const blank = await expectBackendError(await send(owner, 'POST', ROOM_COMMENT_PATHS.list(room.uuid), { fileUuid, text: '   ' }), 400, 'ValidationException');
    expect(blank.metadata?.reason).toBe('commentEmpty');
    await expectBackendError(await send(owner, 'POST', ROOM_COMMENT_PATHS.list(room.uuid), { text: 'no item' }), 400, 'ValidationException');
    await expectBackendError(await send(owner, 'POST', ROOM_COMMENT_PATHS.list(room.uuid), { fileUuid, folderUuid: folder.uuid, text: 'two' }), 400, 'ValidationException');
    await expectBackendError(await send(owner, 'POST', ROOM_COMMENT_PATHS.list(room.uuid), { fileUuid, text: 'x', signature: 'forged' }), 400, 'ValidationException');
    await expectBackendError(await send(owner, 'POST', ROOM_COMMENT_PATHS.list(room.uuid), { fileUuid, text: 42 }), 400, 'ValidationException');
    await expectBackendError(await send(owner, 'GET', `${ROOM_COMMENT_PATHS.list(room.uuid)}?fileUuid=not-a-uuid`), 400, 'ValidationException');
    await expectBackendError(await send(owner, 'GET', ROOM_COMMENT_PATHS.list(room.uuid)), 400, 'ValidationException');
    await expectBackendError(await send(owner, 'PATCH', ROOM_COMMENT_PATHS.one(room.uuid, crypto.randomUUID()), { text: 'x' }), 404, 'NotFoundException');
  });
});

describe('the room search finds by comments', () => {
  it('a term in a comment finds its file or folder (with that comment); a name match has none; a trashed file’s comment finds nothing; labels still narrow', async () => {
    const search = async (query: string) => roomCall<RoomSearchResult>(server, viewer, 'GET', `${ROOM_PATHS.search(room.uuid)}?${query}`, 200);
    const noted = await uploadRoomFile(server, owner, room.uuid, { name: 'minutes.txt', bytes: new TextEncoder().encode('m'), partSize: 1024 });
    await comment(editor, { fileUuid: noted.uuid, text: 'Ask the Zürich notary first' });
    await comment(owner, { folderUuid: folder.uuid, text: 'Keep the zurich originals here' });
    // Case and accents do not count, as for names.
    const hits = await search('q=ZURICH');
    expect(hits.files.map((f) => [f.name, f.matchedComment])).toEqual([['minutes.txt', 'Ask the Zürich notary first']]);
    expect(hits.folders.map((f) => [f.uuid, f.matchedComment])).toEqual([[folder.uuid, 'Keep the zurich originals here']]);
    // Found by its name only: no comment is sent with it.
    expect((await search('q=minutes')).files).toEqual([expect.not.objectContaining({ matchedComment: expect.anything() })]);
    expect((await search('q=minutes')).files.map((f) => f.name)).toEqual(['minutes.txt']);
    // The search across rooms promises name matches only: a comment does not find the file there.
    expect((await roomCall<RoomsSearchResult>(server, viewer, 'GET', '/rooms/search?q=notary', 200)).files).toEqual([]);
    // With a classification the comment match is narrowed too.
    expect((await search('q=zurich&classification=confidential')).files).toEqual([]);
    await roomCall(server, owner, 'DELETE', ROOM_PATHS.file(room.uuid, noted.uuid), 204);
    expect((await search('q=notary')).files).toEqual([]);
  });
});

describe('classification and file status (plain rooms)', () => {
  const activityOf = async (query: string) =>
    (await roomCall<RoomActivityList>(server, owner, 'GET', `${ROOM_PATHS.activity(room.uuid)}?${query}`, 200)).entries
      .filter((e) => e.kind.startsWith('classification') || e.kind.startsWith('status'))
      .map((e) => [e.kind, e.detail])
      .reverse();

  it('set, change and remove each log their SPEC §4 activity type; the listing shows the values', async () => {
    await patchFile({ classification: 'internal', status: 'toDo' });
    await patchFile({ classification: 'confidential', status: 'inProgress' });
    // The same values again change nothing and log nothing.
    await patchFile({ classification: 'confidential' });
    let listed = await roomCall<RoomContents>(server, viewer, 'GET', ROOM_PATHS.room(room.uuid), 200);
    expect(listed.files.find((f) => f.uuid === fileUuid)).toMatchObject({ classification: 'confidential', status: 'inProgress' });
    await patchFile({ classification: 'none', status: 'none' });
    listed = await roomCall<RoomContents>(server, viewer, 'GET', ROOM_PATHS.room(room.uuid), 200);
    expect(listed.files.find((f) => f.uuid === fileUuid)).toMatchObject({ classification: 'none', status: 'none' });
    expect(await activityOf(`fileUuid=${fileUuid}`)).toEqual([
      ['classification_set', 'internal'],
      ['status_set', 'toDo'],
      ['classification_changed', 'confidential'],
      ['status_changed', 'inProgress'],
      ['classification_deleted', 'confidential'],
      ['status_removed', 'inProgress'],
    ]);

    const folderAfter = await roomCall<RoomFolder>(server, editor, 'PATCH', ROOM_PATHS.folder(room.uuid, folder.uuid), 200, { classification: 'private', status: 'rejected' });
    expect(folderAfter).toMatchObject({ classification: 'private', status: 'rejected' });
    expect(await activityOf(`folderUuid=${folder.uuid}`)).toEqual([['classification_set', 'private'], ['status_set', 'rejected']]);
    await expectBackendError(await send(viewer, 'PATCH', ROOM_PATHS.folder(room.uuid, folder.uuid), { status: 'done' }), 403, 'AccessDeniedException');
  });

  it('a value outside SPEC §4 is a 400; the room search finds by classification and status, alone or with a name', async () => {
    await expectBackendError(await send(owner, 'PATCH', ROOM_PATHS.file(room.uuid, fileUuid), { classification: 'secret' }), 400, 'ValidationException');
    await expectBackendError(await send(owner, 'PATCH', ROOM_PATHS.file(room.uuid, fileUuid), { status: 'DONE' }), 400, 'ValidationException');
    await patchFile({ classification: 'public', status: 'done' });
    const other = await uploadRoomFile(server, owner, room.uuid, { name: 'offer-draft.txt', bytes: new TextEncoder().encode('draft'), partSize: 1024 });
    await roomCall(server, owner, 'PATCH', ROOM_PATHS.file(room.uuid, other.uuid), 200, { classification: 'public', status: 'toDo' });
    const search = (query: string) => roomCall<RoomSearchResult>(server, viewer, 'GET', `${ROOM_PATHS.search(room.uuid)}?${query}`, 200);
    expect((await search('classification=public')).files.map((f) => f.name).sort()).toEqual(['offer-draft.txt', 'offer.txt']);
    expect((await search('classification=public&status=done')).files.map((f) => f.name)).toEqual(['offer.txt']);
    expect((await search('q=draft&classification=public')).files.map((f) => f.name)).toEqual(['offer-draft.txt']);
    expect((await search('status=rejected')).folders.map((f) => f.name)).toEqual(['Contracts']);
    expect((await search('classification=confidential')).files).toEqual([]);
    await expectBackendError(await send(viewer, 'GET', ROOM_PATHS.search(room.uuid)), 400, 'ValidationException');
    await expectBackendError(await send(viewer, 'GET', `${ROOM_PATHS.search(room.uuid)}?status=later`), 400, 'ValidationException');
    // A rename with a status in the same call does both.
    const both = await roomCall<RoomContents['files'][number]>(server, owner, 'PATCH', ROOM_PATHS.file(room.uuid, other.uuid), 200, { name: 'offer-final.txt', status: 'done' });
    expect(both).toMatchObject({ name: 'offer-final.txt', classification: 'public', status: 'done' });
    const folderBoth = await roomCall<RoomFolder>(server, owner, 'PATCH', ROOM_PATHS.folder(room.uuid, folder.uuid), 200, { name: 'Signed contracts' });
    expect(folderBoth).toMatchObject({ name: 'Signed contracts', classification: 'private', status: 'rejected' });
  });
});
