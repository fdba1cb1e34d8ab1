// Trust networks on two real servers in the browser (issue 30 §4): the two administrators create
// their connections and exchange keys through the UI (copy the own key on one, paste it on the
// other), test → established; a wrong partner key → error with the failing step; then a level-3
// delivery from a user of A to a user of B crosses and is opened and downloaded in the browser on B;
// a recipient on B without a passphrase sets one, and the sender releases on A's release page,
// where the recipient shows "via partner server <B>".
// A runs on SQLite, B on PostgreSQL when KUVERT_TEST_DATABASE_URL is set. axe on the trust pages.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { expect, type Browser, type Page } from '@playwright/test';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import { sendDelivery } from '@shared/transfer';
import { startTestServer, type TestServer } from '../support/server';
import { decryptAndDownload, sha256, unlock, useDownloadPath } from './e2e-download';
import { apiCreateAccount, apiSignIn, expectInbox, expectNoSeriousA11yViolations, locale, secuPassFromNode, signIn, signInToInbox, test } from './fixtures';

const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const shell = locale<typeof import('@locales/en/shell.json')>('en', 'shell');
const trust = admin.trust;
const deliveries = locale<typeof import('@locales/en/deliveries.json')>('en', 'deliveries');
const release = locale<typeof import('@locales/en/release.json')>('en', 'release');
const PASSWORD = 'Good-Passw0rd-trust2';
const alice = { email: 'alice@a.example', password: PASSWORD };
const bob = { email: 'bob@b.example', password: PASSWORD };
const carl = { email: 'carl@b.example', password: PASSWORD };
const ALICE_PASSPHRASE = 'Alice-Browser-SecuPass-Partner-92';
const BOB_PASSPHRASE = 'Bob-Browser-SecuPass-Partner-93';
const CARL_PASSPHRASE = 'Carl-Browser-SecuPass-Partner-94';
const ctx = {} as { a: TestServer; b: TestServer; alice: Awaited<ReturnType<typeof secuPassFromNode>> };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // Loopback partners: allow-listed, plain http allowed (README "Configuration").
  const config = { outboundAllow: ['127.0.0.1'], outboundAllowHttp: true };
  ctx.a = await startTestServer({ config, sqlite: true });
  ctx.b = await startTestServer({ config });
  await apiCreateAccount(ctx.a, await apiSignIn(ctx.a, ctx.a.admin), alice);
  const adminB = await apiSignIn(ctx.b, ctx.b.admin);
  await apiCreateAccount(ctx.b, adminB, bob);
  await apiCreateAccount(ctx.b, adminB, carl);
  await secuPassFromNode(ctx.b, bob, BOB_PASSPHRASE);
  ctx.alice = await secuPassFromNode(ctx.a, alice, ALICE_PASSPHRASE);
});

test.afterAll(async () => {
  await ctx.a?.close();
  await ctx.b?.close();
});

/** One administrator's browser (own context: both servers are 127.0.0.1, and cookies ignore the port). */
async function adminPage(browser: Browser, server: TestServer): Promise<Page> {
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await context.newPage();
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await page.goto(`${server.url}/admin`);
  await page.getByRole('navigation', { name: shell.admin.menuLabel }).getByRole('link', { name: shell.admin.items.trustNetworks, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: trust.title })).toBeVisible();
  return page;
}

/** Creates the connection in the form (the partner key when the partner's administrator gave it already); returns the own key, copied. */
async function createConnection(page: Page, partner: TestServer, domain: string, partnerKey?: string): Promise<string> {
  await page.getByRole('link', { name: trust.create }).click();
  await expect(page.getByRole('heading', { level: 1, name: trust.createTitle })).toBeVisible();
  await page.getByRole('textbox', { name: trust.fields.partnerUrl }).fill(partner.url);
  await page.getByRole('textbox', { name: trust.fields.domains }).fill(domain);
  if (partnerKey) await page.getByRole('textbox', { name: trust.fields.partnerKey }).fill(partnerKey);
  await page.getByRole('button', { name: trust.save }).click();
  await expect(page.getByRole('heading', { level: 1, name: trust.editTitle })).toBeVisible();
  await expect(page.getByTestId('trust-status')).toContainText(partnerKey ? trust.states.testable : trust.states.pending);
  await page.getByRole('button', { name: trust.copyKey }).click();
  const ownKey = await page.evaluate(() => navigator.clipboard.readText());
  await expect(page.getByTestId('own-key')).toHaveText(ownKey);
  return ownKey;
}

async function enterPartnerKey(page: Page, key: string): Promise<void> {
  await page.getByRole('textbox', { name: trust.fields.partnerKey }).fill(key);
  await page.getByRole('button', { name: trust.save }).click();
  await expect(page.getByTestId('trust-status')).toContainText(trust.states.testable);
}

/** Alice on A sends at level 3 (her browser's engine, from Node; the recipient's key comes from B through A); the transfer job pushes it to B. */
async function sendAcross(to: string, subject: string, name: string, bytes: Uint8Array): Promise<string> {
  const result = await sendDelivery({
    client: ctx.alice.client,
    draft: { recipients: [to], subject, body: 'Encrypted, from A.', securityLevel: 20 },
    files: [{ name, blob: new Blob([bytes as Uint8Array<ArrayBuffer>]), mimeType: 'application/octet-stream' }],
    e2e: { crypto: ctx.alice.crypto, keys: ctx.alice.keys, pins: new MemoryKeyPinStore(), recordSize: 1024 },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  ctx.a.app.jobs.kick();
  await ctx.a.app.jobs.whenIdle();
  return result.delivery.deliveryUuid;
}

async function testConnection(page: Page, state: 'established' | 'error'): Promise<void> {
  await page.getByRole('button', { name: trust.test }).click();
  await expect(page.getByTestId('trust-status')).toContainText(trust.states[state]);
}

test('two administrators connect through the UI; a wrong partner key shows the failing step; a level-3 delivery crosses and opens on B', async ({ browser, page }) => {
  test.setTimeout(240_000);
  const { a, b } = ctx;
  const onA = await adminPage(browser, a);
  const onB = await adminPage(browser, b);
  await expect(onA.getByText(trust.empty)).toBeVisible();
  await expectNoSeriousA11yViolations(onA, 'trust networks (empty)');

  // A creates its side and hands its key to B; B creates its side with it and hands its key back.
  const keyOfA = await createConnection(onA, b, 'b.example');
  await expectNoSeriousA11yViolations(onA, 'trust connection (pending)');
  const keyOfB = await createConnection(onB, a, 'a.example', keyOfA);
  await enterPartnerKey(onA, keyOfB);
  await testConnection(onA, 'established');
  await testConnection(onB, 'established');
  await expectNoSeriousA11yViolations(onB, 'trust connection (established)');

  // A wrong partner key on A (a valid key, but not B's): the test fails at the key step, shown in the form and the list.
  const wrong = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
  await enterPartnerKey(onA, wrong);
  await testConnection(onA, 'error');
  await expect(onA.getByTestId('trust-status')).toContainText(trust.steps.unknownKey);
  await onA.getByRole('button', { name: trust.back }).click();
  const row = onA.getByRole('row').filter({ hasText: b.url });
  await expect(row.getByTestId('trust-status')).toContainText(trust.steps.unknownKey);
  await expectNoSeriousA11yViolations(onA, 'trust networks (error)');
  // The right key again: established.
  await row.getByRole('button', { name: trust.editLabel.replace('{{url}}', b.url) }).click();
  await enterPartnerKey(onA, keyOfB);
  await testConnection(onA, 'established');

  const bytes = new Uint8Array(randomBytes(5000));
  const deliveryUuid = await sendAcross(bob.email, 'Across the partner', 'across.bin', bytes);

  // Bob opens it in the browser on B, decrypts and downloads the identical bytes.
  await signInToInbox(page, b, bob);
  await page.goto(`${b.url}/secumails/inbox/${deliveryUuid}`);
  await expect(page.getByRole('heading', { name: 'Across the partner' })).toBeVisible();
  await useDownloadPath(page, 'memory');
  expect(await decryptAndDownload(page, BOB_PASSPHRASE, 'across.bin')).toBe(sha256(bytes));
  await expect(page.getByTestId('e2e-signer')).toContainText(alice.email);
  await onA.context().close();
  await onB.context().close();
});

test('a recipient on B without a passphrase: sets one, the sender releases on A (listed via partner server B), the recipient downloads on B', async ({ browser, page }) => {
  // Argon2id in two browsers (the release unlock on A, the decrypt on B) on a shared 2-core machine.
  test.setTimeout(240_000);
  const { a, b } = ctx;
  const bytes = new Uint8Array(randomBytes(3000));
  const deliveryUuid = await sendAcross(carl.email, 'Released across', 'released.bin', bytes);
  // Carl sets his passphrase on B; B tells A through the connection (job trust-release-needed).
  await secuPassFromNode(b, carl, CARL_PASSPHRASE);
  b.app.jobs.kick();
  await b.app.jobs.whenIdle();

  const sender = await (await browser.newContext()).newPage();
  await signInToInbox(sender, a, alice);
  // The sent detail names the partner server per cross-server recipient.
  await sender.goto(`${a.url}/secumails/outbox/${deliveryUuid}`);
  const delivered = deliveries.recipients.partner.delivered.replace('{{server}}', new URL(b.url).host);
  await expect(sender.getByRole('row').filter({ hasText: carl.email }).filter({ hasText: delivered })).toBeVisible();
  await sender.goto(`${a.url}/secumails/release`);
  await expect(sender.getByRole('heading', { level: 1, name: release.title })).toBeVisible();
  const row = sender.getByRole('row').filter({ hasText: carl.email });
  await expect(row.getByTestId('release-partner-server')).toHaveText(release.viaPartner.replace('{{server}}', new URL(b.url).host));
  await expectNoSeriousA11yViolations(sender, 'release deliveries (partner recipient)');
  await sender.getByRole('button', { name: release.submit }).click();
  await unlock(sender, ALICE_PASSPHRASE, 'release');
  await expect(sender.getByRole('heading', { level: 1, name: release.successTitle })).toBeVisible({ timeout: 30_000 });
  await sender.context().close();

  await signInToInbox(page, b, carl);
  await page.goto(`${b.url}/secumails/inbox/${deliveryUuid}`);
  await useDownloadPath(page, 'memory');
  expect(await decryptAndDownload(page, CARL_PASSPHRASE, 'released.bin')).toBe(sha256(bytes));
});
