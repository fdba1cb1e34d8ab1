// File operations of an end-to-end encrypted room in the browser against the real server: a
// multi-part upload through the transfer centre (the file read once, parts encrypted in the crypto
// Worker, several PUTs in flight, progress shown while a part is held back), then the download
// decrypts to the same SHA-256. A taken name asks (issue 31 §3): replace, keep both, and cancel
// (no announce, the list, the file rows and the versions on the server unchanged; axe on the dialog);
// a name added since the page listed the folder keeps both, as the server holds the names now.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { API_BASE } from '@shared/contract/constants';
import { ROOM_E2E_PATHS } from '@shared/contract/rooms-e2e';
import { startTestServer, type TestServer } from '../support/server';
import { installPageClock } from './blob-outage';
import { apiCreateAccount, apiSignIn, en, expectNoSeriousA11yViolations, locale, secuPassFromNode, signInToInbox, test } from './fixtures';
import { unlockRoomKeys } from './rooms-fixtures';
import { e2eRowAction, ROW_ITEMS } from './e2e-row-menu';

const PASSWORD = 'Good-Passw0rd-rooms-files';
const PASSPHRASE = 'Owner-Room-Files-SecuPass-Quartz-44';
const owner = { email: 'owner.rooms-e2e-files@example.test', password: PASSWORD };
/** The server's part size here: the file below is cut into three parts of ciphertext. */
const PART_SIZE = 1_048_576;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');

let server: TestServer;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await apiSignIn(server, server.admin);
  await apiCreateAccount(server, admin, owner);
  await secuPassFromNode(server, owner, PASSPHRASE);
});
test.afterAll(async () => {
  await server?.close();
});

const unlock = (page: Page) => unlockRoomKeys(page, PASSPHRASE);

async function createRoom(page: Page, name: string): Promise<string> {
  await signInToInbox(page, server, owner);
  await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'memory'));
  await page.goto(`${server.url}/secure-rooms`);
  await unlock(page);
  await page.getByRole('button', { name: 'Create end-to-end encrypted room' }).click();
  const create = page.getByRole('dialog', { name: 'Create end-to-end encrypted room' });
  await create.getByLabel('Name of the data room').fill(name);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/secure-rooms\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 30_000 });
  return page.url().split('/').at(-1)!;
}

/** The room's file rows on the server (every state, uploads announced but not committed too) and their earlier versions. */
async function storedIn(roomUuid: string): Promise<{ files: string[]; versions: number }> {
  const { db } = server.app;
  const files = await db.selectFrom('room_files').innerJoin('data_rooms', 'data_rooms.id', 'room_files.room_id').select(['room_files.id', 'room_files.uuid', 'room_files.state']).where('data_rooms.uuid', '=', roomUuid).orderBy('room_files.id').execute();
  const versions = files.length === 0 ? [] : await db.selectFrom('room_file_versions').select('id').where('file_id', 'in', files.map((f) => f.id)).execute();
  return { files: files.map((f) => `${f.uuid} ${f.state}`), versions: versions.length };
}

async function downloadSha(page: Page, name: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), e2eRowAction(page, name, ROW_ITEMS.download)]);
  expect(download.suggestedFilename()).toBe(name);
  return sha256(await readFile((await download.path())!));
}

test('a three-part E2E upload shows its progress in the transfer centre and downloads SHA-256 equal', async ({ page }) => {
  test.setTimeout(240_000);
  // Two and a half parts of plaintext: with the tags and the header, three parts of ciphertext.
  const bytes = new Uint8Array(randomBytes(2 * PART_SIZE + PART_SIZE / 2));
  await createRoom(page, 'Board papers');

  // Part 0 is held until the transfer centre showed parts 1 and 2 on the server: they were in flight at once.
  let releasePart!: () => void;
  const held = new Promise<void>((resolve) => (releasePart = resolve));
  const partsSeen: number[] = [];
  await page.route(/\/api\/2\/rooms\/[0-9a-f-]+\/files\/[0-9a-f-]+\/parts\/\d+$/, async (route) => {
    const index = Number(route.request().url().split('/').at(-1));
    partsSeen.push(index);
    if (index === 0) await held;
    await route.continue();
  });
  await page.getByLabel('Upload files', { exact: true }).setInputFiles({ name: 'annual-report.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  await page.getByRole('button', { name: /^File transfers/ }).click();
  const centre = page.getByRole('dialog', { name: 'File transfers' });
  const row = centre.getByRole('listitem', { name: 'annual-report.bin' });
  // The transfer's bar (0–100); the file's own bar below it has the same name.
  const bar = row.getByRole('progressbar', { name: 'Progress of annual-report.bin' }).first();
  await expect(bar).toBeVisible({ timeout: 60_000 });
  // Parts 1 and 2 (1.5 of 2.5 MiB) are on the server while part 0 waits: the bar stands between.
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 60_000 }).toBeGreaterThanOrEqual(55);
  expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
  expect([...partsSeen].sort()).toEqual([0, 1, 2]);
  await expect(row.getByRole('button', { name: 'Cancel annual-report.bin' })).toBeVisible();
  releasePart();
  await expect(row).toContainText('Done', { timeout: 60_000 });
  await centre.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'annual-report.bin' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 30_000 });
  expect(await downloadSha(page, 'annual-report.bin')).toBe(sha256(bytes));
});

test('renaming an E2E file re-signs it: the new name shows verified and downloads the same bytes', async ({ page }) => {
  test.setTimeout(180_000);
  const bytes = new Uint8Array(randomBytes(40_000));
  await createRoom(page, 'Rename papers');
  await page.getByLabel('Upload files', { exact: true }).setInputFiles({ name: 'memo.txt', mimeType: 'text/plain', buffer: Buffer.from(bytes) });
  await expect(page.getByRole('row').filter({ hasText: 'memo.txt' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 60_000 });
  await e2eRowAction(page, 'memo.txt', ROW_ITEMS.rename);
  const dialog = page.getByRole('dialog', { name: 'Rename file “memo.txt”' });
  await dialog.getByLabel('Folder name').fill('minutes.txt');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByText('File “memo.txt” renamed to “minutes.txt”.').first()).toBeVisible({ timeout: 30_000 });
  // Listed under the new name with the signer shown: the re-signed metadata verified in the Worker.
  await expect(page.getByRole('row').filter({ hasText: 'minutes.txt' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('row').filter({ hasText: 'memo.txt' })).toHaveCount(0);
  expect(await downloadSha(page, 'minutes.txt')).toBe(sha256(bytes));
});

test('uploading a taken name offers the version conflict: a new version replaces the content, keep both numbers the upload, cancel sends nothing', async ({ page }) => {
  test.setTimeout(180_000);
  const first = new Uint8Array(randomBytes(30_000));
  const second = new Uint8Array(randomBytes(50_000));
  const third = new Uint8Array(randomBytes(20_000));
  const roomUuid = await createRoom(page, 'Version papers');
  const input = page.getByLabel('Upload files', { exact: true });
  await input.setInputFiles({ name: 'plan.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(first) });
  await expect(page.getByRole('row').filter({ hasText: 'plan.bin' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 60_000 });

  // The folder's reload is held: the row still shows version 1 when its download is clicked. The
  // page fetches the file's current key and metadata first and downloads version 2. Held from the
  // question on: before asking, the upload reads the folder's names as the server holds them.
  let releaseList!: () => void;
  const listHeld = new Promise<void>((resolve) => (releaseList = resolve));
  let holding = false;
  const folderCall = /\/api\/2\/rooms\/[0-9a-f-]{36}(\?[^/]*)?$/;
  await page.route(folderCall, async (route) => {
    if (holding && route.request().method() === 'GET') await listHeld;
    await route.continue();
  });
  await input.setInputFiles({ name: 'plan.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(second) });
  const conflict = page.getByRole('alertdialog', { name: '“plan.bin” already exists' });
  await expect(conflict).toBeVisible({ timeout: 30_000 });
  holding = true;
  await conflict.getByRole('button', { name: 'Replace (new version)' }).click();
  await expect(conflict).toBeHidden();
  await expect(page.getByText('Upload finished: plan.bin').first()).toBeVisible({ timeout: 60_000 });
  expect(await downloadSha(page, 'plan.bin')).toBe(sha256(second));
  // Released: the held and every later call of the folder go through (the route stays for the test).
  releaseList();
  // Still one plan.bin, now the second content (version 2, verified).
  await expect(page.getByRole('row').filter({ hasText: 'plan.bin' })).toHaveCount(1);
  expect(await downloadSha(page, 'plan.bin')).toBe(sha256(second));

  // Every announce of an upload in this room (the first thing an E2E upload sends, before any part).
  const announces: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === `${API_BASE}${ROOM_E2E_PATHS.files(roomUuid)}`) announces.push(request.url());
  });
  await input.setInputFiles({ name: 'plan.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(third) });
  await conflict.getByRole('button', { name: 'Keep both' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'plan (1).bin' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 60_000 });
  expect(announces).toHaveLength(1);
  expect(await downloadSha(page, 'plan (1).bin')).toBe(sha256(third));
  expect(await downloadSha(page, 'plan.bin')).toBe(sha256(second));

  // Cancel: nothing is sealed or sent; the list and plan.bin's two versions stay as they were.
  const before = await storedIn(roomUuid);
  expect(before.versions).toBe(1);
  await input.setInputFiles({ name: 'plan.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(randomBytes(10_000)) });
  await expect(conflict).toBeVisible();
  // The upload waits for the answer (the button comes back when it has ended). Hidden from the
  // accessibility tree while the modal dialog is open, hence includeHidden (and the <button>, not the
  // hidden file input of the same name).
  const uploadButton = page.getByRole('button', { name: rooms.e2e.upload, exact: true, includeHidden: true }).and(page.locator('button'));
  await expect(uploadButton).toBeDisabled();
  await expectNoSeriousA11yViolations(page, 'Secure room version conflict dialog');
  await conflict.getByRole('button', { name: en.common.actions.cancel, exact: true }).click();
  await expect(conflict).toBeHidden();
  await expect(uploadButton).toBeEnabled({ timeout: 30_000 });
  expect(announces).toHaveLength(1);
  await expect(page.getByRole('row').filter({ hasText: /plan/ })).toHaveCount(2);
  await expect(page.getByRole('row').filter({ hasText: 'plan (2).bin' })).toHaveCount(0);
  await e2eRowAction(page, 'plan.bin', ROW_ITEMS.versions);
  const versions = page.getByRole('dialog', { name: 'Versions of “plan.bin”' });
  await expect(versions.getByRole('row').filter({ hasText: '2 (current)' })).toContainText(owner.email, { timeout: 30_000 });
  await expect(versions.getByRole('button', { name: /^Download version \d+$/ })).toHaveText(['Download', 'Download']);
  // On the server too: the same file rows (none announced) and earlier versions as before the answer.
  expect(await storedIn(roomUuid)).toEqual(before);

  // A name added since this page listed the folder (here by the same owner in a second tab) is not
  // in its list, but the server holds it: the upload reads the folder's names as they are now and
  // keeps both ("notes (1).bin") instead of making a twin the server cannot tell apart.
  await versions.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(versions).toBeHidden();
  const fourth = new Uint8Array(randomBytes(12_000));
  const fifth = new Uint8Array(randomBytes(14_000));
  const other = await page.context().newPage();
  await other.goto(page.url());
  await unlock(other);
  await other.getByLabel('Upload files', { exact: true }).setInputFiles({ name: 'notes.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(fourth) });
  await expect(other.getByRole('row').filter({ hasText: 'notes.bin' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 60_000 });
  await other.close();
  await expect(page.getByRole('row').filter({ hasText: 'notes.bin' })).toHaveCount(0);
  await input.setInputFiles({ name: 'notes.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(fifth) });
  await expect(page.getByRole('row').filter({ hasText: 'notes (1).bin' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 60_000 });
  await expect(conflict).toBeHidden();
  expect(await downloadSha(page, 'notes (1).bin')).toBe(sha256(fifth));
  expect(await downloadSha(page, 'notes.bin')).toBe(sha256(fourth));
});

test('an E2E upload whose part keeps failing waits for the server and resumes by itself: the parts on the server are kept, the rest sent, the bytes equal', async ({ page }) => {
  test.setTimeout(180_000);
  const bytes = new Uint8Array(randomBytes(2 * PART_SIZE + PART_SIZE / 2));
  const clock = await installPageClock(page);
  await createRoom(page, 'Resume papers');
  let holding = true;
  const afterRetry: number[] = [];
  await page.route(/\/api\/2\/rooms\/[0-9a-f-]+\/files\/[0-9a-f-]+\/parts\/\d+$/, async (route) => {
    const index = Number(route.request().url().split('/').at(-1));
    if (!holding) afterRetry.push(index);
    // Part 1 never gets through while holding: the engine retries for its window, then waits (paused).
    if (holding && index === 1) return route.abort('aborted').catch(() => undefined);
    await route.continue().catch(() => undefined);
  });
  await page.getByLabel('Upload files', { exact: true }).setInputFiles({ name: 'resume.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  await page.getByRole('button', { name: /^File transfers/ }).click();
  const centre = page.getByRole('dialog', { name: 'File transfers' });
  const row = centre.getByRole('listitem', { name: 'resume.bin' });
  // After the engine's minute of retries (on the page's clock, run ahead) the transfer waits for the
  // server (no failure, no retry button).
  const hurried = clock.hurry();
  await expect(row).toContainText(/waiting for the server/i, { timeout: 90_000 });
  await hurried.stop();
  await expect(row.getByRole('button', { name: 'Retry resume.bin' })).toHaveCount(0);
  holding = false;
  await clock.wakeRetries();
  await expect(row).toContainText('Done', { timeout: 60_000 });
  // Only what was missing went again: part 1 (part 0 and 2 were on the server).
  expect(afterRetry).toContain(1);
  expect(afterRetry.length).toBeLessThan(3);
  await centre.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'resume.bin' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 30_000 });
  expect(await downloadSha(page, 'resume.bin')).toBe(sha256(bytes));
});

test('the Secure room’s share dialog says why its files get no public link (issue 32 §2)', async ({ page }) => {
  test.setTimeout(120_000);
  await createRoom(page, 'No public links');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const share = page.getByRole('dialog', { name: 'Share “No public links”' });
  await expect(share.getByText(/^Public links: a Secure room’s files and folders cannot be shared by public link/)).toBeVisible();
});
