// The add-in around the send screen: the administrator downloads the manifest for this server,
// and the sign-in steps the pane cannot do itself go through the web sign-in in an Office
// dialog (dialog.html trades the web session for a bearer token and hands it to the pane).
import { readFile } from 'node:fs/promises';
import argon2 from 'argon2';
import { API_BASE } from '@shared/contract/constants';
import { createUser as createUserInRepository } from '@tests/integration/escalation-helpers';
import { expect, expectInbox, expectNoSeriousA11yViolations, locale, serverPerFile, signIn, submitLogin, test } from '../e2e/fixtures';
import { OFFICE_JS_STAND_IN, OFFICE_JS_URL, type OfficeCall } from './office-stand-in';

const addin = locale<typeof import('@locales/en/addin.json')>('en', 'addin');
const holder = serverPerFile('file');
const lightHash = (password: string) => argon2.hash(password, { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 });
const box = { mode: 'compose', displayLanguage: 'en-US', to: ['x@partner.test'], cc: [], bcc: [], subject: 's', body: 'b', attachments: [] };

test('the administration page offers the manifest for this server', async ({ page }) => {
  const { server } = holder;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await page.goto(`${server.url}/admin`);
  const link = page.getByRole('link', { name: addin.admin.download });
  await expect(link).toHaveAttribute('href', '/addin/manifest.xml');
  await expectNoSeriousA11yViolations(page, 'administration with the add-in card');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const xml = await readFile((await download.path())!, 'utf8');
  expect(xml).toContain(`<SourceLocation DefaultValue="${server.url}/addin/taskpane.html"/>`);
  expect(xml).toContain(`<AppDomain>${server.url}</AppDomain>`);
});

test('the sign-in dialog goes through the web sign-in and hands a bearer token to the pane', async ({ page }) => {
  const { server } = holder;
  const user = await createUserInRepository(server, { username: 'dialoguser', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_OUTLOOK'], hash: lightHash });
  await page.addInitScript((cfg) => {
    (window as unknown as { __kuvertMailbox: unknown }).__kuvertMailbox = cfg;
  }, box);
  await page.route(OFFICE_JS_URL, (route) => route.fulfill({ contentType: 'text/javascript', body: OFFICE_JS_STAND_IN }));
  await page.goto(`${server.url}/addin/dialog.html`);
  // Not signed in on the web: the web sign-in, which comes back to the dialog page.
  await expect(page).toHaveURL(/\/auth\/login\?continue=%2Faddin%2Fdialog\.html$/);
  await submitLogin(page, user);
  await expect(page).toHaveURL(`${server.url}/addin/dialog.html`);
  await expect
    .poll(async () => (await page.evaluate(() => (window as unknown as { __officeCalls?: OfficeCall[] }).__officeCalls ?? [])).find((c) => c.name === 'messageParent'))
    .toBeTruthy();
  const calls = await page.evaluate(() => (window as unknown as { __officeCalls: OfficeCall[] }).__officeCalls);
  const message = JSON.parse(calls.find((c) => c.name === 'messageParent')!.args[0] as string) as { token: string };
  const me = await fetch(`${server.url}${API_BASE}/user`, { headers: { authorization: `Bearer ${message.token}` } });
  expect(me.status).toBe(200);
});

test('a sign-in that needs the captcha offers the web sign-in in an Office dialog', async ({ page }) => {
  const { server } = holder;
  const user = await createUserInRepository(server, { username: 'captchauser', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_OUTLOOK'], hash: lightHash });
  await page.addInitScript((cfg) => {
    (window as unknown as { __kuvertMailbox: unknown }).__kuvertMailbox = cfg;
  }, box);
  await page.route(OFFICE_JS_URL, (route) => route.fulfill({ contentType: 'text/javascript', body: OFFICE_JS_STAND_IN }));
  await page.goto(`${server.url}/addin/taskpane.html`);
  await page.getByLabel(addin.signIn.login).fill(user.username);
  // Three failures turn the captcha on (DESIGN §9); the pane cannot show one.
  for (let i = 0; i < 3; i++) {
    await page.getByLabel(addin.signIn.password).fill(`wrong-${i}`);
    await page.getByRole('button', { name: addin.signIn.submit }).click();
    await expect(page.getByRole('alert')).toHaveText(addin.signIn.wrongCredentials);
  }
  await page.getByLabel(addin.signIn.password).fill(user.password);
  await page.getByRole('button', { name: addin.signIn.submit }).click();
  await expect(page.getByRole('alert')).toHaveText(addin.signIn.continueInWeb);
  await page.getByRole('button', { name: addin.signIn.openWeb }).click();
  await expect
    .poll(async () => (await page.evaluate(() => (window as unknown as { __officeCalls: OfficeCall[] }).__officeCalls)).filter((c) => c.name === 'displayDialogAsync').map((c) => c.args[0]))
    .toEqual([`${server.url}/addin/dialog.html`]);
  await server.app.db.deleteFrom('rate_limit_events').execute();
});

test('a throttled sign-in (too many failures for the account) is told to wait in the pane', async ({ page }) => {
  const { server } = holder;
  const user = await createUserInRepository(server, { username: 'throttleduser', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_OUTLOOK'], hash: lightHash });
  // The account's delay is stored in the database; set it ahead instead of failing five times and racing the clock.
  await server.app.db
    .insertInto('login_throttles')
    .values({ account: `login:${user.username}`, failures: 5, last_failure_at: Date.now(), next_allowed_at: Date.now() + 10 * 60_000, notified_at: null })
    .execute();
  await page.addInitScript((cfg) => {
    (window as unknown as { __kuvertMailbox: unknown }).__kuvertMailbox = cfg;
  }, box);
  await page.route(OFFICE_JS_URL, (route) => route.fulfill({ contentType: 'text/javascript', body: OFFICE_JS_STAND_IN }));
  await page.goto(`${server.url}/addin/taskpane.html`);
  await page.getByLabel(addin.signIn.login).fill(user.username);
  await page.getByLabel(addin.signIn.password).fill(user.password);
  await page.getByRole('button', { name: addin.signIn.submit }).click();
  await expect(page.getByRole('alert')).toHaveText(addin.signIn.tooManyTries);
  // Once the delay has passed, the same sign-in works.
  await server.app.db.updateTable('login_throttles').set({ next_allowed_at: 0 }).where('account', '=', `login:${user.username}`).execute();
  await page.getByRole('button', { name: addin.signIn.submit }).click();
  await expect(page.getByRole('heading', { name: addin.send.title })).toBeVisible();
  await server.app.db.deleteFrom('login_throttles').execute();
});
