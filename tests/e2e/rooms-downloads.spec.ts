// Plain data-room downloads through the file transfer centre (issue 15): a file's Download link
// starts a transfer of kind download (the default path: headless Chromium's save picker has no
// dialog, so the browser's download through the download service worker), shown as done with the
// toast, the saved bytes equal to the upload. The folder's ZIP (breadcrumb menu) the same, through
// the in-memory path: while it runs, slowed down, the centre shows the bytes so far under an
// indeterminate bar (a streamed ZIP has no size); the saved ZIP holds the folder's files bit-exact.
import { expect, type Download } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import AdmZip from 'adm-zip';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiUploadRoomFile } from './rooms-fixtures';
import { testFileBytes } from '@tests/support/files';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const ctx = serverPerFile();
let owner: TestUser;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'dora', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test('a room file and a folder ZIP download through the transfer centre, bit-exact', async ({ page }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Download Room');
  const folder = await apiCreateFolder(server, session, room.uuid, 'Reports');
  const inner = await apiCreateFolder(server, session, room.uuid, 'Inner', folder.uuid);
  const figures = testFileBytes(3 * 1024 * 1024 + 123);
  const notes = testFileBytes(1000);
  const uploaded = await apiUploadRoomFile(server, session, room.uuid, folder.uuid, 'figures.bin', figures);
  await apiUploadRoomFile(server, session, room.uuid, inner.uuid, 'notes.bin', notes);

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}/folders/${folder.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  const files = page.getByRole('table', { name: rooms.files.title });

  // The file: the link keeps its name and address; a click is a transfer, saved by the browser.
  const link = files.getByRole('link', { name: 'Download figures.bin' });
  await expect(link).toHaveAttribute('href', `/api/2/rooms/${room.uuid}/files/${uploaded.uuid}/content`);
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('figures.bin');
  expect(sha256(await readFile((await download.path())!))).toBe(sha256(figures));
  await expect(page.locator('.fui-ToastTitle', { hasText: '“figures.bin” was downloaded.' })).toBeVisible();
  await page.getByRole('button', { name: /^File transfers/ }).click();
  const drawer = page.getByRole('dialog', { name: 'File transfers' });
  const downloads = drawer.getByRole('region', { name: 'Downloads' });
  const fileRow = downloads.getByRole('listitem', { name: 'figures.bin' }).first();
  await expect(fileRow.getByText('Done: 100 %')).toBeVisible();
  await expect(fileRow.getByText('figures.bin: done')).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).click();

  // The folder's ZIP, in memory and slowed down so it is seen running: bytes so far, no percent.
  await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'memory'));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 512 * 1024, uploadThroughput: -1 });
  await page.getByRole('button', { name: rooms.crumbMenu.label.replace('{{name}}', 'Reports') }).click();
  const zipDownload = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: rooms.files.zip }).click();
  await page.getByRole('button', { name: /^File transfers: 1 running/ }).click();
  const zipRow = downloads.getByRole('listitem', { name: 'Reports.zip' }).first();
  await expect(zipRow.getByText(/^Running: [\d.,]+\s(KB|MB) so far$/)).toBeVisible({ timeout: 30_000 });
  await expect(zipRow.getByText(/^Reports\.zip: downloading \([\d.,]+\s(KB|MB) so far\)$/)).toBeVisible();
  // Indeterminate: the transfer's bar and the item's (both named after the ZIP) have no value.
  const bars = zipRow.getByRole('progressbar', { name: 'Progress of Reports.zip' });
  await expect(bars).toHaveCount(2);
  for (const bar of await bars.all()) await expect(bar).not.toHaveAttribute('aria-valuenow', /.*/);
  await expectNoSeriousA11yViolations(page, 'transfer centre with a running ZIP download');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  const zip = await zipDownload;
  expect(zip.suggestedFilename()).toBe('Reports.zip');
  const entries = new Map(
    new AdmZip(await readFile((await zip.path())!))
      .getEntries()
      .filter((e) => !e.isDirectory)
      .map((e) => [e.entryName, e.getData()]),
  );
  expect([...entries.keys()].sort()).toEqual(['Inner/notes.bin', 'figures.bin']);
  expect(sha256(entries.get('figures.bin')!)).toBe(sha256(figures));
  expect(sha256(entries.get('Inner/notes.bin')!)).toBe(sha256(notes));
  await expect(zipRow.getByText('Done: 100 %')).toBeVisible();
  await expect(zipRow.getByText('Reports.zip: done')).toBeVisible();
  await expect(page.locator('.fui-ToastTitle', { hasText: '“Reports.zip” was downloaded.' })).toBeVisible();
});
