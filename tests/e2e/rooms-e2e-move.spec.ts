// Moving inside an end-to-end encrypted room in the browser against the real server: the move-to
// dialog shows the room's folders by their decrypted names, refuses a name the target already holds
// (checked here on decrypted names: the server cannot compare sealed ones), moves the file, and the
// moved file opens in its new folder verified (signer shown) and downloads with the same SHA-256;
// then a folder moves, and the activity shows both moves.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server';
import { apiCreateAccount, apiSignIn, expectNoSeriousA11yViolations, locale, secuPassFromNode, signInToInbox, test } from './fixtures';
import { newE2eFolder, unlockRoomKeys } from './rooms-fixtures';
import { e2eRowAction, e2eRowMenu, ROW_ITEMS } from './e2e-row-menu';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const PASSWORD = 'Good-Passw0rd-rooms-move';
const PASSPHRASE = 'Owner-Room-Move-SecuPass-Garnet-31';
const owner = { email: 'owner.rooms-e2e-move@example.test', password: PASSWORD };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();
/** The file's row in the folder's list with its signer shown (name decrypted, signature verified). */
const verifiedRow = (page: Page, name: string) => page.getByRole('table', { name: rooms.e2e.contentsLabel }).getByRole('row').filter({ hasText: name }).filter({ hasText: owner.email });

let server: TestServer;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  await apiCreateAccount(server, admin, owner);
  await secuPassFromNode(server, owner, PASSPHRASE);
});
test.afterAll(async () => {
  await server?.close();
});

const unlock = (page: Page) => unlockRoomKeys(page, PASSPHRASE);


test('a file moves into another folder of the E2E room: decrypted names in the dialog, a taken name refused, verified and SHA-256 equal where it went', async ({ page }) => {
  test.setTimeout(240_000);
  const bytes = new Uint8Array(randomBytes(60_000));
  await signInToInbox(page, server, owner);
  await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'memory'));
  await page.goto(`${server.url}/secure-rooms`);
  await unlock(page);
  await page.getByRole('button', { name: 'Create end-to-end encrypted room' }).click();
  const create = page.getByRole('dialog', { name: 'Create end-to-end encrypted room' });
  await create.getByLabel('Name of the data room').fill('Merger papers');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Merger papers' })).toBeVisible({ timeout: 30_000 });

  await newE2eFolder(page, 'Drafts');
  await newE2eFolder(page, 'Signed');
  await page.getByLabel('Upload files', { exact: true }).setInputFiles({ name: 'term-sheet.pdf', mimeType: 'application/pdf', buffer: Buffer.from(bytes) });
  await expect(verifiedRow(page, 'term-sheet.pdf')).toBeVisible({ timeout: 60_000 });
  // Drafts already holds a folder "Term-Sheet.pdf" (names compare case-insensitively, as in plain rooms).
  await page.getByRole('link', { name: 'Drafts', exact: true }).click();
  await expect(page.getByText(rooms.e2e.folderEmpty)).toBeVisible({ timeout: 30_000 });
  await newE2eFolder(page, 'Term-Sheet.pdf');
  await page.getByRole('link', { name: 'Merger papers' }).click();
  await expect(verifiedRow(page, 'term-sheet.pdf')).toBeVisible({ timeout: 60_000 });

  // Keyboard: the row's menu opens with Enter, the arrow keys reach Move, Enter opens the dialog.
  await e2eRowMenu(page, 'term-sheet.pdf').focus();
  await page.keyboard.press('Enter');
  const moveItem = page.getByRole('menuitem', { name: ROW_ITEMS.move, exact: true });
  await expect(moveItem).toBeVisible();
  // As many steps as the menu has items, whatever items other features add to it.
  const steps = await page.getByRole('menuitem').count();
  for (let i = 0; i < steps && !(await moveItem.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(moveItem).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: fill(rooms.move.fileTitle, { name: 'term-sheet.pdf' }) });
  const tree = dialog.getByRole('tree', { name: fill(rooms.move.treeLabel, { name: 'Merger papers' }) });
  await expect(tree.getByRole('treeitem', { name: 'Drafts' })).toBeVisible({ timeout: 30_000 });
  await expect(tree.getByRole('treeitem', { name: 'Signed' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'E2E move-to dialog');

  await tree.getByRole('treeitem', { name: 'Drafts' }).getByRole('radio').check();
  await dialog.getByRole('button', { name: rooms.move.submit }).click();
  await expect(toast(page, fill(rooms.move.failed, { name: 'term-sheet.pdf', target: 'Drafts' }))).toBeVisible({ timeout: 30_000 });
  await expect(toast(page, rooms.errors.folderExists)).toBeVisible();
  // Refused in the browser: nothing moved, the dialog stays open.
  const stays = await server.app.db.selectFrom('room_files').select('folder_id').where('state', '=', 'complete').executeTakeFirstOrThrow();
  expect(stays.folder_id).toBeNull();

  await tree.getByRole('treeitem', { name: 'Signed' }).getByRole('radio').check();
  await expect(dialog.getByText(fill(rooms.move.target, { target: 'Signed' }))).toBeVisible();
  await dialog.getByRole('button', { name: rooms.move.submit }).click();
  await expect(toast(page, fill(rooms.move.done, { name: 'term-sheet.pdf', target: 'Signed' }))).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('table', { name: rooms.e2e.contentsLabel }).getByRole('row').filter({ hasText: 'term-sheet.pdf' })).toHaveCount(0, { timeout: 30_000 });

  await page.getByRole('link', { name: 'Signed', exact: true }).click();
  // Listed with its signer: its name decrypted and the uploader's signature verified in the Worker.
  await expect(verifiedRow(page, 'term-sheet.pdf')).toBeVisible({ timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), e2eRowAction(page, 'term-sheet.pdf', ROW_ITEMS.download)]);
  expect(download.suggestedFilename()).toBe('term-sheet.pdf');
  expect(sha256(await readFile((await download.path())!))).toBe(sha256(bytes));

  // A folder moves too; the tree does not offer the folder itself. The activity shows both moves.
  await page.getByRole('link', { name: 'Merger papers' }).click();
  await e2eRowAction(page, 'Drafts', ROW_ITEMS.move, 'folder');
  const folderDialog = page.getByRole('dialog', { name: fill(rooms.move.folderTitle, { name: 'Drafts' }) });
  const folderTree = folderDialog.getByRole('tree');
  await expect(folderTree.getByRole('treeitem', { name: 'Signed' })).toBeVisible({ timeout: 30_000 });
  await expect(folderTree.getByRole('treeitem', { name: 'Drafts' })).toHaveCount(0);
  await folderTree.getByRole('treeitem', { name: 'Signed' }).getByRole('radio').check();
  await folderDialog.getByRole('button', { name: rooms.move.submit }).click();
  await expect(toast(page, fill(rooms.move.done, { name: 'Drafts', target: 'Signed' }))).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: 'Drafts', exact: true })).toHaveCount(0, { timeout: 30_000 });
  await page.getByRole('tab', { name: rooms.activity.title }).click();
  await expect(page.getByRole('cell', { name: 'term-sheet.pdf (moved)' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('cell', { name: 'Drafts (moved)' })).toBeVisible();
  await page.getByRole('link', { name: 'Signed', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Drafts', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(verifiedRow(page, 'term-sheet.pdf')).toBeVisible({ timeout: 60_000 });
});
