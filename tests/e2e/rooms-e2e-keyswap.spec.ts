// A swapped file key in an E2E room, in the browser (issue 15): the server hands out file 2's
// wrapped key for file 1 (both real, both sealed to the room key). File 1's signed metadata still
// verifies, so the row is listed with its signer; the download refuses to unwrap a key bound to
// another file and says so with its own text ("The file key does not belong to this file"), not
// "Cannot be verified". Every row of an E2E room reads "Not scanned".
import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { seedE2eRoomFiles } from '../support/seed-e2e-room-files';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiCreateAccount, apiSignIn, locale, secuPassFromNode, signInToInbox, test } from './fixtures';
import { unlockRoomKeys } from './rooms-fixtures';
import { e2eRowAction, ROW_ITEMS } from './e2e-row-menu';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const PASSPHRASE = 'Keyswap-Room-SecuPass-Birch-41';
const owner = { email: 'owner.rooms-keyswap@example.test', password: 'Good-Passw0rd-keyswap' };
const name = (i: number) => `Offer ${i + 1}.pdf`;

let server: TestServer;
let roomUuid: string;

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  await apiCreateAccount(server, admin, owner);
  const { keys, crypto } = await secuPassFromNode(server, owner, PASSPHRASE);
  const session = await apiSignIn(server, owner);
  const me = (await (await apiCall(server, session, 'GET', '/user')).json()) as { user: { uuid: string } };
  roomUuid = randomUUID();
  const { handle } = await crypto.generateRoomKey();
  const [sealed] = (await crypto.encryptRoomNames({ roomKey: handle, roomId: roomUuid, items: [{ kind: 'room', itemId: roomUuid, name: 'Offers' }] })).sealed;
  const wrappedKey = await crypto.wrapRoomKey({ roomKey: handle, roomId: roomUuid, recipientPublicKey: keys.encryption.publicKey });
  expect((await apiCall(server, session, 'POST', '/rooms/e2e', { uuid: roomUuid, name: sealed, recipientKeyId: wrappedKey.recipientKeyId, wrappedKey })).status).toBe(201);
  const uuids = await seedE2eRoomFiles(server.app.db, { roomUuid, roomKey: handle, folderUuid: null, count: 2, name, uploader: { uuid: me.user.uuid, email: owner.email, keys }, crypto });
  const db = server.app.db;
  const idOf = async (uuid: string) => (await db.selectFrom('room_files').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow()).id;
  const second = await db.selectFrom('room_e2e_files').select('wrapped_file_key').where('file_id', '=', await idOf(uuids[1]!)).executeTakeFirstOrThrow();
  await db.updateTable('room_e2e_files').set({ wrapped_file_key: second.wrapped_file_key }).where('file_id', '=', await idOf(uuids[0]!)).execute();
});
test.afterAll(async () => {
  await server?.close();
});

const unlock = (page: Page) => unlockRoomKeys(page, PASSPHRASE);

test('the download of a file with a swapped key names the problem; rows read not scanned', async ({ page }) => {
  test.setTimeout(180_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlock(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Offers' })).toBeVisible({ timeout: 30_000 });
  const table = page.getByRole('table', { name: 'Folders and files' });
  const swapped = table.getByRole('row', { name: /Offer 1\.pdf/ });
  await expect(swapped).toContainText(owner.email);
  await expect(table.getByText(rooms.scan.notScanned)).toHaveCount(2);

  await e2eRowAction(swapped, 'Offer 1.pdf', ROW_ITEMS.download);
  await expect(page.getByText(rooms.e2e.downloadFailed.replace('{{name}}', 'Offer 1.pdf'), { exact: true })).toBeVisible();
  const problem = page.getByText(rooms.e2e.problems['room-file-key-unwrap-failed'], { exact: true });
  await expect(problem).toBeVisible();
  await expect(page.getByText(rooms.e2e.problems.unknown, { exact: true })).toHaveCount(0);
});
