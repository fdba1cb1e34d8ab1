// The E2E room page's drop, search and delete in the browser against the real server (issue 15):
// a folder tree dropped on the drop zone is recreated with sealed folder names (an empty folder
// too) and its files go up through the E2E upload, each into its folder; the names decrypt and the
// files verify and download with the same SHA-256; "Search the whole room" finds a file two
// folders down by a part of its decrypted name and shows its folder path; deleting a file asks
// first, names it in the toast, takes it off the list and puts it into the administrators' trash
// (as an encrypted entry); the breadcrumb menu's Details and a row's Details show the decrypted
// name and the signed size; deleting the room leads back to Secure rooms. axe on the screens. A drag
// from the desktop cannot be made by Playwright: the drop carries the same FileSystemEntry
// interface (directory readers in batches, file entries) built in the page around real File objects.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { TRASH_BIN_PATHS, type TrashBinList } from '@shared/contract/room-admin';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiCreateAccount, apiSignIn, expectNoSeriousA11yViolations, locale, secuPassFromNode, signInToInbox, test } from './fixtures';
import { unlockRoomKeys } from './rooms-fixtures';
import { e2eRowAction, ROW_ITEMS } from './e2e-row-menu';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const PASSWORD = 'Good-Passw0rd-rooms-page';
const PASSPHRASE = 'Owner-Room-Page-SecuPass-Basalt-58';
const owner = { email: 'owner.rooms-e2e-page@example.test', password: PASSWORD };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();
const contents = (page: Page) => page.getByRole('table', { name: rooms.e2e.contentsLabel });
/** The file's row with its signer shown (name decrypted, signature verified). */
const verifiedRow = (page: Page, name: string) => contents(page).getByRole('row').filter({ hasText: name }).filter({ hasText: owner.email });

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

/** A tree as the drop's entries see it: a folder is an object of children, a file its bytes (base64). */
type Tree = { [name: string]: Tree | string };

/** Drops `tree` on the E2E drop zone as a desktop drag of files and folders does (DataTransferItem.webkitGetAsEntry). */
async function dropTree(page: Page, tree: Tree): Promise<void> {
  await page.getByTestId('e2e-drop-zone').evaluate((zone, spec) => {
    type Spec = { [name: string]: Spec | string };
    const entryOf = (name: string, node: Spec | string): unknown => {
      if (typeof node === 'string') {
        const file = new File([Uint8Array.from(atob(node), (c) => c.charCodeAt(0))], name, { type: 'application/octet-stream' });
        return { isFile: true, isDirectory: false, name, file: (ok: (f: File) => void) => ok(file) };
      }
      const children = Object.entries(node).map(([child, sub]) => entryOf(child, sub));
      return {
        isFile: false,
        isDirectory: true,
        name,
        // Like Chromium: the children in batches, then an empty batch.
        createReader: () => {
          let at = 0;
          return { readEntries: (ok: (batch: unknown[]) => void) => ok(children.slice(at, (at += 2))) };
        },
      };
    };
    const items = Object.entries(spec).map(([name, node]) => ({ kind: 'file', webkitGetAsEntry: () => entryOf(name, node), getAsFile: () => null }));
    const dataTransfer = { items, types: ['Files'], files: [], dropEffect: 'none' };
    for (const type of ['dragover', 'drop']) {
      const event = new Event(type, { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: dataTransfer });
      zone.dispatchEvent(event);
    }
  }, tree);
}

async function downloadSha(page: Page, name: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), e2eRowAction(page, name, ROW_ITEMS.download)]);
  expect(download.suggestedFilename()).toBe(name);
  return sha256(await readFile((await download.path())!));
}

test('a dropped folder tree decrypts and downloads SHA-256 equal; the whole room is searched by decrypted names; a deleted file is in the trash', async ({ page }) => {
  test.setTimeout(300_000);
  const nda = new Uint8Array(randomBytes(70_000));
  const annex = new Uint8Array(randomBytes(9_000));
  const readme = new TextEncoder().encode('read me first');
  await signInToInbox(page, server, owner);
  await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'memory'));
  await page.goto(`${server.url}/secure-rooms`);
  await unlock(page);
  await page.getByRole('button', { name: 'Create end-to-end encrypted room' }).click();
  const create = page.getByRole('dialog', { name: 'Create end-to-end encrypted room' });
  await create.getByLabel('Name of the data room').fill('Deal room');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Deal room' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: rooms.drop.uploadFolder })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'empty E2E room with drop zone, search and delete');

  // Two folders deep, an empty folder, and a file at the top level: one transfer of three files.
  await dropTree(page, { Contracts: { 'nda-final.pdf': b64(nda), Annex: { 'annex-b-signed.txt': b64(annex) } }, Empty: {}, 'readme.txt': b64(readme) });
  const title = fill(rooms.files.uploadTitle_other, { count: 3, name: 'Deal room' });
  await expect(toast(page, fill(rooms.files.toast.uploaded, { title }))).toBeVisible({ timeout: 120_000 });
  await expect(verifiedRow(page, 'readme.txt')).toBeVisible({ timeout: 60_000 });
  await expect(contents(page).getByRole('link', { name: 'Empty', exact: true })).toBeVisible();
  // The server holds sealed names only: no plain folder or file name in its tables.
  const stored = await server.app.db.selectFrom('room_folders').select('name').execute();
  expect(stored).toHaveLength(3);
  for (const { name } of stored) expect(['Contracts', 'Annex', 'Empty']).not.toContain(name);

  await contents(page).getByRole('link', { name: 'Contracts', exact: true }).click();
  await expect(verifiedRow(page, 'nda-final.pdf')).toBeVisible({ timeout: 60_000 });
  expect(await downloadSha(page, 'nda-final.pdf')).toBe(sha256(nda));
  await contents(page).getByRole('link', { name: 'Annex', exact: true }).click();
  await expect(verifiedRow(page, 'annex-b-signed.txt')).toBeVisible({ timeout: 60_000 });
  expect(await downloadSha(page, 'annex-b-signed.txt')).toBe(sha256(annex));

  // Search from the top: the hit two folders down, with its path; the other files are not listed.
  await page.getByRole('link', { name: 'Deal room' }).click();
  await expect(verifiedRow(page, 'readme.txt')).toBeVisible({ timeout: 60_000 });
  const box = page.getByRole('searchbox', { name: rooms.e2ePage.search.label });
  await box.fill('B-SIGN');
  await box.press('Enter');
  const results = page.getByRole('table', { name: rooms.e2ePage.search.results });
  await expect(results.getByRole('row').filter({ hasText: 'annex-b-signed.txt' })).toContainText('Deal room › Contracts › Annex', { timeout: 60_000 });
  await expect(results.getByRole('row')).toHaveCount(2);
  await expect(page.getByText(fill(rooms.e2ePage.search.count_one, { count: 1, q: 'B-SIGN' }))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'E2E room search results');
  // Typing again filters the names already decrypted: both folders named with "n".
  await box.fill('nnex');
  await expect(results.getByRole('row').filter({ hasText: 'Annex' }).first()).toBeVisible();
  await expect(results.getByRole('row')).toHaveCount(3);
  await results.getByRole('link', { name: 'Deal room › Contracts', exact: true }).click();
  await expect(verifiedRow(page, 'nda-final.pdf')).toBeVisible({ timeout: 60_000 });

  // Delete a file at the top level: confirmed, named in the toast, off the list, in the trash.
  await page.getByRole('link', { name: 'Deal room' }).click();
  await expect(verifiedRow(page, 'readme.txt')).toBeVisible({ timeout: 60_000 });
  // The breadcrumb's context menu and the details sidebar name what the browser decrypted.
  await page.getByRole('button', { name: fill(rooms.crumbMenu.label, { name: 'Deal room' }) }).click();
  await page.getByRole('menuitem', { name: rooms.details.action }).click();
  const roomDetails = page.getByRole('dialog', { name: fill(rooms.details.title, { name: 'Deal room' }) });
  await expect(roomDetails.getByText(rooms.details.encrypted, { exact: true })).toBeVisible();
  await roomDetails.getByRole('button', { name: rooms.details.close }).click();
  await expect(roomDetails).toBeHidden();
  await e2eRowAction(page, 'readme.txt', ROW_ITEMS.details);
  const fileDetails = page.getByRole('dialog', { name: fill(rooms.details.title, { name: 'readme.txt' }) });
  // The signed plaintext size (the server holds the larger ciphertext).
  await expect(fileDetails.getByText('13\u00a0B', { exact: true })).toBeVisible({ timeout: 30_000 });
  // The version number as signed (shown only from verified metadata; README section 7 "Version chain").
  await expect(fileDetails.getByText(rooms.versions.columns.version, { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'E2E file details sidebar');
  await fileDetails.getByRole('button', { name: rooms.details.close }).click();
  await expect(fileDetails).toBeHidden();

  await e2eRowAction(page, 'readme.txt', ROW_ITEMS.delete);
  const confirm = page.getByRole('alertdialog', { name: fill(rooms.files.deleteTitle, { name: 'readme.txt' }) });
  await expectNoSeriousA11yViolations(page, 'E2E delete confirmation');
  await confirm.getByRole('button', { name: rooms.delete.confirm }).click();
  await expect(toast(page, fill(rooms.files.deleted, { name: 'readme.txt' }))).toBeVisible({ timeout: 30_000 });
  await expect(contents(page).getByRole('row').filter({ hasText: 'readme.txt' })).toHaveCount(0, { timeout: 30_000 });
  await expect(contents(page).getByRole('link', { name: 'Contracts', exact: true })).toBeVisible();
  const admin = await apiSignIn(server, server.admin);
  const trash = async () => {
    const response = await apiCall(server, admin, 'GET', TRASH_BIN_PATHS.list);
    expect(response.status).toBe(200);
    return ((await response.json()) as TrashBinList).entries;
  };
  const [deleted] = await server.app.db.selectFrom('room_files').select('uuid').where('deleted_at', 'is not', null).execute();
  expect((await trash()).map((e) => [e.uuid, e.type, e.encrypted, e.name])).toEqual([[deleted!.uuid, 'file', true, '']]);

  // The room itself (OWNER): confirmed, back to Secure rooms, the room in the trash.
  await page.getByRole('button', { name: rooms.delete.roomAction }).click();
  await page.getByRole('alertdialog', { name: fill(rooms.delete.roomTitle, { name: 'Deal room' }) }).getByRole('button', { name: rooms.delete.confirm }).click();
  await expect(toast(page, fill(rooms.delete.roomDone, { name: 'Deal room' }))).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/secure-rooms$/);
  expect((await trash()).map((e) => [e.type, e.encrypted])).toEqual(expect.arrayContaining([['dataroom', true]]));
});
