import { createHash } from 'node:crypto';
import AdmZip from 'adm-zip';
import { ROOM_OPS_PATHS, ROOM_ZIP_ITEMS_MAX } from '@shared/contract/room-ops';
import { ROOM_RECENT_PATH, type RoomRecent } from '@shared/contract/room-recent';
import { ROOM_PATHS, type Room, type RoomFolder } from '@shared/contract/rooms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { createPlainRoom, roomCall, uploadRoomFile } from './room-upload-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Issue 32 §2: the ZIP of a selection (GET /rooms/{room}/zip?items=…, every item checked for the
 * caller's role) and "Shared with me" / recent files (GET /rooms/recent: rooms others shared, the
 * newest files of the plain rooms the caller can see, paged). Real server, SQLite, and PostgreSQL
 * with KUVERT_TEST_DATABASE_URL.
 */

const PART_SIZE = 1024;
type Actor = 'owner' | 'editor' | 'viewer' | 'previewer' | 'outsider' | 'anonymous';
type User = Exclude<Actor, 'anonymous'>;
const email = (name: string) => `${name}@rooms-select.test`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let server: TestServer;
const s = {} as Record<User, Session>;
const sessionOf = (actor: Actor) => (actor === 'anonymous' ? null : s[actor]);
const get = (actor: Actor, path: string) => call(server, sessionOf(actor), 'GET', `/api/2${path}`);
const zipOf = (roomUuid: string, items: string[]) => `${ROOM_OPS_PATHS.roomZip(roomUuid)}?items=${items.join(',')}`;

async function sharedRoom(name: string): Promise<Room> {
  const room = await createPlainRoom(server, s.owner, name);
  for (const [who, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await roomCall(server, s.owner, 'PUT', ROOM_PATHS.access(room.uuid), 200, { user: email(who), role });
  }
  return room;
}
const newFolder = (room: Room, name: string, parentUuid?: string) =>
  roomCall<RoomFolder>(server, s.owner, 'POST', ROOM_PATHS.folders(room.uuid), 201, { name, ...(parentUuid ? { parentUuid } : {}) });
const put = (room: Room, name: string, bytes: Uint8Array, folderUuid?: string, who: User = 'owner') =>
  uploadRoomFile(server, s[who], room.uuid, { name, bytes, partSize: PART_SIZE, ...(folderUuid ? { folderUuid } : {}) });

async function unzip(actor: Actor, path: string): Promise<Map<string, Buffer>> {
  const response = await get(actor, path);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/zip');
  const zip = new AdmZip(Buffer.from(await response.arrayBuffer()));
  return new Map(zip.getEntries().filter((e) => !e.isDirectory).map((e) => [e.entryName, e.getData()]));
}

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await signInAdmin(server);
  for (const name of ['owner', 'editor', 'viewer', 'previewer', 'outsider'] as const) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    s[name] = await signIn(server, email(name), 'Good-Passw0rd');
  }
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('ZIP of a selection', () => {
  it('holds exactly the chosen files and folders (folders with everything below), bit-exact, for each role that may download', async () => {
    const room = await sharedRoom('Select room');
    const alpha = await newFolder(room, 'Alpha');
    const beta = await newFolder(room, 'Beta', alpha.uuid);
    const bytes = { one: testFileBytes(3 * PART_SIZE + 3), two: testFileBytes(10), left: testFileBytes(20), a1: testFileBytes(PART_SIZE), b1: testFileBytes(7) };
    const one = await put(room, 'one.bin', bytes.one);
    const two = await put(room, 'Grüße.txt', bytes.two);
    await put(room, 'left-out.bin', bytes.left);
    await put(room, 'a1.bin', bytes.a1, alpha.uuid);
    await put(room, 'b1.bin', bytes.b1, beta.uuid);
    const path = zipOf(room.uuid, [one.uuid, two.uuid, alpha.uuid]);
    const expected: Record<string, Uint8Array> = { 'one.bin': bytes.one, 'Grüße.txt': bytes.two, 'Alpha/a1.bin': bytes.a1, 'Alpha/Beta/b1.bin': bytes.b1 };
    for (const actor of ['owner', 'editor', 'viewer'] as const) {
      const entries = await unzip(actor, path);
      expect([...entries.keys()].sort(), actor).toEqual(Object.keys(expected).sort());
      for (const [name, content] of Object.entries(expected)) expect(sha256(entries.get(name)!), name).toBe(sha256(content));
    }
    // A PREVIEWER may not download (403), a non-member finds nothing (404), nobody signed in: 401 — never the bytes.
    for (const [actor, status] of [['previewer', 403], ['outsider', 404], ['anonymous', 401]] as const) {
      const refused = await get(actor, path);
      expect(refused.status, actor).toBe(status);
      const text = await refused.text();
      expect(text).not.toContain('one.bin');
      expect(text).not.toContain(Buffer.from(bytes.two).toString('latin1'));
    }
  });

  it('checks every item: one in another room or the trash is a 404, one without the download right a 403; bad lists are a 400 in the SPEC shape', async () => {
    const room = await sharedRoom('Select checks');
    const other = await sharedRoom('Other room');
    const kept = await put(room, 'kept.bin', testFileBytes(5));
    const elsewhere = await put(other, 'elsewhere.bin', testFileBytes(5));
    const trashed = await put(room, 'trashed.bin', testFileBytes(5));
    await roomCall(server, s.owner, 'DELETE', ROOM_PATHS.file(room.uuid, trashed.uuid), 204);
    await expectBackendError(await get('owner', zipOf(room.uuid, [kept.uuid, elsewhere.uuid])), 404, 'NotFoundException');
    await expectBackendError(await get('owner', zipOf(room.uuid, [kept.uuid, trashed.uuid])), 404, 'NotFoundException');

    // The viewer is only a PREVIEWER in "Look only": that folder (or a file in it) chosen is a 403.
    const lookOnly = await newFolder(room, 'Look only');
    const inside = await put(room, 'inside.bin', testFileBytes(5), lookOnly.uuid);
    await roomCall(server, s.owner, 'PUT', ROOM_PATHS.access(room.uuid), 200, { user: email('viewer'), role: 'PREVIEWER', folderUuid: lookOnly.uuid });
    await expectBackendError(await get('viewer', zipOf(room.uuid, [kept.uuid, lookOnly.uuid])), 403);
    await expectBackendError(await get('viewer', zipOf(room.uuid, [inside.uuid])), 403);
    expect([...(await unzip('viewer', zipOf(room.uuid, [kept.uuid]))).keys()]).toEqual(['kept.bin']);

    for (const items of ['not-a-uuid', '', Array.from({ length: ROOM_ZIP_ITEMS_MAX + 1 }, () => kept.uuid).join(',')]) {
      const bad = await expectBackendError(await get('owner', `${ROOM_OPS_PATHS.roomZip(room.uuid)}?items=${items}`), 400);
      expect(JSON.stringify(bad)).not.toMatch(/\bat .*\.(ts|js):\d+/);
    }
  });
});

describe('Shared with me / recent files', () => {
  it('lists the rooms others shared with the caller and the newest files they can see, with room and path; trash and foreign rooms stay out', async () => {
    const room = await sharedRoom('Recent room');
    const own = await createPlainRoom(server, s.outsider, 'Outsider own room');
    await put(own, 'not-for-viewer.bin', testFileBytes(5), undefined, 'outsider');
    const folder = await newFolder(room, 'Reports');
    const gone = await newFolder(room, 'Gone');
    await put(room, 'old.bin', testFileBytes(5));
    await put(room, 'in-trash.bin', testFileBytes(5), gone.uuid);
    await roomCall(server, s.owner, 'DELETE', ROOM_PATHS.folder(room.uuid, gone.uuid), 204);
    const newest = await put(room, 'by-editor.bin', testFileBytes(5), folder.uuid, 'editor');

    const recent = await roomCall<RoomRecent>(server, s.viewer, 'GET', `${ROOM_RECENT_PATH}?pageSize=100`, 200);
    expect(recent.sharedRooms.map((r) => r.uuid)).toContain(room.uuid);
    expect(recent.sharedRooms.find((r) => r.uuid === room.uuid)).toMatchObject({ name: 'Recent room', role: 'VIEWER', createdBy: email('owner'), encrypted: false });
    expect(recent.files[0]).toMatchObject({ uuid: newest.uuid, name: 'by-editor.bin', room: { uuid: room.uuid, name: 'Recent room' }, path: [{ uuid: folder.uuid, name: 'Reports' }], role: 'VIEWER', uploadedBy: email('editor') });
    const names = recent.files.map((f) => f.name);
    expect(names).toContain('old.bin');
    expect(names).not.toContain('in-trash.bin');
    expect(names).not.toContain('not-for-viewer.bin');
    // The owner's own room is not "shared with" them; the non-member sees none of its files.
    expect((await roomCall<RoomRecent>(server, s.owner, 'GET', ROOM_RECENT_PATH, 200)).sharedRooms.map((r) => r.uuid)).not.toContain(room.uuid);
    const outsider = await roomCall<RoomRecent>(server, s.outsider, 'GET', `${ROOM_RECENT_PATH}?pageSize=100`, 200);
    expect(outsider.files.map((f) => f.roomUuid)).not.toContain(room.uuid);
    expect(outsider.sharedRooms).toEqual([]);
    await expectBackendError(await get('anonymous', ROOM_RECENT_PATH), 401);
  });

  it('pages newest first without gaps or repeats; a bad cursor or page size is a 400', async () => {
    const room = await sharedRoom('Paging room');
    for (let i = 0; i < 5; i++) await put(room, `page-${i}.bin`, testFileBytes(3));
    const all = (await roomCall<RoomRecent>(server, s.previewer, 'GET', `${ROOM_RECENT_PATH}?pageSize=100`, 200)).files.map((f) => f.uuid);
    const walked: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: RoomRecent = await roomCall<RoomRecent>(server, s.previewer, 'GET', `${ROOM_RECENT_PATH}?pageSize=2${cursor ? `&cursor=${cursor}` : ''}`, 200);
      if (cursor) expect(page.sharedRooms).toEqual([]);
      walked.push(...page.files.map((f) => f.uuid));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    expect(walked).toEqual(all);
    const times = (await roomCall<RoomRecent>(server, s.previewer, 'GET', `${ROOM_RECENT_PATH}?pageSize=100`, 200)).files.map((f) => f.updatedAt);
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    for (const query of ['cursor=%21%21', 'cursor=bm9wZQ', 'pageSize=0', 'pageSize=101', 'other=1']) {
      await expectBackendError(await get('viewer', `${ROOM_RECENT_PATH}?${query}`), 400);
    }
  });
});
