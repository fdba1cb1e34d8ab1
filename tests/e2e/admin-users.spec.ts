// Administration › Users in Chromium against the real server (issue 17 §1): an administrator
// creates a user with ROLE_OUTLOOK (invitation mail → password → web and add-in sign-in), edits
// roles, disables (code 8) and enables, deletes after a confirmation, resets an authentication
// app; the sign-up page is "not enabled" until System settings enable it, then works by keyboard.
import { ADDIN_CLIENT_HEADER, ADDIN_CLIENT_VALUE } from '@shared/contract/auth';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import { apiCall, apiSignIn, en, expect, expectNoSeriousA11yViolations, locale, serverPerFile, setSettingsAsAdmin, signIn, test, type ApiSession } from './fixtures';
import { proveAddress } from '@tests/support/prove-address';

const adminText = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const PASSWORD = 'Good-Passw0rd-e2e';
const holder = serverPerFile('file');
let admin: ApiSession;

test.describe.configure({ mode: 'serial' });

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
/** POST /api/2/auth as the web (or the add-in) would: the status and the authorisation codes. */
async function signInStatus(login: string, password: string, addin = false): Promise<{ status: number; codes: number[] }> {
  const response = await fetch(`${holder.server.url}/api/2/auth`, {
    method: 'POST',
    headers: { authorization: basic(login, password), 'content-type': 'application/json', ...(addin ? { [ADDIN_CLIENT_HEADER]: ADDIN_CLIENT_VALUE } : {}) },
  });
  const header = response.headers.get('authorization-errors');
  return { status: response.status, codes: header ? (JSON.parse(header) as Array<{ authorizationError: number }>).map((e) => e.authorizationError) : [] };
}

async function adminUser(email: string): Promise<{ uuid: string; roleNames: string[]; disabled: boolean; totpEnabled: boolean } | undefined> {
  const response = await apiCall(holder.server, admin, 'GET', `/admin/users?q=${encodeURIComponent(email)}`);
  const body = (await response.json()) as { users: Array<{ uuid: string; email: string; roleNames: string[]; disabled: boolean; totpEnabled: boolean }> };
  return body.users.find((u) => u.email === email);
}

async function member(email: string, firstName: string): Promise<void> {
  const response = await apiCall(holder.server, admin, 'POST', '/admin/users', { email, password: PASSWORD, firstName, lastName: 'Test', language: 'en' });
  expect(response.status, await response.clone().text()).toBe(201);
  await proveAddress(holder.server, email, PASSWORD);
}

async function openUsersPage(page: import('@playwright/test').Page, search?: string): Promise<void> {
  await signIn(page, holder.server, { username: holder.server.admin.email, password: holder.server.admin.password });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.goto(`${holder.server.url}/admin/users`);
  await expect(page.getByRole('heading', { level: 1, name: adminText.users.title })).toBeVisible();
  if (search) {
    await page.getByLabel(adminText.users.search).fill(search);
    await expect(page.getByRole('table', { name: adminText.users.tableLabel }).getByRole('cell', { name: search })).toBeVisible();
  }
}

const actionsFor = (page: import('@playwright/test').Page, name: string) => page.getByRole('button', { name: adminText.users.actionsFor.replace('{{name}}', name) });
const toast = (page: import('@playwright/test').Page, text: string) => page.getByText(text).first();

test.beforeAll(async () => {
  admin = await apiSignIn(holder.server, holder.server.admin);
});

test('an administrator creates a user with ROLE_OUTLOOK; the invitation sets the password; web and add-in sign-in work', async ({ page }) => {
  await openUsersPage(page);
  await page.getByRole('button', { name: adminText.users.create.action }).click();
  const dialog = page.getByRole('dialog', { name: adminText.users.create.title });
  await dialog.getByRole('textbox', { name: adminText.users.create.email }).fill('olga.outlook@example.test');
  await dialog.getByRole('textbox', { name: adminText.users.form.firstName }).fill('Olga');
  // Every role of SPEC §6 is offered, grouped and explained.
  await expect(dialog.getByRole('group', { name: adminText.roles.groups.datarooms })).toBeVisible();
  await expect(dialog.getByText(adminText.roles.hints.ROLE_OUTLOOK)).toBeVisible();
  await dialog.getByRole('checkbox', { name: adminText.roles.names.ROLE_OUTLOOK, exact: true }).check();
  await expectNoSeriousA11yViolations(page, 'create user dialog');
  await dialog.getByRole('button', { name: adminText.users.create.submit }).click();
  await expect(toast(page, adminText.users.create.done.replace('{{email}}', 'olga.outlook@example.test'))).toBeVisible();
  await expect(dialog).toBeHidden();
  const created = await adminUser('olga.outlook@example.test');
  expect(created?.roleNames).toEqual(expect.arrayContaining(['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_OUTLOOK']));

  // Olga follows the invitation link, chooses a password and signs in without a code.
  const mail = await waitForMailboxMail(holder.server.mailboxDir, addressedTo('olga.outlook@example.test'));
  const link = extractLink(mail, '/auth/reset-password');
  await page.context().clearCookies();
  await page.goto(link.toString());
  // An invitation sets the first password (issue 33 §2): not "Set a new password" / "Password changed".
  await expect(page.getByRole('heading', { level: 1, name: en.auth.resetPassword.firstTitle })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(en.auth.resetPassword.firstTitle));
  await page.getByRole('textbox', { name: en.common.password.new, exact: true }).fill('Olga-Passw0rd-1');
  await page.getByRole('textbox', { name: en.common.password.confirm }).fill('Olga-Passw0rd-1');
  await page.getByRole('button', { name: en.auth.resetPassword.submit }).click();
  await expect(page.getByRole('heading', { name: en.auth.resetPassword.firstSuccessTitle })).toBeVisible();
  await expect(page.getByText(en.auth.resetPassword.firstSuccessText)).toBeVisible();
  expect((await signInStatus('olga.outlook@example.test', 'Olga-Passw0rd-1')).status).toBe(200);
  expect((await signInStatus('olga.outlook@example.test', 'Olga-Passw0rd-1', true)).status).toBe(200);
});

test('two users created one after the other: the toast names the one just created (issue 33 §2)', async ({ page }) => {
  await openUsersPage(page);
  const create = async (email: string) => {
    await page.getByRole('button', { name: adminText.users.create.action }).click();
    const dialog = page.getByRole('dialog', { name: adminText.users.create.title });
    await dialog.getByRole('textbox', { name: adminText.users.create.email }).fill(email);
    await dialog.getByRole('button', { name: adminText.users.create.submit }).click();
    await expect(dialog).toBeHidden();
  };
  const done = (email: string) => page.locator('.fui-ToastTitle').filter({ hasText: adminText.users.create.done.replace('{{email}}', email) });
  await create('tom.first@example.test');
  await expect(done('tom.first@example.test')).toBeVisible();
  await create('tina.second@example.test');
  // At once, not after the first toast's 5 s: the newer text replaced the older one.
  await expect(done('tina.second@example.test')).toBeVisible({ timeout: 2_000 });
  await expect(done('tom.first@example.test')).toHaveCount(0);
});

test('roles are edited in the dialog (ROLE_OUTLOOK granted), with a toast', async ({ page }) => {
  await member('eddie.edit@example.test', 'Eddie');
  expect((await signInStatus('eddie.edit@example.test', PASSWORD, true)).status).toBe(403);
  await openUsersPage(page, 'eddie.edit@example.test');
  await actionsFor(page, 'Eddie Test').click();
  await page.getByRole('menuitem', { name: adminText.users.edit.action }).click();
  const dialog = page.getByRole('dialog', { name: adminText.users.edit.title.replace('{{name}}', 'Eddie Test') });
  await dialog.getByRole('checkbox', { name: adminText.roles.names.ROLE_OUTLOOK, exact: true }).check();
  await dialog.getByRole('button', { name: adminText.users.edit.submit, exact: true }).click();
  await expect(toast(page, adminText.users.edit.done.replace('{{name}}', 'Eddie Test'))).toBeVisible();
  expect((await adminUser('eddie.edit@example.test'))?.roleNames).toContain('ROLE_OUTLOOK');
  expect((await signInStatus('eddie.edit@example.test', PASSWORD, true)).status).toBe(200);
});

test('disable asks first, then the user is refused with code 8; enable lets them in again', async ({ page }) => {
  await member('dana.disable@example.test', 'Dana');
  await openUsersPage(page, 'dana.disable@example.test');
  await actionsFor(page, 'Dana Test').click();
  await page.getByRole('menuitem', { name: adminText.users.disable.action }).click();
  const dialog = page.getByRole('alertdialog', { name: adminText.users.disable.confirmTitle.replace('{{name}}', 'Dana Test') });
  await expect(dialog.getByText(adminText.users.disable.consequenceSessions)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'disable confirmation');
  await dialog.getByRole('button', { name: adminText.users.disable.confirm }).click();
  await expect(toast(page, adminText.users.disable.done.replace('{{name}}', 'Dana Test'))).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'dana.disable@example.test' }).getByText(adminText.users.disabled)).toBeVisible();
  expect(await signInStatus('dana.disable@example.test', PASSWORD)).toEqual({ status: 403, codes: [8] });

  await actionsFor(page, 'Dana Test').click();
  await page.getByRole('menuitem', { name: adminText.users.enable.action }).click();
  await expect(toast(page, adminText.users.enable.done.replace('{{name}}', 'Dana Test'))).toBeVisible();
  expect((await signInStatus('dana.disable@example.test', PASSWORD)).status).toBe(200);
});

test('delete needs a confirmation: cancel keeps the user, confirm removes it', async ({ page }) => {
  await member('dirk.delete@example.test', 'Dirk');
  await openUsersPage(page, 'dirk.delete@example.test');
  const menuItem = page.getByRole('menuitem', { name: adminText.users.delete.action });
  const dialog = page.getByRole('alertdialog', { name: adminText.users.delete.confirmTitle.replace('{{name}}', 'Dirk Test') });
  await actionsFor(page, 'Dirk Test').click();
  await menuItem.click();
  await expect(dialog.getByText(adminText.users.delete.consequenceReceived)).toBeVisible();
  await dialog.getByRole('button', { name: en.common.actions.cancel }).click();
  await expect(dialog).toBeHidden();
  expect(await adminUser('dirk.delete@example.test')).toBeDefined();

  // By keyboard this time: the menu opens with Enter, the item is chosen with Enter.
  await actionsFor(page, 'Dirk Test').focus();
  await page.keyboard.press('Enter');
  await menuItem.focus();
  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: adminText.users.delete.confirm }).click();
  await expect(toast(page, adminText.users.delete.done.replace('{{name}}', 'Dirk Test'))).toBeVisible();
  await expect(page.getByRole('cell', { name: 'dirk.delete@example.test' })).toHaveCount(0);
  expect(await adminUser('dirk.delete@example.test')).toBeUndefined();
  expect((await signInStatus('dirk.delete@example.test', PASSWORD)).status).toBe(401);
});

test('"Reset authentication app" asks first, removes the app and says so', async ({ page }) => {
  await member('tara.totp@example.test', 'Tara');
  const row = (await holder.server.app.users.findByLogin('tara.totp@example.test'))!;
  await holder.server.app.users.update(row.id, { totp_secret: holder.server.app.secretBox.seal(row.id, 'totp_secret', 'JBSWY3DPEHPK3PXP') });
  expect((await adminUser('tara.totp@example.test'))?.totpEnabled).toBe(true);
  await openUsersPage(page, 'tara.totp@example.test');
  await actionsFor(page, 'Tara Test').click();
  await page.getByRole('menuitem', { name: adminText.users.totpReset.action }).click();
  const dialog = page.getByRole('alertdialog', { name: adminText.users.totpReset.confirmTitle.replace('{{name}}', 'Tara Test') });
  await expect(dialog.getByText(adminText.users.totpReset.consequenceIdentity)).toBeVisible();
  await dialog.getByRole('button', { name: adminText.users.totpReset.confirm }).click();
  await expect(toast(page, adminText.users.totpReset.done.replace('{{name}}', 'Tara Test'))).toBeVisible();
  expect((await adminUser('tara.totp@example.test'))?.totpEnabled).toBe(false);
  // Nothing left to reset.
  await actionsFor(page, 'Tara Test').click();
  await expect(page.getByRole('menuitem', { name: adminText.users.totpReset.action })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expectNoSeriousA11yViolations(page, 'users page with actions');
});

test('sign-up: "not enabled" and no link while off; when on, the link and the form work by keyboard', async ({ page }) => {
  await page.goto(`${holder.server.url}/webui/signup`);
  await expect(page).toHaveURL(/\/auth\/signup$/);
  await expect(page.getByText(en.auth.signup.notEnabled)).toBeVisible();
  await page.goto(`${holder.server.url}/auth/login`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  await expect(page.getByRole('link', { name: en.auth.login.signup })).toHaveCount(0);

  await setSettingsAsAdmin(holder.server, { 'kuvert.signup.enabled': true });
  await page.goto(`${holder.server.url}/auth/login`);
  const link = page.getByRole('link', { name: en.auth.login.signup });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: en.auth.signup.title })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'sign-up page');
  // The form in tab order: email, first name, last name, password, confirmation, submit.
  await page.getByLabel(en.auth.signup.email).focus();
  await page.keyboard.type('sam.signup@example.test');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Sam');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Signup');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Sam-Passw0rd-1');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Sam-Passw0rd-1');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: en.auth.signup.doneTitle })).toBeVisible();
  await expect(page.getByText(en.auth.signup.doneText.replace('{{email}}', 'sam.signup@example.test'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'sign-up done');

  // The normal sign-in asks for the mailed code, then lets Sam in.
  expect(await signInStatus('sam.signup@example.test', 'Sam-Passw0rd-1')).toEqual({ status: 401, codes: [6] });
  const account = await holder.server.app.users.findByLogin('sam.signup@example.test');
  expect(account).toMatchObject({ first_name: 'Sam', last_name: 'Signup', email_verified: 0 });
});
