import { ROOM_PATHS, type Room, type RoomContents } from '@shared/contract/rooms';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { keepBothNames } from '@web/features/rooms/keep-both-names';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, signIn, signInAdmin, type Session } from './core-helpers';

/**
 * "Keep both" names in plain data rooms (issue 15): the browser picks "a (1).txt", "a (2).txt", …
 * (web/features/rooms/keep-both-names.ts) and announces them in turn; the server is the truth of
 * what is taken. Announces of one name racing each other — two tabs, two people, a batch and a
 * colleague — leave exactly one file of that name and answer the others 409 `nameExists`, so the
 * browser walks on to the next number. Runs on SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

let server: TestServer;
let owner: Session;
let editor: Session;
const api = (path: string) => `/api/2${path}`;

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signInAdmin(server);
  for (const name of ['owner', 'editor']) await createUserAsAdmin(server, admin, { email: `${name}@keep-both.test` });
  owner = await signIn(server, 'owner@keep-both.test', 'Good-Passw0rd');
  editor = await signIn(server, 'editor@keep-both.test', 'Good-Passw0rd');
}, 180_000);
afterAll(() => server?.close());

async function sharedRoom(name: string): Promise<Room> {
  const room = (await (await call(server, owner, 'POST', api(ROOM_PATHS.rooms), { name })).json()) as Room;
  expect((await call(server, owner, 'PUT', api(ROOM_PATHS.access(room.uuid)), { user: 'editor@keep-both.test', role: 'EDITOR' })).status).toBe(200);
  return room;
}

const announce = (session: Session, room: Room, name: string) => call(server, session, 'POST', api(ROOM_PATHS.files(room.uuid)), { name, size: 3, mimeType: 'text/plain' });

/** What the web's Keep both does (web/features/rooms/api/room-files.ts): the candidates in turn while the answer is 409 nameExists. */
async function keepBoth(session: Session, room: Room, name: string): Promise<string> {
  for (const candidate of keepBothNames(name)) {
    const response = await announce(session, room, candidate);
    if (response.status === 201) return ((await response.json()) as RoomUploadFile).name;
    expect(response.status).toBe(409);
    expect(((await response.json()) as { metadata: { reason: string } }).metadata.reason).toBe('nameExists');
  }
  throw new Error(`no free name for ${name}`);
}

describe('announce under concurrency', () => {
  it('of one free name at once: exactly one file, the others 409 nameExists', async () => {
    const room = await sharedRoom('Race room');
    for (const name of ['a (1).txt', 'b (1).txt', 'c (1).txt']) {
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_v, i) => announce(i % 2 ? editor : owner, room, name)),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
      for (const r of responses.filter((r) => r.status === 409)) expect(((await r.json()) as { metadata: { reason: string } }).metadata.reason).toBe('nameExists');
    }
  });

  it('keep both from two people at once, past a folder of a numbered name: every upload its own name', async () => {
    const room = await sharedRoom('Keep both room');
    expect((await announce(owner, room, 'a.txt')).status).toBe(201);
    expect((await call(server, owner, 'POST', api(ROOM_PATHS.folders(room.uuid)), { name: 'a (2).txt' })).status).toBe(201);
    // A batch of three a.txt from each of two people, keep both for all, the two batches side by side.
    const batch = async (session: Session) => {
      const names: string[] = [];
      for (let i = 0; i < 3; i++) names.push(await keepBoth(session, room, 'a.txt'));
      return names;
    };
    const [mine, theirs] = await Promise.all([batch(owner), batch(editor)]);
    const all = [...mine!, ...theirs!];
    expect(new Set(all).size).toBe(6);
    expect([...all].sort()).toEqual(['a (1).txt', 'a (3).txt', 'a (4).txt', 'a (5).txt', 'a (6).txt', 'a (7).txt']);
    const contents = (await (await call(server, owner, 'GET', api(ROOM_PATHS.room(room.uuid)))).json()) as RoomContents;
    expect(contents.folders.map((f) => f.name)).toEqual(['a (2).txt']);
    // "a (1).txt" kept again counts on from "a", not "a (1) (1).txt".
    expect(await keepBoth(owner, room, 'a (1).txt')).toBe('a (8).txt');
  });
});
