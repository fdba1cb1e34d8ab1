// Levels 3/4 in the browser against the real server. Deliveries are encrypted and sent from Node
// with the shared logic (`sendDelivery` with `e2e`, real CryptoService); the recipient decrypts in
// Chromium through the crypto Worker and the downloaded file's SHA-256 equals the original. Then
// the release path: a recipient without a passphrase is invited, sets one in the browser, waits;
// the sender releases on the release page; the recipient downloads. Downloads run as transfers in
// the transfer centre (progress, cancel, retry) on each path that runs headless: the service worker
// and the in-memory fallback (web/lib/e2e-download.ts; the save picker needs a real dialog).
import { randomBytes } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Browser, type Download, type Page } from '@playwright/test';
import type { ApiClient } from '@shared/api/client';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import { createCryptoService, type UnlockedKeys } from '@shared/crypto/service';
import { sendDelivery } from '@shared/transfer';
import { addressedTo, waitForMailboxMail } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, en, expectNoSeriousA11yViolations, secuPassFromNode, signInToInbox, test } from './fixtures';
import { proveAddress } from '@tests/support/prove-address';
import { decryptAndDownload, openDecrypted, sha256, unlock, useDownloadPath } from './e2e-download';

const PASSWORD = 'Good-Passw0rd-e2e';
const ALICE_PASSPHRASE = 'Alice-Browser-SecuPass-Quartz-77';
const BOB_PASSPHRASE = 'Bob-Browser-SecuPass-Lantern-78';
const CAROL_PASSPHRASE = 'Carol-Browser-SecuPass-Meadow-79';
const alice = { email: 'alice.e2e@example.test', password: PASSWORD };
const bob = { email: 'bob.e2e@example.test', password: PASSWORD };
const carol = { email: 'carol.e2e@example.test', password: PASSWORD };

let server: TestServer;
let aliceClient: ApiClient;
let aliceKeys: UnlockedKeys;
const aliceCrypto = createCryptoService();


test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const account of [alice, bob, carol]) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { email: account.email, password: account.password, language: 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, account.email, account.password);
  }
  ({ client: aliceClient, keys: aliceKeys } = await secuPassFromNode(server, alice, ALICE_PASSPHRASE, aliceCrypto));
  await secuPassFromNode(server, bob, BOB_PASSPHRASE);
});
test.afterAll(async () => {
  await server?.close();
});

async function sendLevel3(to: string, name: string, bytes: Uint8Array, subject: string) {
  const result = await sendDelivery({
    client: aliceClient,
    draft: { recipients: [to], subject, body: 'Encrypted files attached.', securityLevel: 20 },
    files: [{ name, blob: new Blob([bytes as Uint8Array<ArrayBuffer>]), mimeType: 'application/octet-stream' }],
    e2e: { crypto: aliceCrypto, keys: aliceKeys, pins: new MemoryKeyPinStore(), recordSize: 64 * 1024 },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.delivery;
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  return context.newPage();
}

test('level 3: the recipient unlocks in the browser and downloads the decrypted file (identical SHA-256)', async ({ page }) => {
  const bytes = new Uint8Array(randomBytes(300 * 1024 + 17)); // 5 records of 64 KiB: parts of 8 records, several records
  const delivery = await sendLevel3(bob.email, 'figures.bin', bytes, 'E2E figures');
  await signInToInbox(page, server, bob);
  await page.goto(`${server.url}/secumails/inbox/${delivery.deliveryUuid}`);
  await expect(page.getByRole('heading', { name: 'E2E figures' })).toBeVisible();
  // No ciphertext link: the plain download button is not offered for E2E files.
  await expect(page.getByRole('link', { name: 'Download figures.bin' })).toHaveCount(0);
  await useDownloadPath(page, 'memory');
  expect(await decryptAndDownload(page, BOB_PASSPHRASE, 'figures.bin')).toBe(sha256(bytes));
  await expectNoSeriousA11yViolations(page, 'E2E delivery detail');
});

test('level 3 through the service worker: a tampered ciphertext fails visibly and the browser\'s download is errored', async ({ page }) => {
  const bytes = new Uint8Array(randomBytes(300 * 1024 + 17));
  const delivery = await sendLevel3(bob.email, 'tampered.bin', bytes, 'E2E tampered');
  // One byte of the stored ciphertext flipped, as a failing disk or a tampering server would.
  const folder = join(server.dataDir, 'blobs', 'deliveries', delivery.deliveryUuid);
  const stored = await Promise.all((await readdir(folder, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map(async (e) => ({ path: join(e.parentPath, e.name), size: (await stat(join(e.parentPath, e.name))).size })));
  const part = stored.sort((a, b) => b.size - a.size)[0]!;
  const ciphertext = await readFile(part.path);
  const at = ciphertext.length >> 1;
  ciphertext[at] = ciphertext[at]! ^ 0xff;
  await writeFile(part.path, ciphertext);

  await signInToInbox(page, server, bob);
  await page.goto(`${server.url}/secumails/inbox/${delivery.deliveryUuid}`);
  await useDownloadPath(page, 'serviceWorker');
  const button = await openDecrypted(page, BOB_PASSPHRASE, 'tampered.bin');
  const started = page.waitForEvent('download');
  await button.click();
  await expect(page.getByText(en.deliveries.e2e.fileDecryptionFailed).first()).toBeVisible({ timeout: 30_000 });
  // The browser's download ends as failed: no complete-looking file lands.
  const download = await started;
  expect(await download.failure()).not.toBeNull();
});

test('release: invited without a passphrase → sets one → waits → the sender releases → the recipient downloads', async ({ page, browser }) => {
  // Three Argon2id runs in the browser (set, and two unlocks) on a shared 2-core machine.
  test.setTimeout(180_000);
  const bytes = new Uint8Array(randomBytes(100 * 1024));
  const delivery = await sendLevel3(carol.email, 'for-carol.bin', bytes, 'For Carol E2E');
  await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(carol.email)(m) && m.subject.includes('For Carol E2E'));

  // Carol: told to create a passphrase; creates it in the browser; then waits for the release.
  await signInToInbox(page, server, carol);
  await page.goto(`${server.url}/secumails/inbox/${delivery.deliveryUuid}`);
  await expect(page.getByText('This delivery is end-to-end encrypted. Create your personal passphrase')).toBeVisible();
  await page.getByRole('link', { name: 'Create passphrase' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Create your SecuPass' })).toBeVisible();
  // Reached from a delivery: the delivery's words, not a data room's.
  await expect(page.getByText('You were sent end-to-end encrypted files.', { exact: false })).toBeVisible();
  await expect(page.getByText('end-to-end encrypted data room', { exact: false })).toHaveCount(0);
  await page.getByLabel(/^Passphrase/).fill(CAROL_PASSPHRASE);
  await page.getByLabel(/^Confirm passphrase/).fill(CAROL_PASSPHRASE);
  await page.getByRole('button', { name: 'Set passphrase' }).click();
  // The approval-pending screen (a mail follows), which leads back to the delivery.
  await expect(page.getByRole('heading', { level: 1, name: 'Waiting for the sender' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('The sender must now approve and release the encrypted delivery for you.', { exact: false })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the delivery' }).click();
  await expect(page).toHaveURL(`${server.url}/secumails/inbox/${delivery.deliveryUuid}`);
  await expect(page.getByText('Waiting for release')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'E2E delivery waiting for release');

  // Alice: mailed that a release is needed; the sent detail says so; the release page shows Carol's new key.
  const ask = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(alice.email)(m) && m.text.includes(carol.email));
  expect(ask.text).toContain('/secumails/en/release');
  const sender = await newPage(browser);
  await signInToInbox(sender, server, alice);
  await sender.goto(`${server.url}/secumails/outbox/${delivery.deliveryUuid}`);
  await expect(sender.getByText('Release required')).toBeVisible();
  await sender.getByRole('link', { name: 'Release deliveries' }).click();
  await expect(sender.getByRole('heading', { level: 1, name: 'Release deliveries' })).toBeVisible();
  const row = sender.getByRole('row').filter({ hasText: carol.email });
  await expect(row).toBeVisible();
  const keys = (await (await fetch(`${server.url}/api/2/deliveries/release`, { headers: { cookie: (await sender.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } })).json()) as {
    items: Array<{ recipient: { keys: Array<{ usage: string; fingerprint: string }> } }>;
  };
  const fingerprint = keys.items[0]!.recipient.keys.find((k) => k.usage === 'encryption')!.fingerprint;
  await expectNoSeriousA11yViolations(sender, 'release deliveries');
  await expect(row.getByText((fingerprint.toUpperCase().match(/.{4}/g) ?? []).join(' '))).toBeVisible();
  await sender.getByRole('button', { name: 'Enter passphrase and release' }).click();
  await unlock(sender, ALICE_PASSPHRASE, 'release');
  await expect(sender.getByRole('heading', { level: 1, name: 'Deliveries released' })).toBeVisible({ timeout: 30_000 });
  await sender.getByRole('button', { name: 'Continue' }).click();
  await expect(sender).toHaveURL(/\/secumails\/inbox$/);
  // The browser fixture lives for the worker: a context left open would live on through later spec files.
  await sender.context().close();

  // Carol: mailed, then decrypts and downloads the identical bytes.
  await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(carol.email)(m) && m.subject.includes('released'));
  await page.goto(`${server.url}/secumails/inbox/${delivery.deliveryUuid}`);
  await useDownloadPath(page, 'serviceWorker');
  expect(await decryptAndDownload(page, CAROL_PASSPHRASE, 'for-carol.bin')).toBe(sha256(bytes));
});

test('transfer centre: a multi-part E2E download through the service worker shows progress, cancels, retries and completes (identical SHA-256)', async ({ page }) => {
  test.setTimeout(120_000);
  // 12 parts of 8 × 64 KiB records, plus a partial one.
  const bytes = new Uint8Array(randomBytes(6 * 1024 * 1024 + 4321));
  const delivery = await sendLevel3(bob.email, 'large figures.bin', bytes, 'E2E large figures');
  await signInToInbox(page, server, bob);
  await page.goto(`${server.url}/secumails/inbox/${delivery.deliveryUuid}`);
  await useDownloadPath(page, 'serviceWorker');
  const button = await openDecrypted(page, BOB_PASSPHRASE, 'large figures.bin');

  // The service worker fetches the ciphertext (page network emulation does not reach it): the
  // context's route holds that request while `holding`, so the download is seen mid-way.
  let holding = true;
  const released: (() => void)[] = [];
  await page.context().route(/\/deliveries\/[0-9a-f-]+\/files\/[^/]+\/content/, async (route) => {
    if (holding) await new Promise<void>((resolve) => released.push(resolve));
    await route.continue().catch(() => undefined);
  });
  await button.click();
  await page.getByRole('button', { name: /^File transfers: 1 running/ }).click();
  const drawer = page.getByRole('dialog', { name: 'File transfers' });
  const downloads = drawer.getByRole('region', { name: 'Downloads' });
  const row = downloads.getByRole('listitem', { name: 'large figures.bin' }).first();
  await expect(row.getByText(/^Running: \d+ %$/)).toBeVisible({ timeout: 30_000 });
  await expect(row.getByText('large figures.bin: downloading')).toBeVisible();
  await row.getByRole('button', { name: 'Cancel large figures.bin' }).click();
  await expect(row.getByText(/^Cancelled/)).toBeVisible();
  await expect(row.getByText('large figures.bin: cancelled')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'transfer centre with a cancelled download');

  holding = false;
  for (const release of released.splice(0)) release();
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Retry large figures.bin' }).click()]);
  expect(download.suggestedFilename()).toBe('large figures.bin');
  expect(sha256(await readFile((await download.path())!))).toBe(sha256(bytes));
  await expect(row.getByText('Done: 100 %')).toBeVisible();
  await expect(page.locator('.fui-ToastTitle', { hasText: '“large figures.bin” was downloaded.' })).toBeVisible();

  // Closing the tab while a download runs asks first (SPEC §4).
  holding = true;
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();
  await button.click();
  await expect(page.getByRole('button', { name: /^File transfers: 1 running/ })).toBeVisible();
  const dialog = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const shown = await dialog;
  expect(shown.type()).toBe('beforeunload');
  await shown.dismiss();
  holding = false;
  for (const release of released.splice(0)) release();
});
