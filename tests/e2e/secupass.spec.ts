// SecuPass in the web client against a real server (needs the server side of the SecuPass contract:
// GET/POST/PUT /user/secupass, GET /secupass/policy). Signs in as the admin, sets a passphrase, sees
// the fingerprint in the settings, changes the passphrase, locks by signing out and unlocks again,
// while recording every request the browser sends during set/change/unlock: no passphrase and no
// private key material may leave the browser (DESIGN §3).
//
// Every test talks to the real server started below: users are created with the admin API, real
// SecuPass blobs are made with shared/crypto, resets go through the real reset call and its mail lands
// in the server's mailbox folder. The only page.route left injects a network failure (no fake answers).
import { readFileSync } from 'node:fs';
import { expect, type Page, type Request } from '@playwright/test';
import { CreateUserResponseSchema } from '@shared/contract/admin-users';
import { API_BASE } from '@shared/contract/constants';
import {
  OwnSecuPassResponseSchema,
  SECUPASS_PATHS,
  SetSecuPassBodySchema,
  type OwnSecuPassResponse,
  type PublicKey,
  type SetSecuPassBody,
} from '@shared/contract/secupass';
import { createCryptoService } from '@shared/crypto/service';
import { fingerprintOf } from '../../server/secupass/blob-checks';
import { addressedTo, readMailbox, waitForMailboxMail } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, axeBuilder, apiSignIn as signInByApi, type ApiSession, test } from './fixtures';
import { proveAddress } from '@tests/support/prove-address';

const FIRST = 'violet-Harbor-71-quietly-jump';
const SECOND = 'amber-Lantern-38-slowly-drift';
const WRONG = 'not-the-Right-one-42-at-all';
const PASSPHRASES = [FIRST, SECOND, WRONG];

let server: TestServer;

interface Account {
  email: string;
  password: string;
}
interface CreatedUser extends Account {
  uuid: string;
}

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

/** Signs in through the login page (the administrator unless told otherwise). */
async function signIn(page: Page, { navigate = true, account = server.admin }: { navigate?: boolean; account?: Account } = {}) {
  if (navigate) await page.goto(`${server.url}/auth/login`);
  await page.getByLabel('Username or email').fill(account.email);
  await page.getByLabel(/^Password/).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/secumails\/inbox/);
}

async function passphraseLifecycle(page: Page) {
  const recording = recordRequests(page);
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
  const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to unlock your keys' });
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

// ---- the real server's API, from Node (as tests/integration/core-helpers.ts does) ----

const apiSignIn = (account: Account) => signInByApi(server, account);
const api = (session: ApiSession, method: string, path: string, body?: unknown, headers?: Record<string, string>) => apiCall(server, session, method, path, body, headers);

let userCount = 0;
/** A new user (default roles) created by the administrator through the admin API. */
async function createUser(name: { firstName: string; lastName: string }): Promise<CreatedUser> {
  const admin = await apiSignIn(server.admin);
  userCount += 1;
  const email = `${name.firstName.toLowerCase()}.${userCount}.${Date.now().toString(36)}@example.test`;
  const password = 'Good-Passw0rd-e2e';
  const response = await api(admin, 'POST', '/admin/users', { email, password, ...name });
  expect(response.status, await response.clone().text()).toBe(201);
  const { user } = CreateUserResponseSchema.parse(await response.json());
  await proveAddress(server, email, password);
  return { email, password, uuid: user.uuid };
}

async function ownSecuPass(account: Account): Promise<OwnSecuPassResponse> {
  const response = await api(await apiSignIn(account), 'GET', SECUPASS_PATHS.own);
  expect(response.status).toBe(200);
  return OwnSecuPassResponseSchema.parse(await response.json());
}

/** A real v3 SecuPass, made in Node with shared/crypto and posted as that user (one Argon2id run). */
async function giveRealSecuPass(user: CreatedUser, passphrase: string): Promise<void> {
  const { blob, keys } = await createCryptoService().setupSecuPass({ userId: user.uuid, passphrase });
  const publicKeys = [keys.encryption, keys.signing].map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey }));
  const response = await api(await apiSignIn(user), 'POST', SECUPASS_PATHS.own, { blob, publicKeys });
  expect(response.status, await response.clone().text()).toBe(201);
}

const byKeyId = (a: Pick<PublicKey, 'keyId'>, b: Pick<PublicKey, 'keyId'>) => a.keyId.localeCompare(b.keyId);

const LIFECYCLE = 'set, see the fingerprint, change, lock by sign-out and unlock: the passphrase never leaves the browser';

test(LIFECYCLE, async ({ page }) => {
  test.setTimeout(120_000);
  await passphraseLifecycle(page);
});

test('without the passphrase policy the form says so and cannot be submitted (policy call fails on the network)', async ({ page }) => {
  const user = await createUser({ firstName: 'Pia', lastName: 'Policy' });
  // Failure injection, not a fake server: the real GET /secupass/policy is cut off on the network
  // (route.abort), as when the server is unreachable; every other call reaches the real server.
  await page.route(`**${API_BASE}${SECUPASS_PATHS.policy}`, (route) => (route.request().method() === 'GET' ? route.abort('failed') : route.continue()));
  await signIn(page, { account: user });
  await page.goto(`${server.url}/auth/set-secupass`);
  await expect(page.getByText('The passphrase policy could not be loaded', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set passphrase' })).toBeDisabled();
});

test('an administrator reset leads the user to set a new passphrase', async ({ page }) => {
  const user = await createUser({ firstName: 'Rita', lastName: 'Reset' });
  await giveRealSecuPass(user, FIRST);
  expect((await ownSecuPass(user)).state).toBe('active');
  const reset = await api(await apiSignIn(server.admin), 'POST', SECUPASS_PATHS.adminReset(user.uuid));
  expect(reset.status).toBe(204);

  await signIn(page, { account: user });
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

test('passphrase reset needs a confirmation naming the consequences, then resets, tells the outcome and mails the user', async ({ page }) => {
  const user = await createUser({ firstName: 'Jane', lastName: 'Doe' });
  await giveRealSecuPass(user, FIRST);
  const resetMail = (mail: { subject: string }) => mail.subject === 'Kuvert: your SecuPass was reset';
  const isResetMailToUser = (mail: Parameters<ReturnType<typeof addressedTo>>[0]) => addressedTo(user.email)(mail) && resetMail(mail);

  await signIn(page);
  await page.goto(`${server.url}/admin/users`);
  await page.getByLabel('Search users').fill(user.email);
  await expect(page.getByRole('table', { name: 'Users' }).getByRole('cell', { name: user.email })).toBeVisible();
  // The row's actions are a menu (issue 17): open it, then the item.
  const actions = page.getByRole('button', { name: 'Actions for Jane Doe' });
  const resetItem = page.getByRole('menuitem', { name: 'Reset passphrase' });
  await actions.click();
  await expect(resetItem).toBeEnabled();
  await resetItem.click();
  const dialog = page.getByRole('alertdialog', { name: 'Reset the passphrase of Jane Doe?' });
  await expect(dialog.getByText('can no longer open end-to-end encrypted deliveries and rooms', { exact: false })).toBeVisible();
  await expect(dialog.getByText('The user is told by email.')).toBeVisible();
  await expect(dialog.getByText('This cannot be undone.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  // Cancel changed nothing on the server.
  expect((await ownSecuPass(user)).state).toBe('active');
  expect((await readMailbox(server.mailboxDir)).filter(isResetMailToUser)).toEqual([]);

  await actions.click();
  await resetItem.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reset passphrase' }).click();
  // Fluent's toaster also announces the text in a live region, hence first().
  await expect(page.getByText('The passphrase of Jane Doe was reset.').first()).toBeVisible();
  // The list is reloaded: nothing left to reset.
  await actions.click();
  await expect(resetItem).toBeDisabled();
  await page.keyboard.press('Escape');
  // The real effect: no blob, no live keys, and the user was told by mail.
  const after = await ownSecuPass(user);
  expect(after).toMatchObject({ state: 'reset', blob: null, publicKeys: [] });
  const mail = await waitForMailboxMail(server.mailboxDir, isResetMailToUser);
  expect(mail.text).toContain(server.url);
});

test('unlocking a v2 blob stores the v3 upgrade with the same public keys (kat.json v2 vector)', async ({ page }) => {
  test.setTimeout(120_000);
  const kat = JSON.parse(readFileSync(new URL('../fixtures/crypto/kat.json', import.meta.url), 'utf8')) as {
    secupassV2: { userId: string; passphrase: string; blob: SetSecuPassBody['blob']; encryptionPublicKey: string; signingPublicKey: string };
  };
  const vector = kat.secupassV2;
  const publicKeys = vector.blob.keys.map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey }));
  expect(publicKeys.map((key) => key.publicKey).sort()).toEqual([vector.encryptionPublicKey, vector.signingPublicKey].sort());

  // The blob is bound to its user id, and there is no API to store a v2 blob (on purpose): give a
  // real user the vector's uuid and seed the rows the server would hold for a v2 user.
  const created = await createUser({ firstName: 'Val', lastName: 'Legacy' });
  const db = server.app.db;
  const { id: userId } = await db.selectFrom('users').select('id').where('uuid', '=', created.uuid).executeTakeFirstOrThrow();
  await db.updateTable('users').set({ uuid: vector.userId }).where('id', '=', userId).execute();
  const now = Date.now();
  await db.insertInto('secupass').values({ user_id: userId, state: 'active', version: 2, blob: JSON.stringify(vector.blob), updated_at: now }).execute();
  await db
    .insertInto('public_keys')
    .values(publicKeys.map((key) => ({ user_id: userId, key_id: key.keyId, usage: key.usage, spki: key.publicKey, fingerprint: fingerprintOf(key.publicKey), created_at: now })))
    .execute();
  const user: CreatedUser = { ...created, uuid: vector.userId };
  const before = await ownSecuPass(user);
  expect(before).toMatchObject({ state: 'active', version: 2 });

  await signIn(page, { account: user });
  await page.goto(`${server.url}/settings`);
  const section = page.getByRole('region', { name: 'SecuPass (end-to-end encryption)' });
  await expect(section.getByText('Your keys are locked.')).toBeVisible();
  await section.getByRole('button', { name: 'Unlock keys' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to unlock your keys' });
  await dialog.getByLabel(/^Passphrase/).fill(vector.passphrase);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(section.getByText('Your keys are unlocked for this session.')).toBeVisible();

  // The server now holds the v3 upgrade of the same key pairs.
  const after = await ownSecuPass(user);
  expect(after.state).toBe('active');
  expect(after.version).toBe(3);
  expect(after.blob?.version).toBe(3);
  expect(after.blob?.kdf.name).toBe('argon2id');
  expect([...after.publicKeys].sort(byKeyId)).toEqual([...publicKeys].sort(byKeyId));
  expect((after.blob?.keys ?? []).map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey })).sort(byKeyId)).toEqual([...publicKeys].sort(byKeyId));
});

test('the passphrase screens, the settings section and the user administration pass axe', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const user = await createUser({ firstName: 'Axel', lastName: 'Access' });
  // tabster's focus sentinels are a documented Fluent false positive (web/README).
  const axe = (on: Page) => axeBuilder(on).disableRules(['aria-hidden-focus']).analyze();

  // The user's own screens, against their real (empty, then set) SecuPass.
  await signIn(page, { account: user });
  await page.goto(`${server.url}/auth/set-secupass`);
  await page.getByLabel(/^Passphrase/).fill('violet-Harbor');
  await expect(page.getByText(/^Strength: /)).toBeVisible();
  expect((await axe(page)).violations).toEqual([]);
  await page.getByLabel(/^Passphrase/).fill(FIRST);
  await page.getByLabel(/^Confirm passphrase/).fill(FIRST);
  await page.getByRole('button', { name: 'Set passphrase' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Passphrase set' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Go to account settings' }).click();
  await expect(page.getByTestId('secupass-fingerprint')).toBeVisible();
  expect((await axe(page)).violations).toEqual([]);
  await page.getByRole('button', { name: 'Lock keys' }).click();
  await page.getByRole('button', { name: 'Unlock keys' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect((await axe(page)).violations).toEqual([]);
  await page.keyboard.press('Escape');
  await page.goto(`${server.url}/auth/change-secupass`);
  await expect(page.getByLabel(/^Current passphrase/)).toBeVisible();
  expect((await axe(page)).violations).toEqual([]);

  // The administrator's list and reset dialog, with that real user in it (cancelled: nothing is reset).
  const context = await browser.newContext();
  try {
    const adminPage = await context.newPage();
    await signIn(adminPage);
    await adminPage.goto(`${server.url}/admin/users`);
    await adminPage.getByLabel('Search users').fill(user.email);
    await expect(adminPage.getByRole('cell', { name: user.email })).toBeVisible();
    expect((await axe(adminPage)).violations).toEqual([]);
    await adminPage.getByRole('button', { name: 'Actions for Axel Access' }).click();
    await adminPage.getByRole('menuitem', { name: 'Reset passphrase' }).click();
    await expect(adminPage.getByRole('alertdialog')).toBeVisible();
    expect((await axe(adminPage)).violations).toEqual([]);
    await adminPage.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  } finally {
    await context.close();
  }
});
