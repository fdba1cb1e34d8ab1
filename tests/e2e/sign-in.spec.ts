// Sign in, sign out and deep links against the built app and a real server.
import { en, expect, expectInbox, signIn, submitLogin, test, serverPerFile } from './fixtures';

const ctx = serverPerFile();

test('the administrator signs in with email and password, lands on the inbox; sign out ends the session', async ({ page }) => {
  const { server } = ctx;
  await page.goto(server.url);
  // Signed out, the root sends the browser to the login page with the target kept.
  await expect(page).toHaveURL(`${server.url}/auth/login?continue=${encodeURIComponent('/secumails/inbox')}`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  await submitLogin(page, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await expect(page.getByText(en.shell.inbox.emptyTitle)).toBeVisible();

  await page.getByRole('button', { name: /^User menu of / }).click();
  await page.getByRole('menuitem', { name: en.shell.userMenu.logout }).click();
  await expect(page).toHaveURL(new RegExp(`^${server.url}/auth/login`));
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();

  // The session is gone on the server: a reload stays on the login page, the API refuses.
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`^${server.url}/auth/login`));
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  const user = await page.request.get(`${server.url}/api/2/user`);
  expect(user.status()).toBe(401);
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
