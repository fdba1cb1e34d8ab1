import { createHash } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { RoomSearchResult, RoomUploadFile } from '@shared/contract/room-files';
import type { RoomsSearchResult } from '@shared/contract/room-search';
import { ROOM_PATHS, type Room, type RoomFolder, type RoomList } from '@shared/contract/rooms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * GET /rooms/search (server/rooms/plain/search-all.ts, issue 15): names across every plain room the caller
 * can see — rooms, folders, files with their room and path; nothing of rooms the caller has no role
 * in, nothing below a folder-only member's folder's siblings, nothing in the trash; bad input 400.
 * Runs on SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

let server: TestServer;
const s: Record<'owner' | 'member' | 'folderOnly' | 'outsider', Session> = {} as never;
type Actor = keyof typeof s | 'anonymous';
const email = (name: string) => `${name}@rooms-search.test`;
const api = (path: string) => `/api/2${path}`;
const req = (actor: Actor, method: string, path: string, body?: unknown) => call(server, actor === 'anonymous' ? null : s[actor], method, api(path), body);
const search = (actor: Actor, q: string, pageSize?: number) =>
  req(actor, 'GET', `/rooms/search?q=${encodeURIComponent(q)}${pageSize ? `&pageSize=${pageSize}` : ''}`);

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

const newRoom = async (name: string) => json<Room>(await req('owner', 'POST', ROOM_PATHS.rooms, { name }), 201);
const newFolder = async (room: Room, name: string, parentUuid?: string) =>
  json<RoomFolder>(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name, ...(parentUuid ? { parentUuid } : {}) }), 201);

async function upload(room: Room, name: string, folderUuid?: string): Promise<RoomUploadFile> {
  const bytes = new Uint8Array(testFileBytes(20));
  const file = await json<RoomUploadFile>(await req('owner', 'POST', ROOM_PATHS.files(room.uuid), { name, size: bytes.length, ...(folderUuid ? { folderUuid } : {}) }), 201);
  const part = await fetch(`${server.url}${api(ROOM_PATHS.filePart(room.uuid, file.uuid, 0))}`, {
    method: 'PUT',
    headers: { cookie: s.owner.cookie, [ANTI_CSRF_HEADER]: s.owner.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': createHash('sha256').update(bytes).digest('hex') },
    body: new Blob([bytes]),
  });
  expect(part.status).toBe(200);
  return json<RoomUploadFile>(await req('owner', 'POST', ROOM_PATHS.fileCommit(room.uuid, file.uuid)), 200);
}

let alpha: Room;
let beta: Room;
let contracts: RoomFolder;
let signed: RoomFolder;
let secret: RoomFolder;

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signInAdmin(server);
  for (const name of ['owner', 'member', 'folderOnly', 'outsider'] as const) {
    await createUserAsAdmin(server, admin, { email: email(name), ...(name === 'owner' ? { firstName: 'Olga', lastName: 'Owner' } : {}) });
    s[name] = await signIn(server, email(name), 'Good-Passw0rd');
  }
  // Alpha: member on the room; folderOnly on Contracts only. Beta: owner alone.
  alpha = await newRoom('Alpha Contract Room');
  beta = await newRoom('Beta');
  contracts = await newFolder(alpha, 'Contracts');
  signed = await newFolder(alpha, 'Signed contracts', contracts.uuid);
  secret = await newFolder(alpha, 'Secret contract drafts');
  await upload(alpha, 'contract-2026.pdf', signed.uuid);
  await upload(alpha, 'old contract.pdf', secret.uuid);
  await upload(beta, 'Beta contract.txt');
  await json(await req('owner', 'PUT', ROOM_PATHS.access(alpha.uuid), { user: email('member'), role: 'VIEWER' }), 200);
  await json(await req('owner', 'PUT', ROOM_PATHS.access(alpha.uuid), { user: email('folderOnly'), role: 'EDITOR', folderUuid: contracts.uuid }), 200);
}, 120_000);
afterAll(() => server?.close());

describe('GET /rooms/search', () => {
  it('finds rooms, folders and files of every room of the owner with room and path', async () => {
    const hits = await json<RoomsSearchResult>(await search('owner', 'CONTRACT'), 200);
    expect(hits.rooms.map((r) => r.name)).toEqual(['Alpha Contract Room']);
    expect(hits.folders.map((f) => [f.name, f.room.name, f.path.map((p) => p.name)])).toEqual([
      ['Contracts', 'Alpha Contract Room', []],
      ['Secret contract drafts', 'Alpha Contract Room', []],
      ['Signed contracts', 'Alpha Contract Room', ['Contracts']],
    ]);
    expect(hits.files.map((f) => [f.name, f.room.name, f.path.map((p) => p.name)]).sort()).toEqual([
      ['Beta contract.txt', 'Beta', []],
      ['contract-2026.pdf', 'Alpha Contract Room', ['Contracts', 'Signed contracts']],
      ['old contract.pdf', 'Alpha Contract Room', ['Secret contract drafts']],
    ]);
    expect(hits.files.find((f) => f.name === 'contract-2026.pdf')).toMatchObject({ folderUuid: signed.uuid, roomUuid: alpha.uuid, role: 'OWNER' });
    // Names instead of addresses (issue 32): who uploaded or created each hit, with the address beside it.
    expect(hits.files.find((f) => f.name === 'contract-2026.pdf')).toMatchObject({ uploadedBy: email('owner'), uploadedByName: 'Olga Owner' });
    expect(hits.folders.find((f) => f.name === 'Contracts')).toMatchObject({ createdBy: email('owner'), createdByName: 'Olga Owner' });
    expect(hits.rooms[0]).toMatchObject({ createdBy: email('owner'), createdByName: 'Olga Owner' });
    expect(hits.truncated).toBe(false);
  });

  it('shows a member only the rooms and items they have a role on', async () => {
    const member = await json<RoomsSearchResult>(await search('member', 'contract'), 200);
    expect(member.rooms.map((r) => [r.name, r.role])).toEqual([['Alpha Contract Room', 'VIEWER']]);
    expect(member.files.map((f) => f.name).sort()).toEqual(['contract-2026.pdf', 'old contract.pdf']);
    // A role on one folder only: no room hit, only what is below that folder.
    const folderOnly = await json<RoomsSearchResult>(await search('folderOnly', 'contract'), 200);
    expect(folderOnly.rooms).toEqual([]);
    expect(folderOnly.folders.map((f) => f.name)).toEqual(['Contracts', 'Signed contracts']);
    expect(folderOnly.files.map((f) => [f.name, f.role])).toEqual([['contract-2026.pdf', 'EDITOR']]);
    const outsider = await json<RoomsSearchResult>(await search('outsider', 'contract'), 200);
    expect(outsider).toEqual({ rooms: [], folders: [], files: [], truncated: false });
  });

  it('ignores case and accents (issue 32 §1): Überblick is found by Überblick, überblick and uberblick — across rooms, in a room and in the room list', async () => {
    const gamma = await newRoom('Überblick Räume');
    await newFolder(gamma, 'Projekt Ä');
    await upload(gamma, 'Überblick.pdf');
    await upload(gamma, 'Zwischenstand.pdf');
    for (const q of ['Überblick', 'überblick', 'uberblick', 'UBERBLICK']) {
      const hits = await json<RoomsSearchResult>(await search('owner', q), 200);
      expect(hits.rooms.map((r) => r.name), q).toEqual(['Überblick Räume']);
      expect(hits.files.map((f) => f.name), q).toEqual(['Überblick.pdf']);
      const inRoom = await json<RoomSearchResult>(await req('owner', 'GET', `${ROOM_PATHS.search(gamma.uuid)}?q=${encodeURIComponent(q)}`), 200);
      expect(inRoom.files.map((f) => f.name), q).toEqual(['Überblick.pdf']);
      const list = await json<RoomList>(await req('owner', 'GET', `${ROOM_PATHS.rooms}?q=${encodeURIComponent(q)}`), 200);
      expect(list.rooms.map((r) => r.name), q).toEqual(['Überblick Räume']);
    }
    for (const q of ['Projekt Ä', 'projekt ä', 'projekt a']) {
      expect((await json<RoomsSearchResult>(await search('owner', q), 200)).folders.map((f) => f.name), q).toEqual(['Projekt Ä']);
    }
    // A near miss stays a miss; the member of Alpha sees nothing of Gamma.
    expect((await json<RoomsSearchResult>(await search('owner', 'oberblick'), 200)).files).toEqual([]);
    expect(await json<RoomsSearchResult>(await search('member', 'uberblick'), 200)).toEqual({ rooms: [], folders: [], files: [], truncated: false });
  });

  it('leaves out the trash and a deleted room; cuts at pageSize and says so', async () => {
    await json(await req('owner', 'DELETE', ROOM_PATHS.folder(alpha.uuid, secret.uuid)), 204);
    await json(await req('owner', 'DELETE', ROOM_PATHS.room(beta.uuid)), 204);
    const hits = await json<RoomsSearchResult>(await search('owner', 'contract'), 200);
    expect(hits.folders.map((f) => f.name)).toEqual(['Contracts', 'Signed contracts']);
    expect(hits.files.map((f) => f.name)).toEqual(['contract-2026.pdf']);
    const cut = await json<RoomsSearchResult>(await search('owner', 'contract', 1), 200);
    expect(cut.folders).toHaveLength(1);
    expect(cut.truncated).toBe(true);
  });

  it('refuses an empty or too long q and anonymous callers', async () => {
    await expectBackendError(await search('owner', '  '), 400, 'ValidationException');
    await expectBackendError(await search('owner', 'x'.repeat(201)), 400, 'ValidationException');
    await expectBackendError(await search('anonymous', 'contract'), 401, 'AuthenticationRequiredException');
  });
});
