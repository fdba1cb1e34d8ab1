import { createHash } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { RoomActivityList, RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomFolder } from '@shared/contract/rooms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * The room activity log's paging and scope (server/rooms/kind/activity.ts, issue 15), beyond what
 * rooms-files.test.ts covers: pageSize bounds and default, cursors that are not ours (400 in the
 * SPEC §8 shape, never 500 — also on PostgreSQL), a folder's log with everything below it, a file's
 * log with that file only. Runs on SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

let server: TestServer;
let owner: Session;
const EMAIL = 'owner@room-activity.test';
const api = (path: string) => `/api/2${path}`;
const req = (method: string, path: string, body?: unknown) => call(server, owner, method, api(path), body);

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

const activity = async (room: Room, query = '') => json<RoomActivityList>(await req('GET', `${ROOM_PATHS.activity(room.uuid)}${query ? `?${query}` : ''}`), 200);

/** A one-part file: announce, the part, commit (logged as one upload). */
async function upload(room: Room, name: string, folderUuid?: string): Promise<RoomUploadFile> {
  const bytes = new Uint8Array(testFileBytes(3));
  const file = await json<RoomUploadFile>(await req('POST', ROOM_PATHS.files(room.uuid), { name, size: bytes.length, mimeType: 'text/plain', ...(folderUuid ? { folderUuid } : {}) }), 201);
  const part = await fetch(`${server.url}${api(ROOM_PATHS.filePart(room.uuid, file.uuid, 0))}`, {
    method: 'PUT',
    headers: { cookie: owner.cookie, [ANTI_CSRF_HEADER]: owner.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': createHash('sha256').update(bytes).digest('hex') },
    body: new Blob([bytes]),
  });
  expect(part.status, await part.text()).toBe(200);
  return json<RoomUploadFile>(await req('POST', ROOM_PATHS.fileCommit(room.uuid, file.uuid)), 200);
}
const newFolder = async (room: Room, name: string, parentUuid?: string) =>
  json<RoomFolder>(await req('POST', ROOM_PATHS.folders(room.uuid), { name, ...(parentUuid ? { parentUuid } : {}) }), 201);
const rename = async (room: Room, file: RoomUploadFile, name: string) => json(await req('PATCH', ROOM_PATHS.file(room.uuid, file.uuid), { name }), 200);

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: EMAIL });
  owner = await signIn(server, EMAIL, 'Good-Passw0rd');
}, 180_000);
afterAll(() => server?.close());

describe('room activity paging', () => {
  it('pages 50 by default, up to 200 when asked; a pageSize out of bounds or not a number is a 400', async () => {
    const room = await json<Room>(await req('POST', ROOM_PATHS.rooms, { name: 'Paged activity' }), 201);
    const file = await upload(room, 'n0.txt');
    for (let i = 1; i <= 55; i++) await rename(room, file, `n${i}.txt`);
    // 56 entries: the upload and 55 renames.
    const first = await activity(room);
    expect(first.entries).toHaveLength(50);
    expect(first.entries[0]).toMatchObject({ kind: 'edit', item: { name: 'n55.txt' }, detail: 'n54.txt' });
    expect(first.nextCursor).toEqual(expect.any(String));
    const rest = await activity(room, `cursor=${first.nextCursor}`);
    expect(rest.entries.map((e) => e.kind)).toEqual(['edit', 'edit', 'edit', 'edit', 'edit', 'upload']);
    expect(rest.nextCursor).toBeNull();
    const all = await activity(room, 'pageSize=200');
    expect(all.entries).toEqual([...first.entries, ...rest.entries]);
    expect(all.nextCursor).toBeNull();
    // Exactly one page: no cursor to a page with nothing on it.
    expect((await activity(room, 'pageSize=56')).nextCursor).toBeNull();
    for (const pageSize of ['0', '201', '-1', '2.5', 'many']) {
      const error = await expectBackendError(await req('GET', `${ROOM_PATHS.activity(room.uuid)}?pageSize=${pageSize}`), 400, 'ValidationException');
      expect(JSON.stringify(error), pageSize).toContain('pageSize');
    }
  });

  it('refuses a cursor it did not hand out with a 400 in the error shape', async () => {
    const room = await json<Room>(await req('POST', ROOM_PATHS.rooms, { name: 'Cursor activity' }), 201);
    await upload(room, 'a.txt');
    const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64url');
    // Not base64url; not digits inside; zero; beyond the id column (PostgreSQL int4 / a float); too long for the contract.
    for (const cursor of ['bad!', b64('abc'), b64('0'), b64('2147483648'), b64('99999999999999999999999'), 'A'.repeat(101)]) {
      await expectBackendError(await req('GET', `${ROOM_PATHS.activity(room.uuid)}?pageSize=1&cursor=${encodeURIComponent(cursor)}`), 400, 'ValidationException');
    }
    // The largest id there can be: everything, not an error.
    expect((await activity(room, `cursor=${b64('2147483647')}`)).entries.map((e) => e.kind)).toEqual(['upload']);
  });
});

describe('room activity scope', () => {
  it("a folder's log holds what happened in it and below it; a file's log that file only", async () => {
    const room = await json<Room>(await req('POST', ROOM_PATHS.rooms, { name: 'Scoped activity' }), 201);
    const docs = await newFolder(room, 'Docs');
    const deep = await newFolder(room, 'Deep', docs.uuid);
    const deeper = await newFolder(room, 'Deeper', deep.uuid);
    const other = await newFolder(room, 'Other');
    const top = await upload(room, 'top.txt');
    const inDocs = await upload(room, 'docs.txt', docs.uuid);
    const inDeeper = await upload(room, 'deeper.txt', deeper.uuid);
    await upload(room, 'other.txt', other.uuid);
    await rename(room, inDocs, 'docs 2.txt');
    await rename(room, inDeeper, 'deeper 2.txt');
    await rename(room, top, 'top 2.txt');

    const names = (list: RoomActivityList) => list.entries.filter((e) => e.item.type === 'file').map((e) => `${e.kind} ${e.item.name}`);
    expect(names(await activity(room))).toEqual(['edit top 2.txt', 'edit deeper 2.txt', 'edit docs 2.txt', 'upload other.txt', 'upload deeper.txt', 'upload docs.txt', 'upload top.txt']);
    expect(names(await activity(room, `folderUuid=${docs.uuid}`))).toEqual(['edit deeper 2.txt', 'edit docs 2.txt', 'upload deeper.txt', 'upload docs.txt']);
    expect(names(await activity(room, `folderUuid=${deep.uuid}`))).toEqual(['edit deeper 2.txt', 'upload deeper.txt']);
    expect(names(await activity(room, `folderUuid=${other.uuid}`))).toEqual(['upload other.txt']);
    // A file's log: that file only, whatever folder is named with it (the file wins).
    for (const query of [`fileUuid=${inDeeper.uuid}`, `fileUuid=${inDeeper.uuid}&folderUuid=${other.uuid}`]) {
      const log = await activity(room, query);
      expect(log.entries.map((e) => [e.kind, e.item.uuid, e.item.name, e.detail])).toEqual([
        ['edit', inDeeper.uuid, 'deeper 2.txt', 'deeper.txt'],
        ['upload', inDeeper.uuid, 'deeper.txt', null],
      ]);
    }
    // A file's log pages like the room's.
    const one = await activity(room, `fileUuid=${inDeeper.uuid}&pageSize=1`);
    expect(one.entries.map((e) => e.kind)).toEqual(['edit']);
    expect((await activity(room, `fileUuid=${inDeeper.uuid}&pageSize=1&cursor=${one.nextCursor}`)).entries.map((e) => e.kind)).toEqual(['upload']);
  });
});
