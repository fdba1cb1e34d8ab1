// SecuPass in the web client against a real server (needs the server side of the SecuPass contract:
// GET/POST/PUT /user/secupass, GET /secupass/policy). Signs in as the admin, sets a passphrase, sees
// the fingerprint in the settings, changes the passphrase, locks by signing out and unlocks again,
// while recording every request the browser sends during set/change/unlock: no passphrase and no
// private key material may leave the browser (DESIGN §3).
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Request } from '@playwright/test';
import { AdminUserSchema, type AdminUser } from '@shared/contract/admin-users';
import { SetSecuPassBodySchema, type SetSecuPassBody } from '@shared/contract/secupass';
import { startTestServer, type TestServer } from '../support/server';

const FIRST = 'violet-Harbor-71-quietly-jump';
const SECOND = 'amber-Lantern-38-slowly-drift';
const WRONG = 'not-the-Right-one-42-at-all';
const PASSPHRASES = [FIRST, SECOND, WRONG];

let server: TestServer;

test.beforeAll(async () => {
  server = await startTestServer();
});
test.afterAll(async () => {
  await server?.close();
});

interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

/** Every request the page sends while `recording.on` (the crypto Worker's too: same page context). */
function recordRequests(page: Page) {
  const state = { on: false, requests: [] as Recorded[] };
  const onRequest = async (request: Request) => {
    if (!state.on) return;
    state.requests.push({ method: request.method(), url: request.url(), headers: await request.allHeaders(), body: request.postData() });
  };
  page.on('request', (request) => void onRequest(request));
  return state;
}

/** base64/base64url/hex/percent encodings of a string, so an encoded passphrase is caught too. */
function encodingsOf(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  return [value, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex'), encodeURIComponent(value)];
}

/**
 * Stand-in for the SecuPass calls inside the page (page.route), so the screens and the crypto Worker
 * are checked even where the server side is missing. The real-server run below is the one that counts.
 */
async function stubSecuPassCalls(page: Page, { policyFails = false } = {}) {
  let own: { blob: unknown; publicKeys: unknown[] } | null = null;
  await page.route('**/api/2/secupass/policy', (route) =>
    policyFails
      ? route.fulfill({ status: 500, json: { error: 'InternalServerError', message: 'down' } })
      : route.fulfill({ json: { minLength: 12, requireLowercase: true, requireUppercase: true, requireDigit: true, requireSpecial: false, minStrength: 3 } }),
  );
  await page.route('**/api/2/user/secupass', async (route) => {
    const method = route.request().method();
    if (method === 'GET') {
      return route.fulfill({
        json: own
          ? { state: 'active', version: 3, blob: own.blob, publicKeys: own.publicKeys, updatedAt: Date.now() }
          : { state: 'none', version: null, blob: null, publicKeys: [], updatedAt: null },
      });
    }
    const body = SetSecuPassBodySchema.parse(route.request().postDataJSON());
    own = { blob: body.blob, publicKeys: body.publicKeys };
    return route.fulfill({ status: method === 'POST' ? 201 : 200, json: {} });
  });
}

async function signIn(page: Page, { navigate = true } = {}) {
  if (navigate) await page.goto(`${server.url}/auth/login`);
  await page.getByLabel('Username or email').fill(server.admin.email);
  await page.getByLabel(/^Password/).fill(server.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/secumails\/inbox/);
}

async function passphraseLifecycle(page: Page, stubbed: boolean) {
  const recording = recordRequests(page);
  if (stubbed) await stubSecuPassCalls(page);
  await signIn(page);

  // ---- set ----
  recording.on = true;
  await page.goto(`${server.url}/auth/set-secupass`);
  await expect(page.getByRole('heading', { level: 1, name: 'Set your SecuPass' })).toBeVisible();
  await expect(page.getByText('Your passphrase cannot be recovered.', { exact: false })).toBeVisible();
  await page.getByLabel(/^Passphrase/).fill('short');
  await page.getByLabel(/^Confirm passphrase/).fill('short');
  await page.getByRole('button', { name: 'Set passphrase' }).click();
  await expect(page.getByText('The passphrase does not meet the policy:', { exact: false })).toBeVisible();
  await page.getByLabel(/^Passphrase/).fill(FIRST);
  await page.getByLabel(/^Confirm passphrase/).fill(FIRST);
  await expect(page.getByText(/^Strength: /)).toBeVisible();
  await page.getByRole('button', { name: 'Set passphrase' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Passphrase set' })).toBeVisible({ timeout: 30_000 });

  const posted = recording.requests.filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/api/2/user/secupass');
  expect(posted).toHaveLength(1);
  const setBody: SetSecuPassBody = SetSecuPassBodySchema.parse(JSON.parse(posted[0]?.body ?? 'null'));
  expect(setBody.blob.version).toBe(3);
  expect(setBody.publicKeys.map((key) => key.usage).sort()).toEqual(['encryption', 'signing']);

  // ---- settings: own encryption-key fingerprint in 16 groups ----
  // Client-side navigation: the keys live in this page's crypto Worker (a reload would lock them).
  await page.getByRole('link', { name: 'Go to account settings' }).click();
  const section = page.getByRole('region', { name: 'SecuPass (end-to-end encryption)' });
  await expect(section.getByText('Your passphrase is set; end-to-end encryption is activated.')).toBeVisible();
  const fingerprint = section.getByTestId('secupass-fingerprint');
  await expect(fingerprint.locator('span')).toHaveCount(16);
  await expect(fingerprint).toHaveText(/^([0-9A-F]{4} ?){16}$/);
  await expect(section.getByText('Your keys are unlocked for this session.')).toBeVisible();
  const fingerprintBefore = await fingerprint.textContent();

  // ---- change ----
  await section.getByRole('link', { name: 'Change passphrase' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Change your SecuPass' })).toBeVisible();
  await page.getByLabel(/^Current passphrase/).fill(WRONG);
  await page.getByLabel(/^New passphrase/).fill(SECOND);
  await page.getByLabel(/^Confirm passphrase/).fill(SECOND);
  await page.getByRole('button', { name: 'Change passphrase' }).click();
  await expect(page.getByText('The current passphrase is incorrect.')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel(/^Current passphrase/).fill(FIRST);
  await page.getByRole('button', { name: 'Change passphrase' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Passphrase changed' })).toBeVisible({ timeout: 30_000 });

  const put = recording.requests.filter((r) => r.method === 'PUT' && new URL(r.url).pathname === '/api/2/user/secupass');
  expect(put).toHaveLength(1);
  const changeBody = SetSecuPassBodySchema.parse(JSON.parse(put[0]?.body ?? 'null'));
  // Same key pairs under a new passphrase: same public keys, new wrapping.
  expect(changeBody.publicKeys).toEqual(setBody.publicKeys);
  expect(changeBody.blob.kdf.salt).not.toBe(setBody.blob.kdf.salt);

  // ---- lock by sign-out ----
  recording.on = false;
  await page.getByRole('link', { name: 'Go to account settings' }).click();
  await expect(page.getByText('Your keys are unlocked for this session.')).toBeVisible();
  await page.getByRole('button', { name: /^User menu of / }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  // Same page, no reload: only the sign-out can have locked the keys.
  await signIn(page, { navigate: false });

  // ---- unlock in the dialog ----
  recording.on = true;
  await page.getByRole('button', { name: /^User menu of / }).click();
  await page.getByRole('menuitem', { name: 'Account settings' }).click();
  const sectionAgain = page.getByRole('region', { name: 'SecuPass (end-to-end encryption)' });
  await expect(sectionAgain.getByText('Your keys are locked.')).toBeVisible();
  await expect(sectionAgain.getByTestId('secupass-fingerprint')).toHaveText(fingerprintBefore ?? '');
  await sectionAgain.getByRole('button', { name: 'Unlock keys' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to decrypt' });
  await dialog.getByLabel(/^Passphrase/).fill(FIRST);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog.getByText('The passphrase is wrong.')).toBeVisible({ timeout: 30_000 });
  await dialog.getByLabel(/^Passphrase/).fill(SECOND);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(sectionAgain.getByText('Your keys are unlocked for this session.')).toBeVisible();
  recording.on = false;

  // ---- nothing secret left the browser ----
  expect(recording.requests.length).toBeGreaterThan(3);
  const secrets = PASSPHRASES.flatMap(encodingsOf);
  for (const request of recording.requests) {
    const sent = `${request.method} ${request.url}\n${JSON.stringify(request.headers)}\n${request.body ?? ''}`;
    for (const secret of secrets) expect(sent.includes(secret), `${request.method} ${request.url} carries a passphrase`).toBe(false);
    // No private key material in any form: no JWK private part, no PKCS#8, no field named like one.
    expect(sent).not.toMatch(/"d"\s*:|PRIVATE KEY|"privateKey"|"pkcs8"|"passphrase"/i);
    // SecuPass calls use the session cookie, never Basic credentials.
    if (new URL(request.url).pathname.includes('secupass')) expect(request.headers.authorization).toBeUndefined();
  }
  // Only the wrapped blob and public keys were stored (strict schema: no extra fields).
  for (const body of [setBody, changeBody]) {
    for (const key of body.blob.keys) expect(Object.keys(key).sort()).toEqual(['iv', 'keyId', 'publicKey', 'usage', 'wrappedKey']);
  }
  // Nor does the browser keep a passphrase in storage or cookies.
  const stored = await page.evaluate(() => `${JSON.stringify({ ...localStorage })}${JSON.stringify({ ...sessionStorage })}${document.cookie}`);
  for (const secret of secrets) expect(stored.includes(secret)).toBe(false);
}

const LIFECYCLE = 'set, see the fingerprint, change, lock by sign-out and unlock: the passphrase never leaves the browser';

test(LIFECYCLE, async ({ page }) => {
  test.setTimeout(120_000);
  await passphraseLifecycle(page, false);
});

test(`${LIFECYCLE} (SecuPass calls stubbed in the page)`, async ({ page }) => {
  test.setTimeout(120_000);
  await passphraseLifecycle(page, true);
});

test('without the passphrase policy the form says so and cannot be submitted (policy call stubbed to fail)', async ({ page }) => {
  await stubSecuPassCalls(page, { policyFails: true });
  await signIn(page);
  await page.goto(`${server.url}/auth/set-secupass`);
  await expect(page.getByText('The passphrase policy could not be loaded', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set passphrase' })).toBeDisabled();
});

test('an administrator reset leads the user to set a new passphrase (state stubbed)', async ({ page }) => {
  await page.route('**/api/2/user/secupass', (route) => route.fulfill({ json: { state: 'reset', version: null, blob: null, publicKeys: [], updatedAt: null } }));
  await signIn(page);
  await page.goto(`${server.url}/settings`);
  const section = page.getByRole('region', { name: 'SecuPass (end-to-end encryption)' });
  await expect(section.getByText('Your passphrase was reset')).toBeVisible();
  await section.getByRole('link', { name: 'Set passphrase' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Set your SecuPass' })).toBeVisible();
  await expect(page.getByText('An administrator reset your passphrase.', { exact: false })).toBeVisible();
});

test('user administration lists and searches users (real server)', async ({ page }) => {
  await signIn(page);
  await page.goto(`${server.url}/admin/users`);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await page.getByLabel('Search users').fill(server.admin.email);
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByRole('cell', { name: server.admin.email })).toBeVisible();
  await expect(page.getByText(/^Users found: 1$/)).toBeVisible();
});

test('passphrase reset needs a confirmation naming the consequences, then tells the outcome (calls stubbed)', async ({ page }) => {
  const user: AdminUser = AdminUserSchema.parse({
    uuid: '00000000-0000-4000-8000-000000000001',
    id: 2,
    username: 'jane',
    email: 'jane@example.test',
    firstName: 'Jane',
    lastName: 'Doe',
    roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER'],
    language: 'en',
    totpEnabled: false,
    disabled: false,
    secupassState: 'active',
  });
  let resets = 0;
  await page.route('**/api/2/admin/users?*', (route) => route.fulfill({ json: { users: [user], total: 1, page: 1, pageSize: 25 } }));
  await page.route(`**/api/2/admin/users/${user.uuid}/secupass/reset`, (route) => {
    resets += 1;
    return route.fulfill({ status: 204, body: '' });
  });
  await signIn(page);
  await page.goto(`${server.url}/admin/users`);
  await page.getByRole('button', { name: 'Reset passphrase of Jane Doe' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Reset the passphrase of Jane Doe?' });
  await expect(dialog.getByText('can no longer open end-to-end encrypted deliveries and rooms', { exact: false })).toBeVisible();
  await expect(dialog.getByText('The user is told by email.')).toBeVisible();
  await expect(dialog.getByText('This cannot be undone.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(resets).toBe(0);
  await page.getByRole('button', { name: 'Reset passphrase of Jane Doe' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reset passphrase' }).click();
  // Fluent's toaster also announces the text in a live region, hence first().
  await expect(page.getByText('The passphrase of Jane Doe was reset.').first()).toBeVisible();
  expect(resets).toBe(1);
});

test('unlocking a v2 blob stores the v3 upgrade with the same public keys (calls stubbed, kat.json v2 vector)', async ({ page }) => {
  test.setTimeout(120_000);
  const kat = JSON.parse(readFileSync(new URL('../fixtures/crypto/kat.json', import.meta.url), 'utf8')) as {
    secupassV2: { userId: string; passphrase: string; blob: SetSecuPassBody['blob']; encryptionPublicKey: string; signingPublicKey: string };
  };
  const vector = kat.secupassV2;
  const publicKeys = vector.blob.keys.map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey }));
  const puts: SetSecuPassBody[] = [];
  // The blob is bound to its user id: sign in as the admin, but let the page see the vector's user id.
  await page.route('**/api/2/user', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { user?: Record<string, unknown> };
    await route.fulfill({ response, json: body.user ? { ...body, user: { ...body.user, uuid: vector.userId } } : body });
  });
  await page.route('**/api/2/user/secupass', async (route) => {
    if (route.request().method() === 'PUT') {
      puts.push(SetSecuPassBodySchema.parse(route.request().postDataJSON()));
      return route.fulfill({ json: {} });
    }
    return route.fulfill({ json: { state: 'active', version: 2, blob: vector.blob, publicKeys, updatedAt: 1 } });
  });
  await signIn(page);
  await page.goto(`${server.url}/settings`);
  const section = page.getByRole('region', { name: 'SecuPass (end-to-end encryption)' });
  await section.getByRole('button', { name: 'Unlock keys' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to decrypt' });
  await dialog.getByLabel(/^Passphrase/).fill(vector.passphrase);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(section.getByText('Your keys are unlocked for this session.')).toBeVisible();
  expect(puts).toHaveLength(1);
  expect(puts[0]?.blob.version).toBe(3);
  expect(puts[0]?.publicKeys).toEqual(publicKeys);
});

test('the passphrase screens, the settings section and the user administration pass axe (calls stubbed)', async ({ page }) => {
  test.setTimeout(120_000);
  await stubSecuPassCalls(page);
  await page.route('**/api/2/admin/users?*', (route) =>
    route.fulfill({
      json: {
        users: [{ uuid: 'u1', id: 2, username: 'jane', email: 'jane@example.test', firstName: 'Jane', lastName: 'Doe', roleNames: [], language: 'en', totpEnabled: false, disabled: false, secupassState: 'active' }],
        total: 1,
        page: 1,
        pageSize: 25,
      },
    }),
  );
  // tabster's focus sentinels are a documented Fluent false positive (web/README).
  const axe = () => new AxeBuilder({ page }).disableRules(['aria-hidden-focus']).analyze();
  await signIn(page);
  await page.goto(`${server.url}/auth/set-secupass`);
  await page.getByLabel(/^Passphrase/).fill('violet-Harbor');
  await expect(page.getByText(/^Strength: /)).toBeVisible();
  expect((await axe()).violations).toEqual([]);
  await page.getByLabel(/^Passphrase/).fill(FIRST);
  await page.getByLabel(/^Confirm passphrase/).fill(FIRST);
  await page.getByRole('button', { name: 'Set passphrase' }).click();
  await page.getByRole('link', { name: 'Go to account settings' }).click();
  await expect(page.getByTestId('secupass-fingerprint')).toBeVisible();
  expect((await axe()).violations).toEqual([]);
  await page.getByRole('button', { name: 'Lock keys' }).click();
  await page.getByRole('button', { name: 'Unlock keys' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect((await axe()).violations).toEqual([]);
  await page.keyboard.press('Escape');
  await page.goto(`${server.url}/auth/change-secupass`);
  await expect(page.getByLabel(/^Current passphrase/)).toBeVisible();
  expect((await axe()).violations).toEqual([]);
  await page.goto(`${server.url}/admin/users`);
  await expect(page.getByRole('cell', { name: 'jane@example.test' })).toBeVisible();
  expect((await axe()).violations).toEqual([]);
  await page.getByRole('button', { name: 'Reset passphrase of Jane Doe' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  expect((await axe()).violations).toEqual([]);
});
