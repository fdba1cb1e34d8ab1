import type { ListUsersResponse } from '@shared/contract/admin-users';
import type { RoomTrashList } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomAccessList, type RoomContents, type RoomFolder, type RoomList } from '@shared/contract/rooms';
import { SENDER_GROUP_PATHS } from '@shared/contract/sender-groups';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

/**
 * Plain data rooms (server/rooms, issue 15): the SPEC §6 role matrix over every room and folder
 * route, inheritance and per-folder overrides, sharing rules, §5 names and bad input. Runs on
 * SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

let server: TestServer;
let admin: Session;
const s: Record<'owner' | 'editor' | 'viewer' | 'previewer' | 'outsider' | 'unlicensed', Session> = {} as never;
const api = (path: string) => `/api/2${path}`;
type Actor = keyof typeof s | 'anonymous';
const ACTORS: Actor[] = ['owner', 'editor', 'viewer', 'previewer', 'outsider', 'anonymous'];
const sessionOf = (actor: Actor) => (actor === 'anonymous' ? null : s[actor]);
const email = (name: string) => `${name}@rooms.test`;

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

const req = (actor: Actor, method: string, path: string, body?: unknown) => call(server, sessionOf(actor), method, api(path), body);

async function newRoom(name: string): Promise<Room> {
  const room = await json<Room>(await req('owner', 'POST', ROOM_PATHS.rooms, { name }), 201);
  for (const [who, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email(who), role }), 200);
  }
  return room;
}
const newFolder = async (room: Room, name: string, parentUuid?: string) =>
  json<RoomFolder>(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name, ...(parentUuid ? { parentUuid } : {}) }), 201);

/** The expected status per actor: `ok` for OWNER…, 403 for a member without the right, 404 outsider, 401 anonymous. */
function expected(allowed: readonly Actor[], ok: number): Record<Actor, number> {
  return Object.fromEntries(
    ACTORS.map((a) => [a, allowed.includes(a) ? ok : a === 'anonymous' ? 401 : a === 'outsider' ? 404 : 403]),
  ) as Record<Actor, number>;
}

async function expectDenied(response: Response, status: number, secret: string) {
  const error = await expectBackendError(response, status, status === 401 ? 'AuthenticationRequiredException' : status === 404 ? 'NotFoundException' : 'AccessDeniedException');
  expect(JSON.stringify(error)).not.toContain(secret); // no names leak
  if (status === 403) expect(error.message).toBe("You don't have sufficient rights, please ask your administrator");
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  for (const name of ['owner', 'editor', 'viewer', 'previewer', 'outsider', 'unlicensed'] as const) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    s[name] = await signIn(server, email(name), 'Good-Passw0rd');
  }
  const users = await json<ListUsersResponse>(await call(server, admin, 'GET', `${api('/admin/users')}?q=unlicensed`), 200);
  await json(await call(server, admin, 'PATCH', api(SENDER_GROUP_PATHS.userSender(users.users[0]!.uuid)), { licensed: false }), 200);
}, 180_000);
afterAll(() => server?.close());

describe('creating and listing rooms', () => {
  it('a licensed user creates a room and is its OWNER; an unlicensed user without ROLE_SECUROOMS_CREATOR gets 403', async () => {
    const room = await json<Room>(await req('owner', 'POST', ROOM_PATHS.rooms, { name: '  Projects 2026 ' }), 201);
    expect(room).toMatchObject({ name: 'Projects 2026', encrypted: false, role: 'OWNER', createdBy: email('owner') });
    await expectBackendError(await req('unlicensed', 'POST', ROOM_PATHS.rooms, { name: 'Mine' }), 403, 'AccessDeniedException');
    await expectBackendError(await req('anonymous', 'POST', ROOM_PATHS.rooms, { name: 'Mine' }), 401, 'AuthenticationRequiredException');
    // The same name again (any case) is refused for the same user.
    const again = await expectBackendError(await req('owner', 'POST', ROOM_PATHS.rooms, { name: 'projects 2026' }), 409, 'ConflictException');
    expect(again.metadata).toMatchObject({ reason: 'nameExists', kind: 'room' });
  });

  it('an end-to-end encrypted room is not created by the plain call (the browser seals it: POST /rooms/e2e)', async () => {
    const refused = await expectBackendError(await req('owner', 'POST', ROOM_PATHS.rooms, { name: 'Secret', encrypted: true }), 400, 'ValidationException');
    expect(refused.metadata).toMatchObject({ field: 'encrypted', reason: 'useE2eCreate' });
  });

  it('lists only rooms with a role, newest first, by cursor and q', async () => {
    const names = ['List A', 'List B', 'List C'];
    const made: Room[] = [];
    for (const name of names) made.push(await newRoom(name));
    const first = await json<RoomList>(await req('viewer', 'GET', `${ROOM_PATHS.rooms}?q=list&pageSize=2`), 200);
    expect(first.rooms.map((r) => r.name)).toEqual(['List C', 'List B']);
    expect(first.rooms.every((r) => r.role === 'VIEWER')).toBe(true);
    const second = await json<RoomList>(await req('viewer', 'GET', `${ROOM_PATHS.rooms}?q=list&pageSize=2&cursor=${first.nextCursor}`), 200);
    expect(second.rooms.map((r) => r.name)).toEqual(['List A']);
    expect(second.nextCursor).toBeNull();
    const outsider = await json<RoomList>(await req('outsider', 'GET', ROOM_PATHS.rooms), 200);
    expect(outsider.rooms).toEqual([]);
    await expectBackendError(await req('viewer', 'GET', `${ROOM_PATHS.rooms}?cursor=not-ours!`), 400, 'ValidationException');
    await expectBackendError(await req('viewer', 'GET', `${ROOM_PATHS.rooms}?pageSize=0`), 400, 'ValidationException');
    await expectBackendError(await req('anonymous', 'GET', ROOM_PATHS.rooms), 401, 'AuthenticationRequiredException');
  });
});

describe('role matrix (SPEC §6)', () => {
  const EVERYONE: Actor[] = ['owner', 'editor', 'viewer', 'previewer'];
  const WRITERS: Actor[] = ['owner', 'editor'];

  it('GET room and folder: every member; outsiders 404, anonymous 401, nothing leaks', async () => {
    const room = await newRoom('Matrix see');
    const folder = await newFolder(room, 'Hidden plans');
    for (const [actor, status] of Object.entries(expected(EVERYONE, 200)) as Array<[Actor, number]>) {
      const top = await req(actor, 'GET', ROOM_PATHS.room(room.uuid));
      const inner = await req(actor, 'GET', ROOM_PATHS.folder(room.uuid, folder.uuid));
      if (status === 200) {
        expect((await json<RoomContents>(top, 200)).folders.map((f) => f.name)).toEqual(['Hidden plans']);
        expect((await json<RoomContents>(inner, 200)).folder?.name).toBe('Hidden plans');
      } else {
        await expectDenied(top, status, 'Hidden plans');
        await expectDenied(inner, status, 'Hidden plans');
      }
    }
  });

  it('create, rename, move and delete folders: OWNER and EDITOR; VIEWER and PREVIEWER 403', async () => {
    const room = await newRoom('Matrix write');
    const target = await newFolder(room, 'Target');
    for (const [actor, status] of Object.entries(expected(WRITERS, 201)) as Array<[Actor, number]>) {
      const created = await req(actor, 'POST', ROOM_PATHS.folders(room.uuid), { name: `By ${actor}` });
      if (status !== 201) {
        await expectDenied(created, status, 'Matrix write');
        continue;
      }
      const folder = await json<RoomFolder>(created, 201);
      const renamed = await json<RoomFolder>(await req(actor, 'PATCH', ROOM_PATHS.folder(room.uuid, folder.uuid), { name: `Renamed ${actor}` }), 200);
      expect(renamed.name).toBe(`Renamed ${actor}`);
      const moved = await json<RoomFolder>(await req(actor, 'PATCH', ROOM_PATHS.folder(room.uuid, folder.uuid), { parentUuid: target.uuid }), 200);
      expect(moved.parentUuid).toBe(target.uuid);
      await json(await req(actor, 'DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid)), 204);
      await expectBackendError(await req('owner', 'GET', ROOM_PATHS.folder(room.uuid, folder.uuid)), 404, 'NotFoundException');
    }
    const victim = await newFolder(room, 'Victim');
    for (const actor of ['viewer', 'previewer', 'outsider', 'anonymous'] as const) {
      const status = expected(WRITERS, 0)[actor];
      await expectDenied(await req(actor, 'PATCH', ROOM_PATHS.folder(room.uuid, victim.uuid), { name: 'Mine now' }), status, 'Victim');
      await expectDenied(await req(actor, 'DELETE', ROOM_PATHS.folder(room.uuid, victim.uuid)), status, 'Victim');
    }
    expect((await json<RoomContents>(await req('owner', 'GET', ROOM_PATHS.room(room.uuid)), 200)).folders.map((f) => f.name)).toEqual(['Target', 'Victim']);
  });

  it('rename and delete the room, list and change access: OWNER only', async () => {
    const room = await newRoom('Matrix own');
    for (const actor of ['editor', 'viewer', 'previewer', 'outsider', 'anonymous'] as const) {
      const status = expected(['owner'], 0)[actor];
      await expectDenied(await req(actor, 'PATCH', ROOM_PATHS.room(room.uuid), { name: 'Taken over' }), status, 'Matrix own');
      await expectDenied(await req(actor, 'GET', ROOM_PATHS.access(room.uuid)), status, 'Matrix own');
      await expectDenied(await req(actor, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('outsider'), role: 'OWNER' }), status, 'Matrix own');
      await expectDenied(await req(actor, 'DELETE', ROOM_PATHS.room(room.uuid)), status, 'Matrix own');
    }
    const access = await json<RoomAccessList>(await req('owner', 'GET', ROOM_PATHS.access(room.uuid)), 200);
    expect(access.entries.map((e) => [e.user.email, e.role, e.inherited, e.wrappedKey])).toEqual([
      [email('editor'), 'EDITOR', false, null],
      [email('owner'), 'OWNER', false, null],
      [email('previewer'), 'PREVIEWER', false, null],
      [email('viewer'), 'VIEWER', false, null],
    ]);
    expect((await json<Room>(await req('owner', 'PATCH', ROOM_PATHS.room(room.uuid), { name: 'Matrix renamed' }), 200)).name).toBe('Matrix renamed');
    await json(await req('owner', 'DELETE', ROOM_PATHS.room(room.uuid)), 204);
    // In the trash: gone for every member.
    for (const actor of EVERYONE) await expectBackendError(await req(actor, 'GET', ROOM_PATHS.room(room.uuid)), 404, 'NotFoundException');
    expect((await json<RoomList>(await req('viewer', 'GET', `${ROOM_PATHS.rooms}?q=matrix`), 200)).rooms.map((r) => r.uuid)).not.toContain(room.uuid);
  });
});

describe('inheritance and per-folder overrides', () => {
  it('a role set on a folder wins there and below; elsewhere the room role applies', async () => {
    const room = await newRoom('Inherit');
    const reports = await newFolder(room, 'Reports');
    const q1 = await newFolder(room, 'Q1', reports.uuid);
    const other = await newFolder(room, 'Other');
    // The viewer becomes EDITOR on Reports (and Q1 below); the editor only PREVIEWER there.
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('viewer'), role: 'EDITOR', folderUuid: reports.uuid }), 200);
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: 'editor@rooms.test', role: 'PREVIEWER', folderUuid: reports.uuid }), 200);
    await json<RoomFolder>(await req('viewer', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Q2', parentUuid: q1.uuid }), 201);
    await expectBackendError(await req('viewer', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'X', parentUuid: other.uuid }), 403, 'AccessDeniedException');
    await expectBackendError(await req('editor', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Y', parentUuid: q1.uuid }), 403, 'AccessDeniedException');
    await json<RoomFolder>(await req('editor', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Y', parentUuid: other.uuid }), 201);
    const seen = await json<RoomContents>(await req('viewer', 'GET', ROOM_PATHS.folder(room.uuid, q1.uuid)), 200);
    expect(seen.folder?.role).toBe('EDITOR');
    expect(seen.room.role).toBe('VIEWER');
    expect(seen.path.map((p) => p.name)).toEqual(['Reports']);
    // The owner sees where each role comes from.
    const onQ1 = await json<RoomAccessList>(await req('owner', 'GET', `${ROOM_PATHS.access(room.uuid)}?folderUuid=${q1.uuid}`), 200);
    expect(onQ1.entries.find((e) => e.user.email === email('viewer'))).toMatchObject({ role: 'EDITOR', setOn: reports.uuid, inherited: true });
    expect(onQ1.entries.find((e) => e.user.email === email('owner'))).toMatchObject({ role: 'OWNER', setOn: null, inherited: true });
    // Revoking the override (role null) restores the inherited role.
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('viewer'), role: null, folderUuid: reports.uuid }), 200);
    await expectBackendError(await req('viewer', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Q3', parentUuid: q1.uuid }), 403, 'AccessDeniedException');
    // A user with a role on one folder only sees that folder, not the room.
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('outsider'), role: 'VIEWER', folderUuid: other.uuid }), 200);
    await json<RoomContents>(await req('outsider', 'GET', ROOM_PATHS.folder(room.uuid, other.uuid)), 200);
    await expectBackendError(await req('outsider', 'GET', ROOM_PATHS.folder(room.uuid, reports.uuid)), 404, 'NotFoundException');
    await expectBackendError(await req('outsider', 'GET', ROOM_PATHS.room(room.uuid)), 404, 'NotFoundException');
  });
});

describe('the room trash (issue 32 §1: who may delete may undo it)', () => {
  const trashNames = async (actor: Actor, room: Room) => (await json<RoomTrashList>(await req(actor, 'GET', ROOM_PATHS.trash(room.uuid)), 200)).entries.map((e) => e.name).sort();

  it('an EDITOR lists, restores and purges what was deleted; VIEWER and PREVIEWER get 403, a non-member 404', async () => {
    const room = await newRoom('Trash editor');
    const drafts = await newFolder(room, 'Drafts');
    const old = await newFolder(room, 'Old');
    await json(await req('editor', 'DELETE', ROOM_PATHS.folder(room.uuid, drafts.uuid)), 204);
    await json(await req('owner', 'DELETE', ROOM_PATHS.folder(room.uuid, old.uuid)), 204);
    expect(await trashNames('editor', room)).toEqual(['Drafts', 'Old']);
    for (const actor of ['viewer', 'previewer', 'outsider', 'anonymous'] as const) {
      const status = expected(['owner', 'editor'], 0)[actor];
      await expectDenied(await req(actor, 'GET', ROOM_PATHS.trash(room.uuid)), status, 'Drafts');
      await expectDenied(await req(actor, 'POST', ROOM_PATHS.trashRestore(room.uuid, drafts.uuid)), status, 'Drafts');
      await expectDenied(await req(actor, 'DELETE', ROOM_PATHS.trashItem(room.uuid, drafts.uuid)), status, 'Drafts');
    }
    await json(await req('editor', 'POST', ROOM_PATHS.trashRestore(room.uuid, drafts.uuid)), 204);
    expect((await json<RoomContents>(await req('viewer', 'GET', ROOM_PATHS.room(room.uuid)), 200)).folders.map((f) => f.name)).toEqual(['Drafts']);
    await json(await req('editor', 'DELETE', ROOM_PATHS.trashItem(room.uuid, old.uuid)), 204);
    expect(await trashNames('owner', room)).toEqual([]);
    await expectBackendError(await req('editor', 'POST', ROOM_PATHS.trashRestore(room.uuid, old.uuid)), 404, 'NotFoundException');
  });

  it('a member who is EDITOR on one folder only sees and restores what was deleted there', async () => {
    const room = await newRoom('Trash override');
    const reports = await newFolder(room, 'Reports');
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('viewer'), role: 'EDITOR', folderUuid: reports.uuid }), 200);
    const q1 = await json<RoomFolder>(await req('viewer', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Q1', parentUuid: reports.uuid }), 201);
    const top = await newFolder(room, 'Top secret');
    await json(await req('viewer', 'DELETE', ROOM_PATHS.folder(room.uuid, q1.uuid)), 204);
    await json(await req('owner', 'DELETE', ROOM_PATHS.folder(room.uuid, top.uuid)), 204);
    expect(await trashNames('viewer', room)).toEqual(['Q1']);
    expect(await trashNames('owner', room)).toEqual(['Q1', 'Top secret']);
    await expectDenied(await req('viewer', 'POST', ROOM_PATHS.trashRestore(room.uuid, top.uuid)), 403, 'Top secret');
    await expectDenied(await req('viewer', 'DELETE', ROOM_PATHS.trashItem(room.uuid, top.uuid)), 403, 'Top secret');
    await json(await req('viewer', 'POST', ROOM_PATHS.trashRestore(room.uuid, q1.uuid)), 204);
    expect((await json<RoomContents>(await req('viewer', 'GET', ROOM_PATHS.folder(room.uuid, reports.uuid)), 200)).folders.map((f) => f.name)).toEqual(['Q1']);
  });
});

describe('sharing rules', () => {
  it('only registered users; own change needs confirmation; the last OWNER cannot leave', async () => {
    const room = await newRoom('Sharing');
    // Not an account and not an address (an address without an account is invited: rooms-invitations.test.ts).
    const unknown = await expectBackendError(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: 'nobody-at-all', role: 'VIEWER' }), 400, 'InviteUserToShareException');
    expect(unknown.metadata).toMatchObject({ reason: 'notRegistered' });
    const unconfirmed = await expectBackendError(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('owner'), role: 'VIEWER' }), 409, 'ConflictException');
    expect(unconfirmed.metadata).toMatchObject({ reason: 'confirmOwnChange' });
    const last = await expectBackendError(
      await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('owner'), role: null, confirmOwnChange: true }),
      409,
      'ConflictException',
    );
    expect(last.metadata).toMatchObject({ reason: 'lastOwner' });
    expect((await json<RoomContents>(await req('owner', 'GET', ROOM_PATHS.room(room.uuid)), 200)).room.role).toBe('OWNER');
    // With a second OWNER the first may step down — irreversibly.
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('editor'), role: 'OWNER' }), 200);
    const after = await json<RoomAccessList>(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('owner'), role: 'VIEWER', confirmOwnChange: true }), 200);
    expect(after.entries).toEqual([]);
    await expectBackendError(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('owner'), role: 'OWNER', confirmOwnChange: true }), 403, 'AccessDeniedException');
    expect((await json<RoomContents>(await req('editor', 'GET', ROOM_PATHS.room(room.uuid)), 200)).room.role).toBe('OWNER');
  });
});

describe('names and bad input (SPEC §5, §8)', () => {
  it('refuses invalid, too long and duplicate names, moves into another room or into itself, bad ids and bodies — never a 5xx', async () => {
    const room = await newRoom('Names');
    const a = await newFolder(room, 'Alpha');
    const b = await newFolder(room, 'Beta', a.uuid);
    // The one name rule (shared/contract/names.ts), answered as delivery file names are.
    for (const [name, nameProblem] of [
      ['', 'blank'],
      ['   ', 'blank'],
      ['a/b', 'invalidCharacters'],
      ['what?', 'invalidCharacters'],
      ['tab\there', 'invalidCharacters'],
      ['x'.repeat(256), 'tooLong'],
      ['..', 'invalidCharacters'],
      ['CON', 'reservedName'],
      ['trailing.', 'trailingDotOrSpace'],
      ['invoice\u202Efdp.exe', 'bidiControl'],
      ['a\u2066b', 'bidiControl'],
      ['zero\u200Bwidth', 'zeroWidth'],
      ['\uFEFFbom', 'zeroWidth'],
    ] as const) {
      const error = await expectBackendError(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name }), 400, 'ValidationException');
      expect(error.message).toBe('Invalid file name');
      expect(error.metadata).toMatchObject({ field: 'name', reason: 'invalidFileName', nameProblem });
    }
    // Stored in NFC, so the decomposed spelling is the same name.
    const cafe = await newFolder(room, 'Cafe\u0301');
    expect(cafe.name).toBe('Café');
    expect((await expectBackendError(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'CAFÉ' }), 409, 'ConflictException')).metadata).toMatchObject({ reason: 'nameExists' });
    expect((await expectBackendError(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Café' }), 409, 'ConflictException')).metadata).toMatchObject({ reason: 'nameExists' });
    const renamed = await expectBackendError(await req('owner', 'PATCH', ROOM_PATHS.folder(room.uuid, cafe.uuid), { name: 'x\u202Etxt.exe' }), 400, 'ValidationException');
    expect(renamed.metadata).toMatchObject({ reason: 'invalidFileName', nameProblem: 'bidiControl' });
    const badRoom = await expectBackendError(await req('owner', 'POST', ROOM_PATHS.rooms, { name: 'Room\u200D' }), 400, 'ValidationException');
    expect(badRoom.metadata).toMatchObject({ reason: 'invalidFileName', nameProblem: 'zeroWidth' });
    expect((await json<Room>(await req('owner', 'POST', ROOM_PATHS.rooms, { name: 'Re\u0301sume\u0301 room' }), 201)).name).toBe('Résumé room');
    const dup = await expectBackendError(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'ALPHA' }), 409, 'ConflictException');
    expect(dup.metadata).toMatchObject({ reason: 'nameExists', kind: 'folder' });
    await newFolder(room, 'Alpha', b.uuid); // the same name elsewhere is fine
    const gamma = await newFolder(room, 'Gamma');
    await expectBackendError(await req('owner', 'PATCH', ROOM_PATHS.folder(room.uuid, gamma.uuid), { name: 'alpha' }), 409, 'ConflictException');
    const other = await newRoom('Names other');
    const cross = await expectBackendError(await req('owner', 'PATCH', ROOM_PATHS.folder(room.uuid, gamma.uuid), { roomUuid: other.uuid }), 400, 'ValidationException');
    expect(cross.metadata).toMatchObject({ reason: 'moveToOtherRoom' });
    const loop = await expectBackendError(await req('owner', 'PATCH', ROOM_PATHS.folder(room.uuid, a.uuid), { parentUuid: b.uuid }), 400, 'ValidationException');
    expect(loop.metadata).toMatchObject({ reason: 'moveIntoItself' });
    // A folder of another room is not found through this room.
    const foreign = await newFolder(other, 'Foreign');
    await expectBackendError(await req('owner', 'GET', ROOM_PATHS.folder(room.uuid, foreign.uuid)), 404, 'NotFoundException');
    await expectBackendError(await req('owner', 'GET', ROOM_PATHS.room('not-a-uuid')), 400, 'ValidationException');
    await expectBackendError(await req('owner', 'GET', ROOM_PATHS.room('00000000-0000-4000-8000-000000000000')), 404, 'NotFoundException');
    await expectBackendError(await req('owner', 'POST', ROOM_PATHS.rooms, { name: 'X', extra: 1 }), 400, 'ValidationException');
    await expectBackendError(await req('owner', 'POST', ROOM_PATHS.rooms, { name: 42 }), 400, 'ValidationException');
    await expectBackendError(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('viewer'), role: 'ADMIN' }), 400, 'ValidationException');
    await expectBackendError(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'x', parentUuid: 'nope' }), 400, 'ValidationException');
  });
});
