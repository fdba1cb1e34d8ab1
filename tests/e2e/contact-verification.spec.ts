// Verified badges next to the recipients and verifying a contact by scanning their QR code
// (issue 12 §4), against the real server, the real crypto Worker and Chromium's fake camera:
// Sent › detail and the send page's chips show verified / not yet verified / new key from the
// sender's own contact pins; the verify dialog reads the contact's code from an image file or the
// camera — only this contact's very key marks them verified, anything else says so and changes nothing.
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { ApiClient } from '@shared/api/client';
import { createMemoryStorage } from '@shared/api/storage-adapter';
import { createCryptoService, type UnlockedKeys } from '@shared/crypto/service';
import { sendDelivery, ServerKeyPinStore } from '@shared/transfer';
import QRCode from 'qrcode';
import { chromiumLaunch } from '../../playwright.config';
import { verificationQrText } from '../../web/lib/contact-verification';
import { startTestServer, type TestServer } from '../support/server';
import { apiCreateAccount, apiSignIn, en, expectNoSeriousA11yViolations, nodeClient, secuPassFromNode, signInToInbox, test } from './fixtures';

const verify = en.deliveries.verify;
const PASSWORD = 'Good-Passw0rd-verify';
const ALICE_PASSPHRASE = 'Alice-Scan-SecuPass-Meadow-42';
const alice = { email: 'alice.scan@example.test', password: PASSWORD };
const bob = { email: 'bob.scan@example.test', password: PASSWORD };
const carol = { email: 'carol.scan@example.test', password: PASSWORD };
const dave = { email: 'dave.scan@example.test', password: PASSWORD };

/** Chromium's fake camera plays this file (written once Carol's key exists, before any page asks for the camera). */
const FAKE_CAMERA = join(tmpdir(), `kuvert-fake-camera-${process.pid}.y4m`);
test.use({
  launchOptions: {
    ...chromiumLaunch,
    args: [...chromiumLaunch.args, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${FAKE_CAMERA}`],
  },
});
test.describe.configure({ mode: 'serial' });

let server: TestServer;
let aliceClient: ApiClient;
let aliceKeys: UnlockedKeys;
let aliceUuid: string;
const people = new Map<string, { uuid: string; keys: UnlockedKeys }>();
const aliceCrypto = createCryptoService();
let deliveryUuid: string;

/** A QR code as the contact's own Kuvert draws it ("Your key"), as a PNG. */
const qrPng = (text: string) => QRCode.toBuffer(text, { errorCorrectionLevel: 'M', margin: 2, width: 360 });
const codeOf = (email: string) => verificationQrText(people.get(email)!.uuid, 'encryption', people.get(email)!.keys.encryption.fingerprint);

/** A YUV 4:2:0 video (two identical frames) showing the QR code of `text` on white, for the fake camera. */
function writeQrVideo(path: string, text: string): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const width = 640;
  const height = 480;
  const scale = 8;
  const side = (modules.size + 8) * scale;
  const left = Math.floor((width - side) / 2) + 4 * scale;
  const top = Math.floor((height - side) / 2) + 4 * scale;
  const luma = new Uint8Array(width * height).fill(235);
  for (let y = 0; y < modules.size * scale; y++) {
    for (let x = 0; x < modules.size * scale; x++) {
      if (modules.get(Math.floor(y / scale), Math.floor(x / scale))) luma[(top + y) * width + left + x] = 16;
    }
  }
  const chroma = new Uint8Array((width / 2) * (height / 2)).fill(128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  writeFileSync(path, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]));
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const account of [alice, bob, carol, dave]) await apiCreateAccount(server, admin, account);
  ({ client: aliceClient, keys: aliceKeys } = await secuPassFromNode(server, alice, ALICE_PASSPHRASE, aliceCrypto));
  aliceUuid = (await nodeClient(server, alice)).userUuid;
  for (const [i, account] of [bob, carol, dave].entries()) {
    const crypto = createCryptoService();
    const { keys } = await secuPassFromNode(server, account, `Contact-Scan-SecuPass-River-${i}7`, crypto);
    people.set(account.email, { uuid: (await nodeClient(server, account)).userUuid, keys });
  }
  writeQrVideo(FAKE_CAMERA, codeOf(carol.email));
  // Alice wrote to Bob and Carol before (her browser pinned their keys on first use); Dave never.
  const result = await sendDelivery({
    client: aliceClient,
    draft: { recipients: [bob.email, carol.email], subject: 'Scan figures', body: '', securityLevel: 20 },
    files: [{ name: 'figures.bin', blob: new Blob([new Uint8Array(randomBytes(3000))]), mimeType: 'application/octet-stream' }],
    e2e: { crypto: aliceCrypto, keys: aliceKeys, pins: await alicePins(), recordSize: 1024 },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  deliveryUuid = result.delivery.deliveryUuid;
});
test.afterAll(async () => {
  await server?.close();
  rmSync(FAKE_CAMERA, { force: true });
});

/** Alice's contact pins as stored on the server (checked and opened with her keys). */
const alicePins = () => ServerKeyPinStore.load({ client: aliceClient, crypto: aliceCrypto, keys: aliceKeys, ownerUserId: aliceUuid, storage: createMemoryStorage() });

const recipientRow = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email });
const verifyDialog = (page: Page, email: string) => page.getByRole('dialog', { name: verify.title.replace('{{email}}', email) });

async function openSentDetailUnlocked(page: Page) {
  await signInToInbox(page, server, alice);
  await page.goto(`${server.url}/secumails/outbox/${deliveryUuid}`);
  await expect(page.getByRole('heading', { name: 'Scan figures' })).toBeVisible();
  await recipientRow(page, bob.email).getByRole('button', { name: verify.unlockToCheck }).click();
  const unlock = page.getByRole('dialog', { name: en.secupass.unlock.title.unlock });
  await unlock.getByLabel(/^Passphrase/).fill(ALICE_PASSPHRASE);
  await unlock.getByRole('button', { name: en.secupass.unlock.submit.unlock }).click();
  await expect(unlock).toBeHidden({ timeout: 30_000 });
}

test('Sent detail: badges per recipient; a QR image of the right key verifies, any other code says why and changes nothing; the send chips follow', async ({ page }) => {
  test.setTimeout(180_000);
  await openSentDetailUnlocked(page);
  await expect(recipientRow(page, bob.email).getByTestId('contact-key-state')).toHaveText(verify.state.pinned, { timeout: 30_000 });
  await expect(recipientRow(page, carol.email).getByTestId('contact-key-state')).toHaveText(verify.state.pinned);

  await recipientRow(page, bob.email).getByRole('button', { name: verify.open }).click();
  const dialog = verifyDialog(page, bob.email);
  await expect(dialog.getByRole('button', { name: verify.scan.camera })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'verify dialog with scanning');
  const file = dialog.getByTestId('verify-scan-file');
  // Carol's code is not Bob's.
  await file.setInputFiles({ name: 'carol.png', mimeType: 'image/png', buffer: await qrPng(codeOf(carol.email)) });
  await expect(dialog.getByTestId('verify-scan-note')).toHaveText(verify.scan.otherPerson);
  // Bob's id with another key: what a substituted key looks like.
  await file.setInputFiles({ name: 'other-key.png', mimeType: 'image/png', buffer: await qrPng(verificationQrText(people.get(bob.email)!.uuid, 'encryption', 'ab'.repeat(32))) });
  await expect(dialog.getByTestId('verify-scan-note')).toHaveText(verify.scan.otherKey);
  // A picture without a code.
  await file.setInputFiles({ name: 'blank.png', mimeType: 'image/png', buffer: blankPng() });
  await expect(dialog.getByTestId('verify-scan-note')).toHaveText(verify.scan.noCode);
  expect((await alicePins()).isVerified(`${people.get(bob.email)!.uuid}:encryption`, people.get(bob.email)!.keys.encryption.fingerprint)).toBe(false);
  await expect(dialog).toBeVisible();

  // Bob's own code: verified, on the server list (every device), and the badge says so.
  await file.setInputFiles({ name: 'bob.png', mimeType: 'image/png', buffer: await qrPng(codeOf(bob.email)) });
  await expect(dialog).toBeHidden();
  await expect(page.locator('.fui-ToastTitle').getByText(verify.done.replace('{{email}}', bob.email))).toBeVisible();
  await expect(recipientRow(page, bob.email).getByTestId('contact-key-state')).toHaveText(verify.state.verified);
  await expect(recipientRow(page, carol.email).getByTestId('contact-key-state')).toHaveText(verify.state.pinned);
  const pins = await alicePins();
  expect(pins.isVerified(`${people.get(bob.email)!.uuid}:encryption`, people.get(bob.email)!.keys.encryption.fingerprint)).toBe(true);
  expect(pins.isVerified(`${people.get(carol.email)!.uuid}:encryption`, people.get(carol.email)!.keys.encryption.fingerprint)).toBe(false);

  // The send page (same session, still unlocked): the chips of a level-3 delivery carry the badges.
  await page.getByRole('navigation', { name: en.shell.deliveryMenu.label }).getByRole('tab', { name: en.shell.deliveryMenu.send }).click();
  await expect(page.getByRole('heading', { level: 1, name: en.send.title })).toBeVisible();
  await page.getByRole('radio', { name: en.send.level.level3.title }).check();
  const input = page.getByRole('textbox', { name: en.send.recipients.label });
  await input.fill(`${bob.email}, ${carol.email}, ${dave.email},`);
  const chip = (email: string) => page.getByRole('button', { name: new RegExp(`^${email.replace(/\./g, '\\.')}`) }).getByTestId('contact-key-state');
  await expect(chip(bob.email)).toHaveText(verify.state.verified, { timeout: 30_000 });
  await expect(chip(carol.email)).toHaveText(verify.state.pinned);
  await expect(chip(dave.email)).toHaveText(verify.state.unseen);
  // Level 2 needs no keys: no badges.
  await page.getByRole('radio', { name: en.send.level.level2.title }).check();
  await expect(page.getByTestId('contact-key-state')).toHaveCount(0);
});

test('the camera: Chromium’s fake camera shows Carol’s code and the scan verifies her', async ({ page }) => {
  test.setTimeout(180_000);
  await openSentDetailUnlocked(page);
  await expect(recipientRow(page, carol.email).getByTestId('contact-key-state')).toHaveText(verify.state.pinned, { timeout: 30_000 });
  await recipientRow(page, carol.email).getByRole('button', { name: verify.open }).click();
  const dialog = verifyDialog(page, carol.email);
  await dialog.getByRole('button', { name: verify.scan.camera }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(recipientRow(page, carol.email).getByTestId('contact-key-state')).toHaveText(verify.state.verified);
  expect((await alicePins()).isVerified(`${people.get(carol.email)!.uuid}:encryption`, people.get(carol.email)!.keys.encryption.fingerprint)).toBe(true);
});

/** An image without any code: a 1×1 PNG. */
function blankPng(): Buffer {
  return Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC', 'base64');
}
