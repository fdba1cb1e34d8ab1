import type { ListUsersResponse } from '@shared/contract/admin-users';
import { ROOM_PATHS, type Room, type RoomList } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS } from '@shared/contract/rooms-e2e';
import { SENDER_GROUP_PATHS } from '@shared/contract/sender-groups';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, sessionClient, type E2eActor } from './e2e-helpers';
import { createE2eRoom, json } from './rooms-e2e-helpers';

/**
 * SPEC §6/§8 "license overused" for data rooms on a real server (SQLite, or PostgreSQL with
 * KUVERT_TEST_DATABASE_URL): the operator lowers the caps below the counts (restart on the same
 * data); room creation, plain and E2E, answers 409 LicenseLimitExceededException with the figures
 * of the licence it relies on, creates nothing, and works again once a seat is freed.
 */
let server: TestServer;
let admin: Session;
let creator: Session;
let licensed: E2eActor;
const email = (name: string) => `${name}@rooms-licence.test`;
const api = (path: string) => `/api/2${path}`;

const createPlain = (session: Session, name: string) => call(server, session, 'POST', api(ROOM_PATHS.rooms), { name, encrypted: false });
/** The caller's rooms of both kinds: the plain list and the Secure one (issue 32: the plain list has plain rooms only). */
const roomNames = async (session: Session) =>
  (await Promise.all([ROOM_PATHS.rooms, ROOM_E2E_PATHS.list].map(async (path) => (await json<RoomList>(await call(server, session, 'GET', api(path)), 200)).rooms))).flat().map((r) => r.name);

async function expectOverused(response: Response, licence: string, cap: number, used: number) {
  const error = await expectBackendError(response, 409, 'LicenseLimitExceededException');
  expect(error.metadata).toEqual({ licence, cap, used, requested: 0 });
  expect(error.message).toContain(`${used} of ${cap}`);
}

/** Signs everyone in again on the restarted server (the E2E actor keeps its unlocked keys). */
async function signInAll() {
  admin = await signInAdmin(server);
  creator = await signIn(server, email('creator'), 'Good-Passw0rd');
  const session = await signIn(server, email('licensed'), 'Good-Passw0rd');
  licensed = { ...licensed, session, ...sessionClient(server, session) };
}

beforeAll(async () => {
  // The admin is the first sender; creator holds the role only, licensed and spare the sender licence.
  server = await startTestServer({ config: { licenceSenders: 3, licenceDataRoomCreators: 1 } });
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: email('creator'), licensed: false, roleNames: ['ROLE_UI_USER', 'ROLE_SECUROOMS_USER', 'ROLE_SECUROOMS_CREATOR'] });
  await createUserAsAdmin(server, admin, { email: email('licensed') });
  await createUserAsAdmin(server, admin, { email: email('spare') });
  creator = await signIn(server, email('creator'), 'Good-Passw0rd');
  licensed = await e2eActor(server, await signIn(server, email('licensed'), 'Good-Passw0rd'));
  await giveSecuPass(licensed, 'licensed-SecuPass-rooms-licence-Amber-4');
}, 120_000);
afterAll(() => server?.close());

describe('room creation against the licence caps', () => {
  it('at the caps (used = cap) every holder creates plain rooms, the licensed one E2E rooms too', async () => {
    await json<Room>(await createPlain(creator, 'Creator at cap'), 201);
    await json<Room>(await createPlain(licensed.session, 'Licensed at cap'), 201);
    expect((await createE2eRoom(server, licensed, 'E2E at cap')).response.status).toBe(201);
  });

  it('caps lowered below the counts: 409 with the figures of the licence relied on, nothing created', async () => {
    const { dataDir, databaseSchema } = server;
    await server.close({ keepData: true });
    server = await startTestServer({ reuse: { dataDir, databaseSchema }, config: { licenceSenders: 2, licenceDataRoomCreators: 0 } });
    await signInAll();
    await expectOverused(await createPlain(creator, 'Creator over'), 'dataRoomCreators', 0, 1);
    await expectOverused(await createPlain(licensed.session, 'Licensed over'), 'senders', 2, 3);
    const e2e = await createE2eRoom(server, licensed, 'E2E over');
    await expectOverused(e2e.response, 'senders', 2, 3);
    expect(await roomNames(creator)).toEqual(['Creator at cap']);
    expect(await roomNames(licensed.session)).toHaveLength(2);
    // The room list still offers creation: the refusal with its figures is what the web shows.
    expect((await json<RoomList>(await call(server, creator, 'GET', api(ROOM_PATHS.rooms)), 200)).mayCreate.plain).toBe(true);
  });

  it('freeing a sender seat lets the licensed user create again (plain and E2E); the role alone stays over', async () => {
    const users = await json<ListUsersResponse>(await call(server, admin, 'GET', api(`/admin/users?q=${encodeURIComponent(email('spare'))}`)), 200);
    await json(await call(server, admin, 'PATCH', api(SENDER_GROUP_PATHS.userSender(users.users[0]!.uuid)), { licensed: false }), 200);
    await json<Room>(await createPlain(licensed.session, 'Licensed freed'), 201);
    expect((await createE2eRoom(server, licensed, 'E2E freed')).response.status).toBe(201);
    await expectOverused(await createPlain(creator, 'Creator still over'), 'dataRoomCreators', 0, 1);
    expect(await roomNames(licensed.session)).toHaveLength(4);
  });
});
