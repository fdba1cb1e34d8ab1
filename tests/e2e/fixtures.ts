// Shared set-up of the browser end-to-end specs: one real Kuvert server per spec file (or per
// test where the per-address failure counting would leak between tests), users created through
// the server's repository, settings changed through the admin API, English locale texts.
import { expect, type Page, type Response as PageResponse } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import axeCore from 'axe-core';
import { Secret, TOTP } from 'otpauth';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import argon2 from 'argon2';
import type { Language, RoleName } from '@shared/contract/constants';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { API_BASE } from '@shared/contract/constants';
import { createApiClient, type ApiClient } from '@shared/api/client';
import { postSecuPass } from '@shared/api/endpoints/secupass';
import { createCryptoService, type CryptoApi, type UnlockedKeys } from '@shared/crypto/service';
import { createHash } from 'node:crypto';
import { CONTENT_SHA256_HEADER, DELIVERY_PATHS, type DeliveryDetail, type DeliveryUploadFile } from '@shared/contract/deliveries';
import { EXTERNAL_PATHS } from '@shared/contract/external';
import { api, basic, captchaAnswer, createUser as createUserInRepository, login, type TestUser } from '@tests/integration/escalation-helpers';
import { proveAddress } from '@tests/support/prove-address';
import { startTestServer, type TestServer, type TestServerOptions } from '@tests/support/server';
import { test } from './base-test';

export { expect, captchaAnswer, type TestServer, type TestUser };

const locale = <T>(language: string, namespace: string): T => JSON.parse(readFileSync(join(process.cwd(), 'locales', language, `${namespace}.json`), 'utf8')) as T;
/** The English texts the specs look for (the same files the app bundles). */
export const en = {
  auth: locale<typeof import('@locales/en/auth.json')>('en', 'auth'),
  shell: locale<typeof import('@locales/en/shell.json')>('en', 'shell'),
  settings: locale<typeof import('@locales/en/settings.json')>('en', 'settings'),
  common: locale<typeof import('@locales/en/common.json')>('en', 'common'),
  deliveries: locale<typeof import('@locales/en/deliveries.json')>('en', 'deliveries'),
  external: locale<typeof import('@locales/en/external.json')>('en', 'external'),
  send: locale<typeof import('@locales/en/send.json')>('en', 'send'),
  secupass: locale<typeof import('@locales/en/secupass.json')>('en', 'secupass'),
};
export { locale };

/** Playwright's `test` with the fixture that closes leftover browser contexts (base-test.ts). */
export { test };

/** Argon2id with light parameters (they travel inside the hash: the server verifies it as usual, only faster). */
const lightHash = (password: string) => argon2.hash(password, { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 });

/**
 * A user created through the server's repository, like the integration tests do, but with a
 * light Argon2id hash: the parameters travel inside the hash, so the server verifies it the
 * same way, only faster (the specs sign in dozens of times on a shared 2-core machine).
 */
export const createUser = (
  server: TestServer,
  options: { username: string; password?: string; language?: Language; emailVerified?: boolean; totpRequired?: boolean; roles?: RoleName[] },
): Promise<TestUser> => createUserInRepository(server, { ...options, hash: lightHash });

/**
 * Starts one server for the file (beforeAll) or for each test (beforeEach) and returns a
 * holder whose `server` is set while the tests run.
 */
export function serverPerFile(scope: 'file' | 'test' = 'file', options: Pick<TestServerOptions, 'clock'> = {}): { server: TestServer } {
  const holder = {} as { server: TestServer };
  const start = async () => {
    const server = await startTestServer(options);
    // The first administrator keeps email and password, with a light hash (see createUser).
    const admin = await server.app.users.findByLogin(server.admin.email);
    if (!admin) throw new Error('the test server has no administrator');
    await server.app.users.update(admin.id, { password_hash: await lightHash(server.admin.password) });
    holder.server = server;
  };
  const stop = async () => {
    await holder.server?.close();
  };
  if (scope === 'file') {
    test.beforeAll(start);
    test.afterAll(stop);
  } else {
    test.beforeEach(start);
    test.afterEach(stop);
  }
  return holder;
}

/** PUT /api/2/admin/settings as the administrator (signs in over HTTP, anti-forgery header). */
export async function setSettingsAsAdmin(server: TestServer, settings: Record<string, unknown>): Promise<void> {
  // Accepting the disclaimer is harmless while it is off, and needed while it is on.
  const session = await login(server, { username: server.admin.email, password: server.admin.password }, { j_login_disclaimer_accepted: 'true' });
  expect(session.status, 'admin sign-in').toBe(200);
  const response = await api(server, '/admin/settings', { method: 'PUT', body: settings, cookie: session.cookie, csrf: session.csrf });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Types the credentials on the login page and submits. */
export async function submitLogin(page: Page, user: { username: string; password: string }): Promise<void> {
  await page.getByLabel(en.auth.login.username).fill(user.username);
  await page.getByLabel(/^Password/).fill(user.password);
  await page.getByRole('button', { name: en.auth.login.submit, exact: true }).click();
}

/** Opens the login page and signs in (stops at whatever screen comes next). */
export async function signIn(page: Page, server: TestServer, user: { username: string; password: string }, path = '/auth/login'): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  await submitLogin(page, user);
}

/** Signs in with an account's email on the login page and waits for the inbox. */
export async function signInToInbox(page: Page, server: TestServer, account: { email: string; password: string }): Promise<void> {
  await signIn(page, server, { username: account.email, password: account.password });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
}

/** The send page of a signed-in user. */
export async function openSendPage(page: Page, server: TestServer): Promise<void> {
  await page.goto(`${server.url}/secumails/send`);
  await expect(page.getByRole('heading', { level: 1, name: en.send.title })).toBeVisible();
}

/** The send page's recipients field. */
export const recipientsInput = (page: Page) => page.getByRole('textbox', { name: en.send.recipients.label });

/** Pastes text into the recipients field the way the browser does (a paste event with clipboard data). */
export async function pasteRecipients(page: Page, text: string): Promise<void> {
  await recipientsInput(page).evaluate((element, value) => {
    const data = new DataTransfer();
    data.setData('text', value);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/** A file a spec attaches on the send page. */
export interface TestFile {
  name: string;
  bytes: Uint8Array;
}

/** Attaches files through the send page's file picker. */
export async function pickFiles(page: Page, files: TestFile[]): Promise<void> {
  await page.locator('input[type=file]').setInputFiles(files.map((f) => ({ name: f.name, mimeType: 'application/octet-stream', buffer: Buffer.from(f.bytes) })));
}

/** Drops files onto a drop zone (default: the send page's attachments) with a real DataTransfer (as a drag from the desktop does). */
export async function dropFiles(page: Page, files: TestFile[], zoneTestId = 'send-drop-zone'): Promise<void> {
  const dataTransfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const { name, base64 } of list) {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], name, { type: 'application/octet-stream' }));
    }
    return data;
  }, files.map((f) => ({ name: f.name, base64: Buffer.from(f.bytes).toString('base64') })));
  const zone = page.getByTestId(zoneTestId);
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

/**
 * No dialog is open and the app root is not aria-hidden: a Fluent dialog unmounted while still
 * open leaves the modalizer's aria-hidden behind, and the page goes silent for screen readers.
 */
export async function expectAppRootNotHidden(page: Page): Promise<void> {
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(page.locator('#root')).not.toHaveAttribute('aria-hidden');
}

/** The inbox of a signed-in user: URL and heading. */
export async function expectInbox(page: Page, server: TestServer): Promise<void> {
  await expect(page).toHaveURL(`${server.url}/secumails/inbox`);
  await expect(page.getByRole('heading', { level: 1, name: en.shell.inbox.title, exact: true })).toBeVisible();
}

export const authenticatorFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
/** Several valid codes of one secret in a row, each of a distinct time step (tests/support/totp.ts). */
export { totpCodes } from '@tests/support/totp';

/**
 * Remembers the id of the last captcha the page loaded (GET /api/2/auth/captcha). `take()` waits for
 * a captcha not taken before: after an answer the captcha screen may still show the old one for a
 * moment (its id is spent), so a test that read `lastId()` right away raced the next image.
 */
export function trackCaptchas(page: Page): { lastId: () => string | undefined; take: () => Promise<string> } {
  let last: string | undefined;
  const taken = new Set<string>();
  page.on('response', (response: PageResponse) => {
    if (new URL(response.url()).pathname !== '/api/2/auth/captcha' || !response.ok()) return;
    void response
      .json()
      .then((body: { captchaId?: string }) => {
        if (body.captchaId) last = body.captchaId;
      })
      .catch(() => undefined);
  });
  return {
    lastId: () => last,
    take: async () => {
      await expect.poll(() => last !== undefined && !taken.has(last)).toBe(true);
      taken.add(last!);
      return last!;
    },
  };
}

/** axe's source, evaluated only where the document has no axe yet (a page scanned again keeps it). */
const AXE_ONCE = `if (!window.axe) {\n${axeCore.source}\n}`;

/**
 * An axe scan of the page, made cheaper in three ways that keep every check (the specs scan ~300
 * times; rooms.spec's 9 scans on the loaded 2-core machine: 20 s before, 3.5 s after):
 * - axe's 1.3 MB source is run once per document, not again before each scan (and its frames).
 * - `resultTypes: ['violations']`: axe still runs every rule on every node and lists every
 *   violation with all its nodes; passes and incomplete keep one node per rule (the specs count
 *   passed rules, never their nodes), so far less is serialised back to Node.
 * - legacy mode (one `axe.run` in the page) where the page has no frame: the default runs axe per
 *   frame and then opens a new page for axe's `finishRun`, which cost about a second a scan. With
 *   a frame (a preview's media, a download frame, an embedded form) the default stays, as it
 *   reaches every frame through Playwright.
 */
export function axeBuilder(page: Page): AxeBuilder {
  const builder = new AxeBuilder({ page, axeSource: AXE_ONCE }).options({ resultTypes: ['violations'] });
  return page.frames().length === 1 ? builder.setLegacyMode(true) : builder;
}

/** Longest wait for a page to settle before the scan (a screen may keep a progress bar on purpose). */
const A11Y_SETTLE_MS = 10_000;

/**
 * axe on the current page: no violation of impact serious or critical. The scan waits for the
 * settled page first — the app's content rendered in the main region and no loading indicator
 * (spinner, progress bar, aria-busy) left — because what axe checks (and how many rules apply)
 * depends on how much had rendered: a count of passed rules taken mid-load made specs flaky.
 */
export async function expectNoSeriousA11yViolations(page: Page, screen: string): Promise<void> {
  // The scan must cover the page's content: the shell's main region holds the screen's text.
  await expect.poll(() => page.evaluate(() => (document.querySelector('#main-content') ?? document.querySelector('main') ?? document.body).textContent?.trim().length ?? 0), { message: `content rendered on ${screen}` }).toBeGreaterThan(0);
  await page
    // A progress bar inside a dialog is a transfer the spec is watching (the transfer centre), not
    // loading: waiting for it would let the transfer end and its toast go before the spec looks.
    // Nor is a bar with a value (aria-valuenow: a transfer's, a licence's usage): loading bars are
    // indeterminate. Waiting for one cost 10 s a scan (send.spec's refusal: a failed transfer's bar).
    .waitForFunction(() => !document.querySelector('.fui-Spinner, [role="progressbar"]:not([aria-valuenow]):not([role="dialog"] [role="progressbar"]), [aria-busy="true"]'), null, { timeout: A11Y_SETTLE_MS, polling: 100 })
    // An intentional indicator stays: scan what is there, and say so (each such wait costs 10 s).
    .catch(() => console.warn(`[a11y] ${screen}: a loading indicator stayed ${A11Y_SETTLE_MS / 1000} s; scanned as it is`));
  // Fluent's focus helper (tabster) puts `<i data-tabster-dummy aria-hidden="true" tabindex="0">`
  // sentinels around dialogs, menus and focus zones so Tab can wrap; axe reports them as
  // aria-hidden-focus (serious). They are never a stop a keyboard user lands on (tabster moves
  // focus on at once): a known false positive upstream, microsoft/tabster#288
  // (https://github.com/microsoft/tabster/issues/288). Only those elements are left out; every
  // other aria-hidden-focus still fails (web/README "axe").
  const results = await axeBuilder(page).exclude('[data-tabster-dummy]').analyze();
  // The scan really ran on a rendered document (landmarks, names, contrast... applied and passed).
  expect(results.passes.length, `axe rules passed on ${screen}`).toBeGreaterThan(5);
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `axe on ${screen}`).toEqual([]);
}

/**
 * Screenshots for a person to look at (issue 13: every changed screen at phone and desktop width):
 * written to $KUVERT_SCREENSHOTS when set, as `<name>-phone.png` and `<name>-desktop.png`; nothing
 * otherwise, so test runs leave no files behind. The viewport is restored afterwards.
 */
export async function screenshotsAtWidths(page: Page, name: string): Promise<void> {
  const folder = process.env.KUVERT_SCREENSHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(folder, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(folder, `${name}-desktop.png`), fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** A session of the real API from Node (cookie + anti-forgery value), for specs that set up data. */
export interface ApiSession {
  cookie: string;
  csrf: string;
}

/** POST /api/2/auth with Basic credentials; the sign-in must succeed. */
export async function apiSignIn(server: TestServer, account: { email: string; password: string }): Promise<ApiSession> {
  const response = await fetch(`${server.url}${API_BASE}/auth`, {
    method: 'POST',
    headers: { authorization: basic(account.email, account.password), 'content-type': 'application/json' },
  });
  expect(response.status, `sign-in of ${account.email}`).toBe(200);
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  const csrf = response.headers.get(ANTI_CSRF_HEADER);
  if (!cookie || !csrf) throw new Error(`no session for ${account.email}`);
  return { cookie, csrf };
}

/** A call of /api/2 with the session; a Blob body goes as it is, anything else as JSON. */
export async function apiCall(
  server: TestServer,
  session: ApiSession,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const all: Record<string, string> = { cookie: session.cookie, [ANTI_CSRF_HEADER]: session.csrf, ...headers };
  if (body !== undefined && !(body instanceof Blob)) all['content-type'] = 'application/json';
  const payload = body === undefined ? undefined : body instanceof Blob ? body : JSON.stringify(body);
  return fetch(`${server.url}${API_BASE}${path}`, { method, headers: all, body: payload });
}

/**
 * An account made by the administrator through the admin API, whose owner then proves the address
 * at the first sign-in (code by mail), as a real owner does: accounts made by someone else start
 * unverified and cannot sign in before that (issue 12 §1).
 */
export async function apiCreateAccount(
  server: TestServer,
  admin: ApiSession,
  account: { email: string; password: string; language?: Language; firstName?: string; lastName?: string },
): Promise<void> {
  const created = await apiCall(server, admin, 'POST', '/admin/users', { language: 'en', ...account });
  expect(created.status, await created.clone().text()).toBe(201);
  await proveAddress(server, account.email, account.password);
}

async function apiJson<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/**
 * Creates, uploads (part by part, with hashes), commits and sends one delivery through the real
 * API; `phoneNumbers` (recipient → number) are set before sending, as the send page's dialog does.
 */
export async function apiSendDelivery(
  server: TestServer,
  session: ApiSession,
  options: { to: string; subject: string; level: number; files: { name: string; bytes: Uint8Array }[]; phoneNumbers?: Record<string, string> },
): Promise<DeliveryDetail> {
  const { to, subject, level, files } = options;
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => apiCall(server, session, method, path, body, headers);
  const draft = await apiJson<DeliveryDetail>(await call('POST', DELIVERY_PATHS.create, { recipients: [to], subject, body: `Body of ${subject}`, securityLevel: level, language: 'en' }), 201);
  for (const { name, bytes } of files) {
    const file = await apiJson<DeliveryUploadFile>(await call('POST', DELIVERY_PATHS.files(draft.deliveryUuid), { name, size: bytes.length, mimeType: 'application/octet-stream' }), 201);
    for (let i = 0; i < file.partCount; i++) {
      const part = bytes.subarray(i * file.partSize, (i + 1) * file.partSize);
      const response = await call('PUT', DELIVERY_PATHS.part(draft.deliveryUuid, file.fileId, i), new Blob([Uint8Array.from(part)]), {
        'content-type': 'application/octet-stream',
        [CONTENT_SHA256_HEADER]: createHash('sha256').update(part).digest('hex'),
      });
      expect(response.status, await response.clone().text()).toBe(200);
    }
    await apiJson(await call('POST', DELIVERY_PATHS.commit(draft.deliveryUuid, file.fileId)), 200);
  }
  if (options.phoneNumbers) {
    const phoneNumbers = Object.entries(options.phoneNumbers).map(([email, phoneNumber]) => ({ email, phoneNumber }));
    await apiJson(await call('PUT', EXTERNAL_PATHS.phoneNumbers(draft.deliveryUuid), { phoneNumbers }), 200);
  }
  return apiJson<DeliveryDetail>(await call('POST', DELIVERY_PATHS.send(draft.deliveryUuid)), 200);
}

/** A Node "browser" of one user: the product's ApiClient with the session cookie, and the user's uuid. */
export async function nodeClient(server: TestServer, account: { email: string; password: string }): Promise<{ client: ApiClient; session: ApiSession; userUuid: string }> {
  const session = await apiSignIn(server, account);
  const withCookie: typeof fetch = (input, init = {}) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), cookie: session.cookie } });
  const client = createApiClient({ backendUrl: server.url, fetch: withCookie });
  client.setAntiCsrfToken(session.csrf);
  const me = (await (await apiCall(server, session, 'GET', '/user')).json()) as { user: { uuid: string } };
  return { client, session, userUuid: me.user.uuid };
}

/** Sets a SecuPass from Node (real Argon2id): the browser later unlocks it with the same passphrase. */
export async function secuPassFromNode(
  server: TestServer,
  account: { email: string; password: string },
  passphrase: string,
  crypto: CryptoApi = createCryptoService(),
): Promise<{ client: ApiClient; keys: UnlockedKeys; crypto: CryptoApi }> {
  const { client, userUuid } = await nodeClient(server, account);
  const { blob, keys } = await crypto.setupSecuPass({ userId: userUuid, passphrase });
  await postSecuPass(client, { blob, publicKeys: blob.keys.map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey })) });
  return { client, keys, crypto };
}

/** Key paths of the English locale files: `path`, `ns:path`, their first segments and the namespaces. */
const LOCALE_KEYS = (() => {
  const dir = join(process.cwd(), 'locales', 'en');
  const paths = new Set<string>();
  const groups = new Set<string>();
  const namespaces = new Set<string>();
  const walk = (value: unknown, namespace: string, prefix: string) => {
    if (typeof value !== 'object' || value === null) {
      const path = prefix.replace(/_(zero|one|two|few|many|other)$/, '');
      paths.add(path).add(`${namespace}:${path}`);
      groups.add(path.split('.')[0]!);
      return;
    }
    for (const [key, inner] of Object.entries(value)) walk(inner, namespace, prefix ? `${prefix}.${key}` : key);
  };
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const namespace = file.slice(0, -'.json'.length);
    namespaces.add(namespace);
    walk(JSON.parse(readFileSync(join(dir, file), 'utf8')), namespace, '');
  }
  return { paths, groups, namespaces };
})();

/**
 * A text that is an i18n key instead of a translation: a key path of the locale files (with or
 * without its namespace), what i18next shows for a missing key (`ns:path`, or a dotted path under a
 * known group), or a bare code in camelCase such as `releaseNeeded`.
 */
export function looksLikeRawKey(text: string): boolean {
  if (LOCALE_KEYS.paths.has(text)) return true;
  const namespaced = /^([a-z]+):[A-Za-z0-9_.]+$/.exec(text);
  if (namespaced && LOCALE_KEYS.namespaces.has(namespaced[1]!)) return true;
  const dotted = /^([A-Za-z0-9]+)(\.[A-Za-z0-9_]+)+$/.exec(text);
  if (dotted && LOCALE_KEYS.groups.has(dotted[1]!)) return true;
  return /^[a-z]+(?:[A-Z][a-z0-9]*)+$/.test(text);
}

/** Every visible text node, and the accessible labels and placeholders of visible elements, of the page. */
export async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const visible = (element: Element) => element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      if (text && node.parentElement && visible(node.parentElement)) out.push(text);
    }
    for (const element of document.body.querySelectorAll('[aria-label], [placeholder], [title]')) {
      if (!visible(element)) continue;
      for (const name of ['aria-label', 'placeholder', 'title']) {
        const value = element.getAttribute(name)?.trim();
        if (value) out.push(value);
      }
    }
    out.push(document.title);
    return out;
  });
}

/** No rendered text of the page is an i18n key (issue 13: `releaseNeeded` showed as it was). */
export async function expectNoRawKeyTexts(page: Page, screen: string): Promise<void> {
  const texts = await visibleTexts(page);
  expect(texts.length, `texts on ${screen}`).toBeGreaterThan(3);
  expect(texts.filter(looksLikeRawKey), `raw i18n keys on ${screen}`).toEqual([]);
}

/** Opens an item of the administration menu (web/features/admin/admin-page.tsx) by its label. */
export async function openAdminItem(page: Page, server: TestServer, name: string): Promise<void> {
  await page.goto(`${server.url}/admin`);
  await page.getByRole('navigation', { name: en.shell.admin.menuLabel }).getByRole('link', { name, exact: true }).click();
}
