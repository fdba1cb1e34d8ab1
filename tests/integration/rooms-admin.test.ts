import { createHash } from 'node:crypto';
import type { ListUsersResponse } from '@shared/contract/admin-users';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { MS_PER_DAY } from '@shared/contract/constants';
import { ROOM_SETTING_KEYS, TRASH_BIN_PATHS, type TrashBinEntry, type TrashBinList } from '@shared/contract/room-admin';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomContents, type RoomFolder } from '@shared/contract/rooms';
import { purgeExpiredTrash, ROOM_TRASH_RETENTION_JOB } from '@server/rooms/admin/admin-trash';
import { SENDER_GROUP_PATHS } from '@shared/contract/sender-groups';
import { startTestServer, type TestServer } from '@tests/support/server';
import { roomSettings } from '@server/rooms/kind/admin-settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Administration of data rooms (issue 15; shared/contract/room-admin.ts): Secure rooms › General
 * (who creates rooms, E2E allowed, trash retention) through PUT /admin/settings and `roomSettings`;
 * the administrators' trash bin (list, search, paging, restore with bytes bit-exact, restore
 * errors naming the entry) and the retention job (bytes, rows and storage totals).
 * Runs on SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

let server: TestServer;
let admin: Session;
const s: Record<'owner' | 'creator' | 'unlicensed', Session> = {} as never;
const api = (path: string) => `/api/2${path}`;
const email = (name: string) => `${name}@rooms-admin.test`;

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

const PART_SIZE = 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const ownerCall = (method: string, path: string, body?: unknown) => call(server, s.owner, method, api(path), body);

async function upload(room: Room, name: string, size: number, folderUuid?: string): Promise<{ file: RoomUploadFile; bytes: Uint8Array }> {
  const bytes = new Uint8Array(testFileBytes(size));
  const file = await json<RoomUploadFile>(await ownerCall('POST', ROOM_PATHS.files(room.uuid), { name, size, mimeType: 'application/pdf', ...(folderUuid ? { folderUuid } : {}) }), 201);
  for (let i = 0; i < file.partCount; i++) {
    const part = bytes.subarray(i * PART_SIZE, Math.min(size, (i + 1) * PART_SIZE));
    const response = await fetch(`${server.url}${api(ROOM_PATHS.filePart(room.uuid, file.uuid, i))}`, {
      method: 'PUT',
      headers: { cookie: s.owner.cookie, [ANTI_CSRF_HEADER]: s.owner.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(part) },
      body: new Blob([Uint8Array.from(part)]),
    });
    await json(response, 200);
  }
  return { file: await json<RoomUploadFile>(await ownerCall('POST', ROOM_PATHS.fileCommit(room.uuid, file.uuid)), 200), bytes };
}

async function downloaded(room: Room, fileUuid: string): Promise<Uint8Array> {
  const response = await fetch(`${server.url}${api(ROOM_PATHS.fileContent(room.uuid, fileUuid))}`, { headers: { cookie: s.owner.cookie, [ANTI_CSRF_HEADER]: s.owner.csrf } });
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

const trashBin = async (query = '') => json<TrashBinList>(await call(server, admin, 'GET', `${api(TRASH_BIN_PATHS.list)}${query}`), 200);
const restore = (uuid: string, who: Session | null = admin) => call(server, who, 'POST', api(TRASH_BIN_PATHS.restore(uuid)));
const dataRoomsTotal = async () => server.app.db.selectFrom('storage_totals').select(['files', 'bytes']).where('area', '=', 'dataRooms').executeTakeFirstOrThrow();

const createRoom = (who: keyof typeof s, name: string) => call(server, s[who], 'POST', api(ROOM_PATHS.rooms), { name });

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: email('owner') });
  await createUserAsAdmin(server, admin, { email: email('unlicensed') });
  await createUserAsAdmin(server, admin, { email: email('creator'), roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  for (const name of ['owner', 'creator', 'unlicensed'] as const) s[name] = await signIn(server, email(name), 'Good-Passw0rd');
  // Licence off for the creator and the unlicensed user: only the role (or nothing) is left.
  for (const name of ['creator', 'unlicensed']) {
    const users = await json<ListUsersResponse>(await call(server, admin, 'GET', `${api('/admin/users')}?q=${name}@`), 200);
    await json(await call(server, admin, 'PATCH', api(SENDER_GROUP_PATHS.userSender(users.users[0]!.uuid)), { licensed: false }), 200);
  }
}, 180_000);
afterAll(() => server?.close());

describe('Secure rooms › General', () => {
  it('has its defaults: licence or permission, E2E allowed, 30 days', async () => {
    expect(await roomSettings(server.app.db)).toEqual({ creation: 'licenceOrPermission', e2eAllowed: true, trashRetentionDays: 30 });
    const all = await json<{ settings: Record<string, unknown> }>(await call(server, admin, 'GET', api('/admin/settings')), 200);
    expect(all.settings).toMatchObject({ [ROOM_SETTING_KEYS.creation]: 'licenceOrPermission', [ROOM_SETTING_KEYS.e2eAllowed]: true, [ROOM_SETTING_KEYS.trashRetentionDays]: 30 });
  });

  it('refuses wrong values in the SPEC §8 shape, naming the key', async () => {
    for (const [key, value] of [
      [ROOM_SETTING_KEYS.creation, 'everyone'],
      [ROOM_SETTING_KEYS.e2eAllowed, 'yes'],
      [ROOM_SETTING_KEYS.trashRetentionDays, 0],
      [ROOM_SETTING_KEYS.trashRetentionDays, 3651],
      [ROOM_SETTING_KEYS.trashRetentionDays, 1.5],
    ] as const) {
      const refused = await expectBackendError(await call(server, admin, 'PUT', api('/admin/settings'), { [key]: value }), 400, 'ValidationException');
      expect(JSON.stringify(refused.metadata)).toContain(key);
    }
    // Not an administrator: 403.
    await expectBackendError(await call(server, s.owner, 'PUT', api('/admin/settings'), { [ROOM_SETTING_KEYS.e2eAllowed]: false }), 403, 'AccessDeniedException');
    expect(await roomSettings(server.app.db)).toEqual({ creation: 'licenceOrPermission', e2eAllowed: true, trashRetentionDays: 30 });
  });

  it('the creation policy decides who creates rooms', async () => {
    // Default: a licence or ROLE_SECUROOMS_CREATOR.
    await json<Room>(await createRoom('owner', 'Licensed 1'), 201);
    await json<Room>(await createRoom('creator', 'Permitted 1'), 201);
    await expectBackendError(await createRoom('unlicensed', 'Nothing 1'), 403, 'AccessDeniedException');

    await updateSettings(server, admin, { [ROOM_SETTING_KEYS.creation]: 'permissionOnly' });
    await expectBackendError(await createRoom('owner', 'Licensed 2'), 403, 'AccessDeniedException');
    await json<Room>(await createRoom('creator', 'Permitted 2'), 201);

    await updateSettings(server, admin, { [ROOM_SETTING_KEYS.creation]: 'nobody', [ROOM_SETTING_KEYS.e2eAllowed]: false, [ROOM_SETTING_KEYS.trashRetentionDays]: 7 });
    await expectBackendError(await createRoom('owner', 'Licensed 3'), 403, 'AccessDeniedException');
    await expectBackendError(await createRoom('creator', 'Permitted 3'), 403, 'AccessDeniedException');
    expect(await roomSettings(server.app.db)).toEqual({ creation: 'nobody', e2eAllowed: false, trashRetentionDays: 7 });
    // Existing rooms go on.
    const rooms = await json<{ rooms: Room[] }>(await call(server, s.owner, 'GET', api(ROOM_PATHS.rooms)), 200);
    expect(rooms.rooms.map((r) => r.name)).toEqual(['Licensed 1']);

    await updateSettings(server, admin, { [ROOM_SETTING_KEYS.creation]: 'licenceOrPermission', [ROOM_SETTING_KEYS.e2eAllowed]: true, [ROOM_SETTING_KEYS.trashRetentionDays]: 30 });
    await json<Room>(await createRoom('owner', 'Licensed 4'), 201);
  });
});

describe('the administrators\' trash bin', () => {
  it('only administrators list and restore (others 403, anonymous 401)', async () => {
    await expectBackendError(await call(server, s.owner, 'GET', api(TRASH_BIN_PATHS.list)), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'GET', api(TRASH_BIN_PATHS.list)), 401, 'AuthenticationRequiredException');
    const any = '00000000-0000-4000-8000-000000000000';
    await expectBackendError(await restore(any, s.owner), 403, 'AccessDeniedException');
    await expectBackendError(await restore(any), 404, 'NotFoundException');
    await expectBackendError(await call(server, admin, 'GET', `${api(TRASH_BIN_PATHS.list)}?cursor=nonsense!`), 400, 'ValidationException');
  });

  it('lists deleted rooms, folders and files of every room, searches, pages, and restores a folder with its file bit-exact', async () => {
    const room = await json<Room>(await createRoom('owner', 'Trash room'), 201);
    const folder = await json<RoomFolder>(await ownerCall('POST', ROOM_PATHS.folders(room.uuid), { name: 'Contracts' }), 201);
    const { file, bytes } = await upload(room, 'Lease.pdf', 3 * PART_SIZE + 5, folder.uuid);
    const loose = await upload(room, 'Loose note.pdf', 10);
    const gone = await json<Room>(await createRoom('owner', 'Old project'), 201);

    await json(await ownerCall('DELETE', ROOM_PATHS.file(room.uuid, loose.file.uuid)), 204);
    await json(await ownerCall('DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid)), 204);
    await json(await ownerCall('DELETE', ROOM_PATHS.room(gone.uuid)), 204);

    const all = await trashBin();
    const mine = all.entries.filter((e) => ['Contracts', 'Loose note.pdf', 'Old project'].includes(e.name));
    expect(mine.map((e) => [e.name, e.type, e.roomName, e.deletedBy])).toEqual([
      ['Old project', 'dataroom', 'Old project', email('owner')],
      ['Contracts', 'folder', 'Trash room', email('owner')],
      ['Loose note.pdf', 'file', 'Trash room', email('owner')],
    ]);
    // The file inside the deleted folder is not an entry of its own: it comes back with the folder.
    expect(all.entries.some((e) => e.name === 'Lease.pdf')).toBe(false);

    // Search (case-insensitive, `%` literal) and the no-result answer.
    expect((await trashBin('?q=CONTR')).entries.map((e) => e.name)).toEqual(['Contracts']);
    expect((await trashBin('?q=%25')).entries).toEqual([]);

    // Pages of one: every entry once, in the same order.
    const paged: TrashBinEntry[] = [];
    let cursor: string | null = null;
    do {
      const page: TrashBinList = await trashBin(`?pageSize=1${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...page.entries);
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all.entries);

    // Restore the folder: it and its file are back, the bytes bit-exact.
    await json(await restore(folder.uuid), 204);
    const contents = await json<RoomContents>(await ownerCall('GET', ROOM_PATHS.folder(room.uuid, folder.uuid)), 200);
    expect(contents.files.map((f) => f.name)).toEqual(['Lease.pdf']);
    expect(sha256(await downloaded(room, file.uuid))).toBe(sha256(bytes));
    expect((await trashBin()).entries.some((e) => e.uuid === folder.uuid)).toBe(false);
    // Not in the trash any more: 404.
    await expectBackendError(await restore(folder.uuid), 404, 'NotFoundException');

    // The room comes back for its members.
    await json(await restore(gone.uuid), 204);
    const rooms = await json<{ rooms: Room[] }>(await ownerCall('GET', ROOM_PATHS.rooms), 200);
    expect(rooms.rooms.map((r) => r.name)).toContain('Old project');
  });

  it('a restore that cannot be done names the entry: holder in the trash, name taken', async () => {
    const room = await json<Room>(await createRoom('owner', 'Conflict room'), 201);
    const folder = await json<RoomFolder>(await ownerCall('POST', ROOM_PATHS.folders(room.uuid), { name: 'Plans' }), 201);
    const inner = await upload(room, 'Blueprint.pdf', 20, folder.uuid);
    await json(await ownerCall('DELETE', ROOM_PATHS.file(room.uuid, inner.file.uuid)), 204);
    await json(await ownerCall('DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid)), 204);
    const held = await expectBackendError(await restore(inner.file.uuid), 409, 'ConflictException');
    expect(held.message).toContain('Blueprint.pdf');
    expect(held.metadata).toMatchObject({ reason: 'parentInTrash', name: 'Blueprint.pdf' });

    // A new folder of the same name meanwhile.
    await json(await ownerCall('POST', ROOM_PATHS.folders(room.uuid), { name: 'plans' }), 201);
    const taken = await expectBackendError(await restore(folder.uuid), 409, 'ConflictException');
    expect(taken.message).toContain('Plans');
    expect(taken.metadata).toMatchObject({ reason: 'nameExists', name: 'Plans' });

    // Anything of a room in the trash waits for the room.
    const other = await upload(room, 'Memo.pdf', 20);
    await json(await ownerCall('DELETE', ROOM_PATHS.file(room.uuid, other.file.uuid)), 204);
    await json(await ownerCall('DELETE', ROOM_PATHS.room(room.uuid)), 204);
    const inRoom = await expectBackendError(await restore(other.file.uuid), 409, 'ConflictException');
    expect(inRoom.message).toContain('Memo.pdf');
    expect(inRoom.metadata).toMatchObject({ reason: 'parentInTrash' });

    // A room whose name an owner uses again meanwhile.
    await json<Room>(await createRoom('owner', 'Conflict room'), 201);
    const roomTaken = await expectBackendError(await restore(room.uuid), 409, 'ConflictException');
    expect(roomTaken.message).toContain('Conflict room');
    expect(roomTaken.metadata).toMatchObject({ reason: 'nameExists', name: 'Conflict room' });
  });
});

describe('the trash retention job', () => {
  it('is a periodic job on the queue', async () => {
    const row = await server.app.db.selectFrom('jobs').select(['kind', 'state']).where('unique_key', '=', ROOM_TRASH_RETENTION_JOB).executeTakeFirst();
    expect(row).toMatchObject({ kind: ROOM_TRASH_RETENTION_JOB, state: 'pending' });
  });

  it('deletes for good what is older than the retention period: bytes, rows, storage totals', async () => {
    await updateSettings(server, admin, { [ROOM_SETTING_KEYS.trashRetentionDays]: 2 });
    const room = await json<Room>(await createRoom('owner', 'Retention room'), 201);
    const folder = await json<RoomFolder>(await ownerCall('POST', ROOM_PATHS.folders(room.uuid), { name: 'Archive' }), 201);
    const inFolder = await upload(room, 'Old.pdf', 2 * PART_SIZE, folder.uuid);
    const kept = await upload(room, 'Kept.pdf', 300);
    const bin = await json<Room>(await createRoom('owner', 'Retention bin'), 201);
    const inBin = await upload(bin, 'Binned.pdf', 100);
    const deletedAt = Date.now();
    await json(await ownerCall('DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid)), 204);
    await json(await ownerCall('DELETE', ROOM_PATHS.room(bin.uuid)), 204);
    const partKeys = [`rooms/${room.uuid}/${inFolder.file.uuid}/0`, `rooms/${room.uuid}/${inFolder.file.uuid}/1`, `rooms/${bin.uuid}/${inBin.file.uuid}/0`];
    for (const key of partKeys) expect(await server.app.blobs.exists(key)).toBe(true);

    // One day later: nothing is due yet.
    expect(await purgeExpiredTrash(server.app, deletedAt + MS_PER_DAY)).toMatchObject({ rooms: 0, folders: 0, files: 0 });
    expect(sha256(await downloaded(room, kept.file.uuid))).toBe(sha256(kept.bytes));

    // Three days later: the folder (with its file) and the room (with its file) are gone for good
    // (with whatever earlier tests left in the trash).
    const filesBefore = await server.app.db.selectFrom('room_files').select(['id', 'size', 'state']).execute();
    const before = await dataRoomsTotal();
    const purged = await purgeExpiredTrash(server.app, deletedAt + 3 * MS_PER_DAY);
    expect(purged.rooms).toBeGreaterThanOrEqual(1);
    expect(purged.folders).toBeGreaterThanOrEqual(1);
    const names = (await trashBin()).entries.map((e) => e.name);
    expect(names).not.toContain('Archive');
    expect(names).not.toContain('Retention bin');
    expect(await server.app.db.selectFrom('room_files').select('id').where('uuid', 'in', [inFolder.file.uuid, inBin.file.uuid]).execute()).toEqual([]);
    expect(await server.app.db.selectFrom('data_rooms').select('id').where('uuid', '=', bin.uuid).execute()).toEqual([]);
    for (const key of partKeys) expect(await server.app.blobs.exists(key)).toBe(false);
    // The report's running total lost exactly the committed files whose rows went (server/README "Reports").
    const left = new Set((await server.app.db.selectFrom('room_files').select('id').execute()).map((f) => f.id));
    const removed = filesBefore.filter((f) => !left.has(f.id) && f.state === 'complete');
    expect(removed.length).toBeGreaterThanOrEqual(2);
    const after = await dataRoomsTotal();
    expect(Number(before.files) - Number(after.files)).toBe(removed.length);
    expect(Number(before.bytes) - Number(after.bytes)).toBe(removed.reduce((sum, f) => sum + Number(f.size), 0));
    // What was not deleted stays.
    expect(sha256(await downloaded(room, kept.file.uuid))).toBe(sha256(kept.bytes));
    await updateSettings(server, admin, { [ROOM_SETTING_KEYS.trashRetentionDays]: 30 });
  });
});
