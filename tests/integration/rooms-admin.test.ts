import type { ListUsersResponse } from '@shared/contract/admin-users';
import { ROOM_SETTING_KEYS } from '@shared/contract/room-admin';
import { ROOM_PATHS, type Room } from '@shared/contract/rooms';
import { SENDER_GROUP_PATHS } from '@shared/contract/sender-groups';
import { startTestServer, type TestServer } from '@tests/support/server';
import { roomSettings } from '@server/rooms/admin-settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';

/**
 * Administration of data rooms (issue 15; shared/contract/room-admin.ts): Secure rooms › General
 * (who creates rooms, E2E allowed, trash retention) through PUT /admin/settings and `roomSettings`.
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

const createRoom = (who: keyof typeof s, name: string) => call(server, s[who], 'POST', api(ROOM_PATHS.rooms), { name });

beforeAll(async () => {
  server = await startTestServer();
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
