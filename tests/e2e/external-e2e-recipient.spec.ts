// The external recipient of a level-3 delivery, walked in Chromium from the mail to the saved file
// (issue 13 items 1, 6 and 19): the sender (Node, shared logic, real crypto) sends level 3 to an
// address without an account → the invitation mail's link → email prompt → "Create your account"
// → the download page says a SecuPass is needed and links to creating it → the approval-pending
// screen (a mail follows) → the sender releases (Node, `releaseToRecipient`) → the release mail's
// link → decrypt → download through the service worker, bit-exact (SHA-256). Then the default
// path (the save picker, which headless Chromium answers at once without a file): a clear message
// and the browser's download instead, bit-exact again. Phone and desktop screenshots of each screen.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import type { ApiClient } from '@shared/api/client';
import { getReleaseList } from '@shared/api/endpoints/delivery-e2e';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import { createCryptoService, type UnlockedKeys } from '@shared/crypto/service';
import { releaseToRecipient, sendDelivery } from '@shared/transfer';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import { apiSignIn, en, expect, expectNoSeriousA11yViolations, locale, secuPassFromNode, test, apiCreateAccount, screenshotsAtWidths } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const ALICE_PASSPHRASE = 'Alice-Outside-SecuPass-Harbor-41';
const URSULA_PASSPHRASE = 'Ursula-Outside-SecuPass-Willow-42';
const alice = { email: 'alice.level3@example.test', password: PASSWORD };
const ursula = { email: 'ursula.level3@outside.test', password: 'Outside-Passw0rd-3' };
const secupass = locale<typeof import('@locales/en/secupass.json')>('en', 'secupass');
const e2eTexts = en.deliveries.e2e;

let server: TestServer;
let aliceClient: ApiClient;
let aliceKeys: UnlockedKeys;
const aliceCrypto = createCryptoService();
const bytes = new Uint8Array(randomBytes(200 * 1024 + 33));
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  await apiCreateAccount(server, admin, { email: alice.email, password: alice.password, firstName: 'Alice', lastName: 'Sender' });
  ({ client: aliceClient, keys: aliceKeys } = await secuPassFromNode(server, alice, ALICE_PASSPHRASE, aliceCrypto));
});
test.afterAll(async () => {
  await server?.close();
});

/** The screen at phone width (≤ 400 px) and at desktop width, for a person to look at. */

async function decryptedDownload(page: Page, click: () => Promise<void>): Promise<string> {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), click()]);
  expect(download.suggestedFilename()).toBe('contract.bin');
  return sha256(await readFile((await download.path())!));
}

test('level 3 to an address without an account: mail → account → SecuPass → approval pending → release mail → decrypted download (identical SHA-256)', async ({ page }) => {
  // Argon2id twice in the browser (create, unlock) on a shared 2-core machine.
  test.setTimeout(240_000);
  const sent = await sendDelivery({
    client: aliceClient,
    draft: { recipients: [ursula.email], subject: 'Signed contract', body: 'The contract, encrypted.', securityLevel: 20 },
    files: [{ name: 'contract.bin', blob: new Blob([bytes as Uint8Array<ArrayBuffer>]), mimeType: 'application/octet-stream' }],
    e2e: { crypto: aliceCrypto, keys: aliceKeys, pins: new MemoryKeyPinStore(), recordSize: 64 * 1024 },
  });
  if (!sent.ok) throw new Error(JSON.stringify(sent.error));
  const deliveryUuid = sent.delivery.deliveryUuid;

  // The invitation mail: sign up, then create the SecuPass.
  const invitation = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(ursula.email)(m) && m.subject.includes('Signed contract'));
  expect(invitation.text).toContain('create your personal SecuPass');
  await page.goto(extractLink(invitation, '/secumails/').toString());
  await expect(page.getByRole('heading', { level: 1, name: en.external.emailPrompt.title })).toBeVisible();
  await page.getByLabel(en.external.emailPrompt.email).fill(ursula.email);
  await page.getByRole('button', { name: en.external.emailPrompt.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: en.external.signup.title })).toBeVisible();
  await page.getByLabel(en.external.signup.firstName).fill('Ursula');
  await page.getByRole('textbox', { name: en.common.password.new, exact: true }).fill(ursula.password);
  await page.getByLabel(en.common.password.confirm).fill(ursula.password);
  await page.getByRole('button', { name: en.external.signup.submit }).click();

  // The download page: the message and the file name, and the way on — create the SecuPass.
  await expect(page).toHaveURL(new RegExp(`/secumails/en/download\\?deliveryUuid=${deliveryUuid}`));
  await expect(page.getByRole('heading', { name: 'Signed contract' })).toBeVisible();
  await expect(page.getByRole('complementary')).toContainText(en.deliveries.securityLevel.levelE2e.title);
  await expect(page.getByText(e2eTexts.passphraseNeededText)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'E2E download page, SecuPass needed');
  await screenshotsAtWidths(page, 'recipient-download-secupass-needed');
  await page.getByRole('link', { name: e2eTexts.createPassphrase }).click();

  await expect(page.getByRole('heading', { level: 1, name: secupass.create.title })).toBeVisible();
  await page.getByLabel(/^Passphrase/).fill(URSULA_PASSPHRASE);
  await page.getByLabel(/^Confirm passphrase/).fill(URSULA_PASSPHRASE);
  await page.getByRole('button', { name: secupass.set.submit }).click();

  // Not account settings: the sender must approve now, and a mail follows.
  await expect(page.getByRole('heading', { level: 1, name: secupass.approval.title })).toBeVisible({ timeout: 60_000 });
  await expect(page).toHaveURL(/\/auth\/secupass-approval-pending\?continue=/);
  await expect(page.getByText(secupass.approval.text)).toBeVisible();
  await expect(page.getByText(secupass.approval.mail)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'approval pending');
  await screenshotsAtWidths(page, 'recipient-approval-pending');
  // Back to the delivery: it waits for the release.
  await page.getByRole('link', { name: secupass.approval.toDelivery }).click();
  await expect(page).toHaveURL(new RegExp(`/secumails/en/download\\?deliveryUuid=${deliveryUuid}`));
  await expect(page.getByText(e2eTexts.releasePendingText)).toBeVisible();
  await screenshotsAtWidths(page, 'recipient-download-release-pending');

  // The sender is asked to release, and releases.
  await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(alice.email)(m) && m.text.includes(ursula.email));
  const waiting = (await getReleaseList(aliceClient)).items.filter((item) => item.deliveryUuid === deliveryUuid);
  expect(waiting.map((item) => item.recipient.email)).toEqual([ursula.email]);
  await releaseToRecipient({ client: aliceClient, item: waiting[0]!, e2e: { crypto: aliceCrypto, keys: aliceKeys, pins: new MemoryKeyPinStore() } });

  // The release mail's link → decrypt → the service worker saves the identical bytes.
  const released = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(ursula.email)(m) && m.subject.includes('released'));
  await page.goto(extractLink(released, '/secumails/').toString());
  await expect(page.getByRole('heading', { name: 'Signed contract' })).toBeVisible();
  await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'serviceWorker'));
  await page.getByRole('button', { name: e2eTexts.unlock }).click();
  const dialog = page.getByRole('dialog', { name: secupass.unlock.title.decrypt });
  await dialog.getByLabel(/^Passphrase/).fill(URSULA_PASSPHRASE);
  await dialog.getByRole('button', { name: secupass.unlock.submit.decrypt }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  const button = page.getByRole('button', { name: 'Download contract.bin' });
  await expect(button).toBeVisible({ timeout: 30_000 });
  expect(await decryptedDownload(page, () => button.click())).toBe(sha256(bytes));
  await expect(page.getByRole('status').filter({ hasText: e2eTexts.state.success })).toBeVisible();
  await screenshotsAtWidths(page, 'recipient-inbox-detail-downloaded');

  // The default path in this browser is the save picker; headless Chromium has no dialog and
  // answers at once without a file: the page says so and offers the browser's download.
  await page.evaluate(() => window.localStorage.removeItem('kuvert.downloadPath'));
  expect(await page.evaluate(() => typeof (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker)).toBe('function');
  await button.click();
  const notSaved = page.getByText('“contract.bin” was not saved: no file was chosen in the save dialog.', { exact: false });
  await expect(notSaved).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'save dialog without a file');
  await screenshotsAtWidths(page, 'recipient-picker-no-file');
  expect(await decryptedDownload(page, () => page.getByRole('button', { name: e2eTexts.browserDownload }).click())).toBe(sha256(bytes));
  await expect(notSaved).toBeHidden();
});
