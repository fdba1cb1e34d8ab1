// Issue 29 §3 for data rooms in the browser: the local blob folder goes away (an unmounted volume)
// during an upload into a plain room. The room upload retries for the engine's whole window, then the
// transfer centre shows the file as waiting for the server with its bar where it was and no retry
// button, and the file lands by itself once the folder is back; nobody presses retry.
import { expect } from '@playwright/test';
import { RETRY_WINDOW_MS } from '@shared/transfer/constants';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { startTestServer, type TestServer } from '../support/server';
import { apiSignIn, locale, signInToInbox, test } from './fixtures';
import { apiCreateRoom } from './rooms-fixtures';
import { blobsAwayDuringParts, installPageClock } from './blob-outage';
import { testFileBytes } from '@tests/support/files';

const PART_SIZE = 1024;
const send = locale<typeof import('@locales/en/send.json')>('en', 'send');
const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');

let server: TestServer;
let owner: TestUser;

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  owner = await createUserInRepository(server, { username: 'rhea', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});
test.afterAll(async () => {
  await server?.close();
});

test('the blob store away during a room upload: the file waits for the server, keeps its bar, and lands by itself', async ({ page }) => {
  test.setTimeout(RETRY_WINDOW_MS + 120_000);
  const room = await apiCreateRoom(server, await apiSignIn(server, owner), 'Outage Room');
  const clock = await installPageClock(page);
  // Slow parts so the upload is still running when the folder goes (after 8 parts).
  const outage = await blobsAwayDuringParts(page, server, '**/api/2/rooms/*/files/*/parts/*');
  const file = { name: 'outage.bin', mimeType: 'application/octet-stream', buffer: testFileBytes(40 * PART_SIZE + 5) };
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Outage Room' })).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: rooms.files.upload }).click();
  await (await chooser).setFiles(file);

  // The room's own upload panel: its bar and, after the engine's retry window (on the page's clock,
  // run ahead), the waiting line.
  await expect(page.getByRole('progressbar', { name: fill(rooms.files.progress, { name: file.name }) })).toBeVisible();
  await expect.poll(() => outage.isAway(), { timeout: 30_000 }).toBe(true);
  const hurried = clock.hurry();
  const panelWaiting = rooms.files.progressWaiting.split('{{name}}')[0]!;
  await expect(page.getByText(`${panelWaiting}${file.name},`, { exact: false })).toBeVisible({ timeout: RETRY_WINDOW_MS + 30_000 });
  await hurried.stop();

  await page.getByRole('button', { name: /^File transfers/ }).click();
  const drawer = page.getByRole('dialog', { name: send.transfers.title });
  // One file: the transfer is titled by it, so its bar and the file's share the name; the file's comes last.
  const fileBar = drawer.getByRole('progressbar', { name: fill(send.progress.fileLabel, { name: file.name }) }).last();
  await expect(fileBar).toBeVisible();
  // After the engine's retry window the file says it waits for the server; the bar stays where it was.
  await expect(drawer.getByText(fill(send.transfers.item, { name: file.name, state: send.itemState.paused }))).toBeVisible({ timeout: RETRY_WINDOW_MS + 30_000 });
  await expect(drawer.getByText(new RegExp(`^${fill(send.transfers.state, { state: send.transferState.waiting, percent: '\\d+' })}$`))).toBeVisible();
  expect(outage.isAway()).toBe(true);
  const before = Number(await fileBar.getAttribute('aria-valuenow'));
  expect(before).toBeGreaterThan(0);
  expect(before).toBeLessThan(1);
  await expect(drawer.getByRole('button', { name: fill(send.transfers.retry, { title: file.name }) })).toHaveCount(0);

  await outage.restore();
  await clock.wakeRetries();
  await expect(page.getByText(fill(rooms.files.toast.uploaded, { title: file.name }), { exact: true }).first()).toBeVisible({ timeout: 60_000 });
  await expect(drawer.getByText(fill(send.transfers.item, { name: file.name, state: send.itemState.success }))).toBeVisible();
  const stored = await server.app.db.selectFrom('room_files').select(['state', 'size']).where('name', '=', file.name).executeTakeFirstOrThrow();
  expect(stored).toEqual({ state: 'complete', size: file.buffer.length });
});
