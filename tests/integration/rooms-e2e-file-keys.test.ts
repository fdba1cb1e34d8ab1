import { ROOM_E2E_FILES_UUIDS_MAX, ROOM_E2E_PATHS, type E2eFileKeysList } from '@shared/contract/rooms-e2e';
import { ROOM_PATHS, type RoomContents } from '@shared/contract/rooms';
import { seedE2eRoomFiles } from '@tests/support/seed-e2e-room-files';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, expectBackendError, signIn, signInAdmin } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eRoom, json, openRoomKey, req } from './rooms-e2e-helpers';

/**
 * The sealed extras of one page of an E2E folder (`uuids`): the web page opens the first page of a
 * large folder without the extras of all its files (web/features/rooms/e2e/e2e-folder-loader.ts).
 */

const OWNER = { email: 'owner@rooms-e2e-file-keys.test', password: 'Good-Passw0rd-keys' };
let server: TestServer;
let owner: E2eActor;
let roomUuid: string;
let seeded: string[];

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { ...OWNER, language: 'en', roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  owner = await e2eActor(server, await signIn(server, OWNER.email, OWNER.password));
  const keys = await giveSecuPass(owner, 'File-Keys-SecuPass-Granite-31');
  const { room, response } = await createE2eRoom(server, owner, 'Keys room');
  expect(response.status).toBe(201);
  roomUuid = room.uuid;
  const { handle } = await openRoomKey(server, owner, roomUuid);
  seeded = await seedE2eRoomFiles(server.app.db, { roomUuid, roomKey: handle, folderUuid: null, count: 12, name: (i) => `Keys ${i}.pdf`, uploader: { uuid: owner.userUuid, email: OWNER.email, keys }, crypto: owner.crypto });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('GET /rooms/{roomUuid}/e2e/files?uuids=', () => {
  it('answers the extras of exactly the listed files: a page of the contents call, newest first', async () => {
    const page = await json<RoomContents>(await req(server, owner, 'GET', `${ROOM_PATHS.room(roomUuid)}?sort=updatedAt&order=desc&pageSize=5`), 200);
    expect(page.files).toHaveLength(5);
    const uuids = page.files.map((f) => f.uuid);
    const keys = await json<E2eFileKeysList>(await req(server, owner, 'GET', `${ROOM_E2E_PATHS.files(roomUuid)}?uuids=${uuids.join(',')}`), 200);
    expect(keys.files.map((f) => f.uuid).sort()).toEqual([...uuids].sort());
    const all = await json<E2eFileKeysList>(await req(server, owner, 'GET', ROOM_E2E_PATHS.files(roomUuid)), 200);
    expect(all.files.map((f) => f.uuid).sort()).toEqual([...seeded].sort());
  });

  it(`takes up to ROOM_E2E_FILES_UUIDS_MAX (${ROOM_E2E_FILES_UUIDS_MAX}) UUIDs a call and refuses one more with a 400 (a URL every proxy passes)`, async () => {
    // Unknown UUIDs fill the list: only the room's files answer.
    const fill = (n: number) => [...seeded, ...Array.from({ length: n - seeded.length }, () => crypto.randomUUID())];
    const most = await json<E2eFileKeysList>(await req(server, owner, 'GET', `${ROOM_E2E_PATHS.files(roomUuid)}?uuids=${fill(ROOM_E2E_FILES_UUIDS_MAX).join(',')}`), 200);
    expect(most.files.map((f) => f.uuid).sort()).toEqual([...seeded].sort());
    await expectBackendError(await req(server, owner, 'GET', `${ROOM_E2E_PATHS.files(roomUuid)}?uuids=${fill(ROOM_E2E_FILES_UUIDS_MAX + 1).join(',')}`), 400);
  });

  it('refuses a list that is not UUIDs, or empty, with a 400', async () => {
    for (const bad of ['not-a-uuid', `${seeded[0]},x`, '']) {
      await expectBackendError(await req(server, owner, 'GET', `${ROOM_E2E_PATHS.files(roomUuid)}?uuids=${bad}`), 400);
    }
  });
});
