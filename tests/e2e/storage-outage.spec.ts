// Issue 29 §3 in the browser: the local blob folder goes away (an unmounted volume) during an
// upload from the send page. The web client's engine retries for its whole window, then shows the
// file as waiting for the server with its progress bar where it was, and finishes by itself once
// the folder is back; nobody presses retry.
import { expect } from '@playwright/test';
import { RETRY_WINDOW_MS } from '@shared/transfer/constants';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, locale, openSendPage, pickFiles, recipientsInput, signInToInbox, test } from './fixtures';
import { proveAddress } from '@tests/support/prove-address';
import { blobsAwayDuringParts, installPageClock } from './blob-outage';
import { testFileBytes } from '@tests/support/files';

const PART_SIZE = 1024;
const PASSWORD = 'Good-Passw0rd-e2e';
const send = locale<typeof import('@locales/en/send.json')>('en', 'send');
const alice = { email: 'alice.outage@example.test', password: PASSWORD };
const bob = { email: 'bob.outage@example.test', password: PASSWORD };

let server: TestServer;

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await apiSignIn(server, server.admin);
  for (const account of [alice, bob]) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { email: account.email, password: account.password, firstName: 'Test', lastName: 'Outage', language: 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, account.email, account.password);
  }
});
test.afterAll(async () => {
  await server?.close();
});

test('the blob store away during an upload: the file waits for the server, keeps its bar, and finishes by itself', async ({ page }) => {
  test.setTimeout(RETRY_WINDOW_MS + 120_000);
  const clock = await installPageClock(page);
  // Slow parts so the upload is still running when the folder goes (after 8 parts).
  const outage = await blobsAwayDuringParts(page, server, '**/api/2/deliveries/*/files/*/parts/*');
  const file = { name: 'outage.bin', bytes: testFileBytes(40 * PART_SIZE + 5) };
  await signInToInbox(page, server, alice);
  await openSendPage(page, server);
  await recipientsInput(page).fill(`${bob.email},`);
  await page.getByRole('textbox', { name: send.subject.label }).fill('Through a storage outage');
  await pickFiles(page, [file]);
  await page.getByRole('button', { name: send.submit, exact: true }).click();

  const fileBar = page.getByRole('progressbar', { name: send.progress.fileLabel.replace('{{name}}', file.name) });
  await expect(fileBar).toBeVisible();
  // After the engine's retry window (on the page's clock, run ahead) the file says it waits for the
  // server; the bar stays where it was.
  await expect.poll(() => outage.isAway(), { timeout: 30_000 }).toBe(true);
  const hurried = clock.hurry();
  const waiting = page.getByText(send.itemState.paused, { exact: false });
  await expect(waiting).toBeVisible({ timeout: RETRY_WINDOW_MS + 30_000 });
  await hurried.stop();
  expect(outage.isAway()).toBe(true);
  const before = Number(await fileBar.getAttribute('aria-valuenow'));
  expect(before).toBeGreaterThan(0);
  expect(before).toBeLessThan(1);
  await expect(page.getByRole('button', { name: send.progress.retry, exact: true })).toHaveCount(0);

  await outage.restore();
  await clock.wakeRetries();
  await expect(page.locator('.fui-ToastTitle', { hasText: '“Through a storage outage” was sent.' })).toBeVisible({ timeout: 60_000 });
});
