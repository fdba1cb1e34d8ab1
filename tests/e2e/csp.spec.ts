// The Content-Security-Policy in a real browser (issue 12 §3): an injected inline script does not
// run and fires a securitypolicyviolation event, while the pages still work under the real
// headers: sign-in of the web client, a level-3 download decrypted in the crypto Worker and
// saved through the download service worker, and the add-in's task pane (office.js stand-in at
// Microsoft's CDN address, as in tests/addin).
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import argon2 from 'argon2';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import { createCryptoService } from '@shared/crypto/service';
import { sendDelivery } from '@shared/transfer';
import { createUser as createUserInRepository } from '@tests/integration/escalation-helpers';
import { OFFICE_JS_STAND_IN, OFFICE_JS_URL, type StandInMailbox } from '../addin/office-stand-in';
import { apiSignIn, en, expect, expectInbox, locale, secuPassFromNode, serverPerFile, submitLogin, test, apiCreateAccount } from './fixtures';

const addin = locale<typeof import('@locales/en/addin.json')>('en', 'addin');
const ctx = serverPerFile();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Violation {
  directive: string;
  blockedURI: string;
  sample: string;
}

/** Every securitypolicyviolation of the page (and its frames) from the first script on. */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: Violation[] = [];
    (window as unknown as { __cspViolations: Violation[] }).__cspViolations = log;
    document.addEventListener('securitypolicyviolation', (event) => {
      log.push({ directive: event.effectiveDirective, blockedURI: event.blockedURI, sample: event.sample });
    });
  });
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as { __cspViolations: Violation[] }).__cspViolations);

/** Adds an inline <script> the way an injection would; the CSP must keep it from running. */
async function expectInlineScriptBlocked(page: Page): Promise<void> {
  const before = (await violations(page)).length;
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineScriptRan = true;';
    document.head.append(script);
  });
  await expect.poll(async () => (await violations(page)).slice(before).map((v) => v.directive)).toContain('script-src-elem');
  expect(await page.evaluate(() => (window as unknown as { __inlineScriptRan?: boolean }).__inlineScriptRan)).toBeUndefined();
  // An inline event handler is refused as well.
  await page.evaluate(() => {
    const img = document.createElement('img');
    img.setAttribute('onerror', 'window.__inlineHandlerRan = true');
    img.src = 'data:,not-an-image';
    document.body.append(img);
  });
  await expect.poll(async () => (await violations(page)).slice(before).map((v) => v.directive)).toContain('script-src-attr');
  expect(await page.evaluate(() => (window as unknown as { __inlineHandlerRan?: boolean }).__inlineHandlerRan)).toBeUndefined();
}

test('the web client: an injected inline script is blocked; sign-in works under the policy', async ({ page }) => {
  const { server } = ctx;
  await recordViolations(page);
  const response = await page.goto(`${server.url}/auth/login`);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  await expectInlineScriptBlocked(page);

  await submitLogin(page, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await page.reload();
  await expectInbox(page, server);
  // The app itself never trips the policy (Griffel's styles, the Worker, the chunks).
  expect(await violations(page)).toEqual([]);
});

test('a level-3 delivery decrypts in the Worker and downloads through the service worker under the policy', async ({ page }) => {
  // Two SecuPass set-ups in Node and one unlock in the browser (Argon2id each) on a shared machine.
  test.setTimeout(180_000);
  const { server } = ctx;
  const admin = await apiSignIn(server, server.admin);
  const alice = { email: 'alice.csp@example.test', password: 'Good-Passw0rd-csp' };
  const bob = { email: 'bob.csp@example.test', password: 'Good-Passw0rd-csp' };
  for (const account of [alice, bob]) {
    await apiCreateAccount(server, admin, { email: account.email, password: account.password });
  }
  const crypto = createCryptoService();
  const { client, keys } = await secuPassFromNode(server, alice, 'Alice-Csp-SecuPass-Harbour-31', crypto);
  await secuPassFromNode(server, bob, 'Bob-Csp-SecuPass-Orchard-32');
  const bytes = new Uint8Array(randomBytes(200 * 1024 + 5));
  const sent = await sendDelivery({
    client,
    draft: { recipients: [bob.email], subject: 'CSP figures', body: 'Encrypted.', securityLevel: 20 },
    files: [{ name: 'csp-figures.bin', blob: new Blob([bytes as Uint8Array<ArrayBuffer>]), mimeType: 'application/octet-stream' }],
    e2e: { crypto, keys, pins: new MemoryKeyPinStore(), recordSize: 64 * 1024 },
  });
  if (!sent.ok) throw new Error(JSON.stringify(sent.error));

  await recordViolations(page);
  await page.goto(`${server.url}/auth/login`);
  await submitLogin(page, { username: bob.email, password: bob.password });
  await expectInbox(page, server);
  await page.goto(`${server.url}/secumails/inbox/${sent.delivery.deliveryUuid}`);
  await expect(page.getByRole('heading', { name: 'CSP figures' })).toBeVisible();
  // The service worker path (web/lib/e2e-download.ts's test hook), not the in-memory fallback.
  await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'serviceWorker'));
  await page.getByRole('button', { name: 'Enter passphrase and decrypt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to decrypt' });
  await dialog.getByLabel(/^Passphrase/).fill('Bob-Csp-SecuPass-Orchard-32');
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  const button = page.getByRole('button', { name: 'Download csp-figures.bin' });
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe('csp-figures.bin');
  expect(sha256(await readFile((await download.path())!))).toBe(sha256(bytes));
  // It went through the service worker, which the policy let register.
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).map((r) => new URL(r.scope).pathname))).toContain('/webjars/download/');
  expect(await violations(page)).toEqual([]);
  await expectInlineScriptBlocked(page);
});

test('the add-in pane loads office.js from Microsoft and signs in under its policy; inline script is blocked', async ({ page }) => {
  const { server } = ctx;
  const box: StandInMailbox = { mode: 'compose', displayLanguage: 'en-US', to: [], cc: [], bcc: [], subject: 'Figures', body: 'Hello', attachments: [] };
  await page.addInitScript((cfg) => {
    (window as unknown as { __kuvertMailbox: unknown }).__kuvertMailbox = cfg;
  }, box);
  await recordViolations(page);
  await page.route(OFFICE_JS_URL, (route) => route.fulfill({ contentType: 'text/javascript', body: OFFICE_JS_STAND_IN }));
  const response = await page.goto(`${server.url}/addin/taskpane.html`);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain('https://appsforoffice.microsoft.com');
  expect(csp).toMatch(/frame-ancestors 'self' https:\/\/outlook\.office\.com/);
  expect(response?.headers()['x-frame-options']).toBeUndefined();

  const user = await createUserInRepository(server, {
    username: 'outlook.csp',
    roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_OUTLOOK'],
    hash: (password: string) => argon2.hash(password, { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 }),
  });
  await expect(page.getByRole('heading', { name: addin.signIn.title })).toBeVisible();
  await page.getByLabel(addin.signIn.login).fill(user.username);
  await page.getByLabel(addin.signIn.password).fill(user.password);
  await page.getByRole('button', { name: addin.signIn.submit }).click();
  await expect(page.getByRole('heading', { name: addin.send.title })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await expectInlineScriptBlocked(page);
});
