import { randomUUID } from 'node:crypto';
import { ROOM_FILES_PAGE_DEFAULT, ROOM_FILES_PAGE_MAX, ROOM_PATHS, type Room, type RoomContents, type RoomFile, type RoomFolder } from '@shared/contract/rooms';
import { seedRoomFiles } from '@tests/support/seed-room-files';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

/**
 * A folder's files a page at a time (server/rooms/plain/file-pages.ts, issue 15 "rooms at scale"): keyset
 * pages that add up to every file exactly once in the asked order, sub-folders with the first page
 * only, totals, and bad paging input answered 400 in the SPEC error shape. SQLite and PostgreSQL.
 */

const FILES = 437;
let server: TestServer;
let owner: Session;
let viewer: Session;
let outsider: Session;
let room: Room;
let folder: RoomFolder;
const email = (name: string) => `${name}@room-paging.test`;
const api = (path: string) => `/api/2${path}`;

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const page = (session: Session | null, query: string, where: 'folder' | 'top' = 'folder') =>
  call(server, session, 'GET', api(`${where === 'folder' ? ROOM_PATHS.folder(room.uuid, folder.uuid) : ROOM_PATHS.room(room.uuid)}${query}`));

/** Every page, following nextCursor; the pages' files in order. */
async function walk(session: Session, params: string): Promise<{ files: RoomFile[]; pages: RoomContents[] }> {
  const pages: RoomContents[] = [];
  let cursor: string | null = null;
  do {
    const contents: RoomContents = await json<RoomContents>(await page(session, `?${params}${cursor ? `&cursor=${cursor}` : ''}`));
    pages.push(contents);
    cursor = contents.nextCursor;
  } while (cursor && pages.length < 100);
  return { files: pages.flatMap((p) => p.files), pages };
}

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signInAdmin(server);
  for (const who of ['owner', 'viewer', 'outsider']) {
    await createUserAsAdmin(server, admin, { email: email(who), password: 'Good-Passw0rd', roleNames: who === 'owner' ? ['ROLE_SECUROOMS_CREATOR'] : [] });
  }
  owner = await signIn(server, email('owner'), 'Good-Passw0rd');
  viewer = await signIn(server, email('viewer'), 'Good-Passw0rd');
  outsider = await signIn(server, email('outsider'), 'Good-Passw0rd');
  room = await json<Room>(await call(server, owner, 'POST', api(ROOM_PATHS.rooms), { name: 'Paging' }), 201);
  await json(await call(server, owner, 'PUT', api(ROOM_PATHS.access(room.uuid)), { user: email('viewer'), role: 'VIEWER' }));
  folder = await json<RoomFolder>(await call(server, owner, 'POST', api(ROOM_PATHS.folders(room.uuid)), { name: 'Many' }), 201);
  await json(await call(server, owner, 'POST', api(ROOM_PATHS.folders(room.uuid)), { name: 'Sub', parentUuid: folder.uuid }), 201);
  // Mixed case and equal names (ties go by age), sizes that repeat, times that repeat.
  await seedRoomFiles(server.app.db, {
    roomUuid: room.uuid,
    folderUuid: folder.uuid,
    count: FILES,
    name: (i) => `${i % 3 === 0 ? 'File' : 'file'} ${String(i % 200).padStart(4, '0')}.bin`,
    size: (i) => (i * 7919) % 50,
    updatedAt: (i) => 1_700_000_000_000 + (i % 90) * 1000,
    uploaderEmail: email('owner'),
  });
  await seedRoomFiles(server.app.db, { roomUuid: room.uuid, folderUuid: null, count: 3, name: (i) => `top ${i}`, uploaderEmail: email('owner') });
});

afterAll(async () => {
  await server?.close();
});

describe('room contents a page at a time', () => {
  it('the pages add up to every file once, by name (case-insensitive, ties oldest first); folders come with the first page only', async () => {
    const { files, pages } = await walk(owner, 'pageSize=100');
    expect(pages).toHaveLength(Math.ceil(FILES / 100));
    expect(pages.every((p) => p.totalFiles === FILES)).toBe(true);
    expect(pages[0]!.folders.map((f) => f.name)).toEqual(['Sub']);
    expect(pages.slice(1).every((p) => p.folders.length === 0 && p.room.uuid === room.uuid && p.folder?.uuid === folder.uuid)).toBe(true);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    expect(new Set(files.map((f) => f.uuid)).size).toBe(FILES);
    const names = files.map((f) => f.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('sorts by size and by modified date, both directions, with the same guarantees', async () => {
    for (const [sort, value] of [['size', (f: RoomFile) => f.size], ['updatedAt', (f: RoomFile) => f.updatedAt]] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const { files } = await walk(owner, `pageSize=64&sort=${sort}&order=${order}`);
        expect(new Set(files.map((f) => f.uuid)).size).toBe(FILES);
        const values = files.map(value);
        const sorted = [...values].sort((a, b) => (order === 'asc' ? a - b : b - a));
        expect(values).toEqual(sorted);
      }
    }
  });

  it('every sort walks a folder of ties page by page: each file exactly once, equal keys oldest first', async () => {
    // Three names (case apart), two sizes, three times: page boundaries (7) fall inside the ties.
    // Below 'Sub', out of the lists the other tests look at.
    const sub = (await json<RoomContents>(await page(owner, '?pageSize=1'))).folders[0]!;
    const ties = await json<RoomFolder>(await call(server, owner, 'POST', api(ROOM_PATHS.folders(room.uuid)), { name: 'Ties', parentUuid: sub.uuid }), 201);
    const count = 61;
    const uuids = Array.from({ length: count }, () => randomUUID());
    const name = (i: number) => `${i % 2 ? 'Same' : 'same'} ${i % 3}`;
    const size = (i: number) => (i % 5 === 0 ? 10 : 20);
    const updatedAt = (i: number) => 1_700_000_000_000 + (i % 3) * 1000;
    await seedRoomFiles(server.app.db, { roomUuid: room.uuid, folderUuid: ties.uuid, count, uuid: (i) => uuids[i]!, name, size, updatedAt, uploaderEmail: email('owner') });
    const keyOf = { name: (i: number) => name(i).toLowerCase(), size, updatedAt } as const;
    for (const sort of ['name', 'size', 'updatedAt'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const walked: string[] = [];
        let cursor: string | null = null;
        do {
          const path = `${ROOM_PATHS.folder(room.uuid, ties.uuid)}?pageSize=7&sort=${sort}&order=${order}${cursor ? `&cursor=${cursor}` : ''}`;
          const contents: RoomContents = await json<RoomContents>(await call(server, owner, 'GET', api(path)));
          expect(contents.totalFiles).toBe(count);
          walked.push(...contents.files.map((f) => f.uuid));
          cursor = contents.nextCursor;
        } while (cursor && walked.length <= count);
        // Seeded in index order, so a lower index is the older row (the lower id).
        const key = keyOf[sort];
        const expected = [...uuids.keys()]
          .sort((a, b) => {
            const [x, y] = [key(a), key(b)];
            return x === y ? a - b : (x < y ? -1 : 1) * (order === 'asc' ? 1 : -1);
          })
          .map((i) => uuids[i]);
        expect(walked, `${sort} ${order}`).toEqual(expected);
      }
    }
  });

  it('without paging input: the first ROOM_FILES_PAGE_DEFAULT files; the top level pages the same way', async () => {
    const first = await json<RoomContents>(await page(viewer, ''));
    expect(first.files).toHaveLength(Math.min(FILES, ROOM_FILES_PAGE_DEFAULT));
    expect(first.nextCursor).not.toBeNull();
    const top = await json<RoomContents>(await page(owner, '?pageSize=2', 'top'));
    expect(top.files.map((f) => f.name)).toEqual(['top 0', 'top 1']);
    expect(top.totalFiles).toBe(3);
    expect(top.folders.map((f) => f.name)).toEqual(['Many']);
  });

  it('bad paging input is a 400 in the error shape; a non-member still gets 404 and anonymous 401', async () => {
    const other = await json<RoomContents>(await page(owner, '?pageSize=5&sort=size'));
    for (const query of [
      '?pageSize=0',
      `?pageSize=${ROOM_FILES_PAGE_MAX + 1}`,
      '?sort=owner',
      '?order=up',
      '?cursor=not*base64',
      `?cursor=${Buffer.from('[1,2').toString('base64url')}`,
      `?cursor=${Buffer.from(JSON.stringify(['name', 'asc', 5, 1])).toString('base64url')}`,
      `?cursor=${other.nextCursor}`, // made for sort=size: not valid for the name order
      '?extra=1',
    ]) {
      await expectBackendError(await page(owner, query), 400, 'ValidationException');
    }
    await expectBackendError(await page(outsider, '?pageSize=5'), 404, 'NotFoundException');
    await expectBackendError(await page(null, '?pageSize=5'), 401, 'AuthenticationRequiredException');
  });
});
