// End-to-end trust in the browser (issue 12 §4): the reader sees one file list (the signed one),
// the verified signer, and — when the sender's signing key differs from the pinned one — the
// "key changed" dialog with both fingerprints, against the real server and the real crypto Worker.
import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import type { ApiClient } from '@shared/api/client';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import { createCryptoService, type UnlockedKeys } from '@shared/crypto/service';
import { createMemoryStorage } from '@shared/api/storage-adapter';
import { sendDelivery, ServerKeyPinStore } from '@shared/transfer';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, en as locales, expectNoSeriousA11yViolations, secuPassFromNode, signInToInbox, apiCreateAccount, test } from './fixtures';

const en = locales.deliveries;

const PASSWORD = 'Good-Passw0rd-trust';
const BOB_PASSPHRASE = 'Bob-Browser-SecuPass-Trust-81';
const alice = { email: 'alice.trust@example.test', password: PASSWORD };
const bob = { email: 'bob.trust@example.test', password: PASSWORD };

let server: TestServer;
let aliceClient: ApiClient;
let aliceKeys: UnlockedKeys;
let bobKeys: UnlockedKeys;
let bobClient: ApiClient;
let bobUuid: string;
const bobCrypto = createCryptoService();
const aliceCrypto = createCryptoService();

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const account of [alice, bob]) {
    await apiCreateAccount(server, admin, { email: account.email, password: account.password });
  }
  ({ client: aliceClient, keys: aliceKeys } = await secuPassFromNode(server, alice, 'Alice-Browser-SecuPass-Trust-80', aliceCrypto));
  ({ keys: bobKeys, client: bobClient } = await secuPassFromNode(server, bob, BOB_PASSPHRASE, bobCrypto));
  bobUuid = ((await (await apiCall(server, await apiSignIn(server, bob), 'GET', '/user')).json()) as { user: { uuid: string } }).user.uuid;
});
test.afterAll(async () => {
  await server?.close();
});

async function unlockIfAsked(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to decrypt' });
  const changed = page.getByRole('alertdialog', { name: en.changedKey.senderTitle });
  const files = page.getByRole('button', { name: /^Download / });
  await Promise.race([dialog.waitFor(), changed.waitFor(), files.first().waitFor()]);
  if (await dialog.isVisible()) {
    await dialog.getByLabel(/^Passphrase/).fill(BOB_PASSPHRASE);
    await dialog.getByRole('button', { name: 'Unlock' }).click();
    await expect(dialog).toBeHidden({ timeout: 30_000 });
  }
}

test("the reader: one signed file list, the verified signer, and the sender's changed key with both fingerprints", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const result = await sendDelivery({
    client: aliceClient,
    draft: { recipients: [bob.email], subject: 'Trust figures', body: '', securityLevel: 20 },
    files: [{ name: 'signed-name.bin', blob: new Blob([new Uint8Array(randomBytes(5000))]), mimeType: 'application/octet-stream' }],
    e2e: { crypto: aliceCrypto, keys: aliceKeys, pins: new MemoryKeyPinStore(), recordSize: 1024 },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  const { deliveryUuid } = result.delivery;
  // The server renames the file in its own (unsigned) list: the page must not show that name.
  await server.app.db.updateTable('delivery_files').set({ name: 'server-name.exe' }).where('uuid', '=', result.delivery.files[0]!.fileId).execute();

  await signInToInbox(page, server, bob);
  // Bob's browser pinned another key for Alice earlier (as after a key substitution, or her reset).
  const pinned = 'ab'.repeat(32);
  const aliceUuid = (await (await apiCall(server, await apiSignIn(server, alice), 'GET', '/user')).json()) as { user: { uuid: string } };
  await page.evaluate(
    ([key, value]) => window.localStorage.setItem(key!, value!),
    [`kuvert.keyPins.${bobKeys.signing.keyId}`, JSON.stringify({ [`${aliceUuid.user.uuid}:signing`]: pinned })],
  );
  await page.goto(`${server.url}/secumails/inbox/${deliveryUuid}`);
  await expect(page.getByRole('heading', { name: 'Trust figures' })).toBeVisible();
  await expect(page.getByText('server-name.exe')).toHaveCount(0);
  await expect(page.getByText('signed-name.bin')).toHaveCount(0); // nothing before unlocking

  await page.getByRole('button', { name: en.e2e.unlock }).click();
  await unlockIfAsked(page);
  const changed = page.getByRole('alertdialog', { name: en.changedKey.senderTitle });
  await expect(changed).toBeVisible({ timeout: 30_000 });
  await expect(changed.getByTestId('changed-key-old')).toHaveText(pinned.toUpperCase().match(/.{4}/g)!.join(' '));
  await expect(changed.getByTestId('changed-key-new')).toHaveText(aliceKeys.signing.fingerprintDisplay);
  await expectNoSeriousA11yViolations(page, 'reader key-changed dialog');
  await changed.getByRole('button', { name: 'Cancel' }).click();
  // Refused: the specific message with both fingerprints, not "keys could not be decrypted".
  await expect(page.getByText(en.e2e.senderKeyChangedTitle)).toBeVisible();
  await expect(page.getByTestId('reader-key-new')).toHaveText(aliceKeys.signing.fingerprintDisplay);
  await expect(page.getByText(en.e2e.keyDecryptionFailed)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download signed-name.bin' })).toHaveCount(0);

  // Compared and confirmed: the delivery opens; one list, the signed name; the verified signer.
  await page.getByRole('button', { name: en.e2e.unlock }).click();
  await expect(changed).toBeVisible({ timeout: 30_000 });
  await changed.getByRole('button', { name: en.changedKey.confirmOpen }).click();
  await expect(page.getByRole('button', { name: 'Download signed-name.bin' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('server-name.exe')).toHaveCount(0);
  await expect(page.getByRole('listitem').filter({ hasText: 'signed-name.bin' })).toHaveCount(1);
  await expect(page.getByTestId('e2e-signer')).toContainText(alice.email);
  await expect(page.getByText(aliceKeys.signing.fingerprintDisplay)).toBeVisible();
  // The browser's old local pins went into Bob's list on the server (and left the browser).
  expect(await page.evaluate((key) => window.localStorage.getItem(key), `kuvert.keyPins.${bobKeys.signing.keyId}`)).toBeNull();
  const bobList = await ServerKeyPinStore.load({ client: bobClient, crypto: bobCrypto, keys: bobKeys, ownerUserId: bobUuid, storage: createMemoryStorage() });
  expect(await bobList.get(`${aliceUuid.user.uuid}:signing`)).toBe(aliceKeys.signing.fingerprint);
  expect(await bobList.get(`${aliceUuid.user.uuid}:signing:previous:${pinned}`)).toBe(pinned);

  // Explicit verification: compare fingerprints (and QR codes), mark verified; the badge shows it, on every device.
  await expect(page.getByTestId('signer-verification')).toHaveText(locales.deliveries.verify.notVerified);
  await page.getByRole('button', { name: locales.deliveries.verify.open }).click();
  const verify = page.getByRole('dialog', { name: locales.deliveries.verify.title.replace('{{email}}', alice.email) });
  await expect(verify.getByTestId('verify-theirs')).toHaveText(aliceKeys.signing.fingerprintDisplay);
  await expect(verify.getByTestId('verify-yours')).toHaveText(bobKeys.signing.fingerprintDisplay);
  await expect(verify.getByRole('img', { name: locales.deliveries.verify.qrTheirs.replace('{{email}}', alice.email) })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'verify contact dialog');
  await verify.getByRole('button', { name: locales.deliveries.verify.confirm }).click();
  await expect(verify).toBeHidden();
  await expect(page.getByTestId('signer-verification')).toHaveText(locales.deliveries.verify.verified);
  const reloaded = await ServerKeyPinStore.load({ client: bobClient, crypto: bobCrypto, keys: bobKeys, ownerUserId: bobUuid, storage: createMemoryStorage() });
  expect(reloaded.isVerified(`${aliceUuid.user.uuid}:signing`, aliceKeys.signing.fingerprint)).toBe(true);

  // Another browser of Bob's: no dialog (the pin comes from the server list), the badge says verified.
  const other = await browser.newPage();
  await signInToInbox(other, server, bob);
  await other.goto(`${server.url}/secumails/inbox/${deliveryUuid}`);
  await other.getByRole('button', { name: en.e2e.unlock }).click();
  await unlockIfAsked(other);
  await expect(other.getByRole('button', { name: 'Download signed-name.bin' })).toBeVisible({ timeout: 30_000 });
  await expect(other.getByTestId('signer-verification')).toHaveText(locales.deliveries.verify.verified);
  await other.close();
});
