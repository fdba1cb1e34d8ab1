// Sign in, sign out and deep links against the built app and a real server.
import { SESSION_COOKIE } from '@server/core/access';
import { en, expect, expectInbox, signIn, submitLogin, test, serverPerFile } from './fixtures';

const ctx = serverPerFile();

test('the administrator signs in with email and password, lands on the inbox; sign out ends the session', async ({ page }) => {
  const { server } = ctx;
  await page.goto(server.url);
  // Signed out, the root sends the browser to the login page with the target kept.
  await expect(page).toHaveURL(`${server.url}/auth/login?continue=${encodeURIComponent('/secumails/inbox')}`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  // Page title: the web UI title, then the page's (SPEC §2).
  await expect(page).toHaveTitle(`Kuvert - ${en.auth.login.title}`);
  await submitLogin(page, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await expect(page.getByText(en.deliveries.list.inboxEmptyTitle)).toBeVisible();
  await expect(page).toHaveTitle(`Kuvert - ${en.shell.inbox.title}`);
  // Signed in across a reload.
  await page.reload();
  await expectInbox(page, server);
  // The session lives in an HttpOnly cookie the server accepts.
  const session = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);
  expect(session?.httpOnly).toBe(true);
  const cookie = `${SESSION_COOKIE}=${session!.value}`;
  expect((await fetch(`${server.url}/api/2/user`, { headers: { cookie } })).status).toBe(200);

  await page.getByRole('button', { name: /^User menu of / }).click();
  await page.getByRole('menuitem', { name: en.shell.userMenu.settings }).click();
  await expect(page).toHaveURL(`${server.url}/settings`);
  await expect(page).toHaveTitle(`Kuvert - ${en.settings.title}`);

  await page.getByRole('button', { name: /^User menu of / }).click();
  await page.getByRole('menuitem', { name: en.shell.userMenu.logout }).click();
  await expect(page).toHaveURL(new RegExp(`^${server.url}/auth/login`));
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  // Back to the signed-in pages in the history: sign in again.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`^${server.url}/auth/login`));
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();

  // The session is gone on the server: a reload stays on the login page, the API refuses.
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`^${server.url}/auth/login`));
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  expect((await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  // The old cookie, replayed, is refused: the server ended the session.
  expect((await fetch(`${server.url}/api/2/user`, { headers: { cookie } })).status).toBe(401);
  // Going to the inbox by hand leads back to sign in.
  await page.goto(`${server.url}/secumails/inbox`);
  await expect(page).toHaveURL(`${server.url}/auth/login?continue=${encodeURIComponent('/secumails/inbox')}`);
});

test('a deep link while signed out keeps the full path in continue and ends there after sign-in', async ({ page }) => {
  const { server } = ctx;
  await page.goto(`${server.url}/settings?x=1`);
  await expect(page).toHaveURL(`${server.url}/auth/login?continue=${encodeURIComponent('/settings?x=1')}`);
  expect(new URL(page.url()).searchParams.get('continue')).toBe('/settings?x=1');
  await submitLogin(page, { username: server.admin.email, password: server.admin.password });
  await expect(page).toHaveURL(`${server.url}/settings?x=1`);
  await expect(page.getByRole('heading', { name: en.settings.title, level: 1 })).toBeVisible();
});

test('a signed-in user opening the login page goes on to the inbox', async ({ page }) => {
  const { server } = ctx;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await page.goto(`${server.url}/auth/login`);
  await expectInbox(page, server);
});

test('an escalation screen without a running sign-in (reload) starts over at the login page', async ({ page }) => {
  const { server } = ctx;
  for (const screen of ['captcha', 'account-verification', 'totp-authentication', 'totp-registration', 'login-disclaimer']) {
    await page.goto(`${server.url}/auth/${screen}`);
    await expect(page, screen).toHaveURL(`${server.url}/auth/login`);
    await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  }
});

test('keyboard only: the login form has focus, Enter signs in; the skip link moves focus to the main content', async ({ page }) => {
  const { server } = ctx;
  await page.goto(`${server.url}/auth/login`);
  await expect(page.getByLabel(en.auth.login.username)).toBeFocused();
  await page.keyboard.type(server.admin.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(server.admin.password);
  await page.keyboard.press('Enter');
  await expectInbox(page, server);

  await page.reload();
  await expectInbox(page, server);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: en.shell.skipToContent });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main-content')).toBeFocused();
});
