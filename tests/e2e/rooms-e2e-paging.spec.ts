// An E2E room of 30 files in the browser (issue 15 "bench -- rooms" follow-up): the page opens the
// first 25 (newest first), then the rest in the background, each page in two Worker calls, and shows
// 25 rows a page; a file whose sealed metadata was swapped for another file's is the only one marked
// "not trusted", every other row shows its verified signer; sorting by name orders the decrypted
// names across pages; search runs over the decrypted names on every page.
import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { seedE2eRoomFiles } from '../support/seed-e2e-room-files';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiCreateAccount, apiSignIn, secuPassFromNode, signInToInbox, test } from './fixtures';
import { unlockRoomKeys } from './rooms-fixtures';
import { e2eRowMenu, ROW_ITEMS } from './e2e-row-menu';

const PASSPHRASE = 'Paging-Room-SecuPass-Cedar-58';
const owner = { email: 'owner.rooms-paging@example.test', password: 'Good-Passw0rd-paging' };
const name = (i: number) => `Minutes ${String(i).padStart(2, '0')}.pdf`;

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
  const [sealed] = (await crypto.encryptRoomNames({ roomKey: handle, roomId: roomUuid, items: [{ kind: 'room', itemId: roomUuid, name: 'Board minutes' }] })).sealed;
  const wrappedKey = await crypto.wrapRoomKey({ roomKey: handle, roomId: roomUuid, recipientPublicKey: keys.encryption.publicKey });
  expect((await apiCall(server, session, 'POST', '/rooms/e2e', { uuid: roomUuid, name: sealed, recipientKeyId: wrappedKey.recipientKeyId, wrappedKey })).status).toBe(201);
  const uuids = await seedE2eRoomFiles(server.app.db, { roomUuid, roomKey: handle, folderUuid: null, count: 30, name, uploader: { uuid: me.user.uuid, email: owner.email, keys }, crypto });
  // File 7 gets file 8's sealed metadata (bound to file 8): it must not open as file 7's.
  const db = server.app.db;
  const idOf = async (uuid: string) => (await db.selectFrom('room_files').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow()).id;
  const eight = await db.selectFrom('room_e2e_files').select('metadata').where('file_id', '=', await idOf(uuids[8]!)).executeTakeFirstOrThrow();
  await db.updateTable('room_e2e_files').set({ metadata: eight.metadata }).where('file_id', '=', await idOf(uuids[7]!)).execute();
});
test.afterAll(async () => {
  await server?.close();
});

const unlock = (page: Page) => unlockRoomKeys(page, PASSPHRASE);

test('30 files: 25 a page, the swapped metadata is the one row not trusted, search finds names on any page', async ({ page }) => {
  test.setTimeout(180_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlock(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Board minutes' })).toBeVisible({ timeout: 30_000 });
  const table = page.getByRole('table', { name: 'Folders and files' });
  const rows = table.getByRole('row').filter({ hasText: /Minutes \d\d\.pdf/ });
  const pager = page.getByRole('navigation', { name: 'Pages of files' });
  await expect(rows).toHaveCount(25);
  await expect(pager).toContainText('1 to 25 of 30, page 1 of 2');
  const firstSigned = await rows.filter({ hasText: owner.email }).count();
  const firstBroken = await rows.filter({ hasText: 'Details cannot be decrypted – not trusted' }).count();
  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(pager).toContainText('26 to 30 of 30, page 2 of 2');
  await expect(rows).toHaveCount(5);
  expect(firstSigned + (await rows.filter({ hasText: owner.email }).count())).toBe(29);
  expect(firstBroken + (await rows.filter({ hasText: 'Details cannot be decrypted – not trusted' }).count())).toBe(1);

  // Search (from page 2) starts at the first page of the hits; the swapped one offers no download.
  await page.getByRole('searchbox', { name: 'Search in this folder' }).fill('Minutes 07');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Details cannot be decrypted – not trusted');
  // Its menu offers no download (Details still).
  await e2eRowMenu(rows.first(), 'Minutes 07.pdf').click();
  await expect(page.getByRole('menuitem', { name: ROW_ITEMS.details, exact: true })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: ROW_ITEMS.download, exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(pager).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search in this folder' }).fill('Minutes 08');
  await expect(rows.first()).toContainText(owner.email);
  await e2eRowMenu(rows.first(), 'Minutes 08.pdf').click();
  await expect(page.getByRole('menuitem', { name: ROW_ITEMS.download, exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
});

test('sorting by name gives the decrypted alphabetical order across pages; search finds a file on the last page', async ({ page }) => {
  test.setTimeout(180_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlock(page);
  const table = page.getByRole('table', { name: 'Folders and files' });
  const rows = table.getByRole('row').filter({ hasText: /Minutes \d\d\.pdf/ });
  const pager = page.getByRole('navigation', { name: 'Pages of files' });
  // The whole folder opened (the progress line gone), then by name: 00…24 on page 1, 25…29 on page 2.
  await expect(pager).toContainText('of 30', { timeout: 60_000 });
  await expect(page.getByRole('status').filter({ hasText: /Decrypting \d+ of 30 names/ })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Name, A to Z' });
  const names = async () => (await rows.allInnerTexts()).map((r) => /Minutes \d\d\.pdf/.exec(r)?.[0]);
  await expect.poll(names).toEqual(Array.from({ length: 25 }, (_, i) => name(i)));
  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(pager).toContainText('26 to 30 of 30, page 2 of 2');
  await expect.poll(names).toEqual(Array.from({ length: 5 }, (_, i) => name(25 + i)));
  // Back to the newest first, from page 1: the last page's file is found by its decrypted name.
  await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Modified, newest first' });
  await expect(pager).toContainText('1 to 25 of 30, page 1 of 2');
  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(pager).toContainText('26 to 30 of 30, page 2 of 2');
  await expect(rows).toHaveCount(5);
  const last = (await names()).at(-1)!;
  await pager.getByRole('button', { name: 'Previous page' }).click();
  await expect(pager).toContainText('page 1 of 2');
  await page.getByRole('searchbox', { name: 'Search in this folder' }).fill(last.replace('.pdf', ''));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(last);
});
