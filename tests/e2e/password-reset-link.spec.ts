// The mailed reset link in the browser: the token in the fragment (issue 28 §1), the page checks it
// with a POST (never in a path or query, issue 12 §1), sets the new password, and a used link is
// refused; a link in the older `?token=` form still works and is moved into the fragment. Real
// server, real Chromium.
import { addressedTo, extractLink, linkToken, waitForMailboxMail } from '@tests/support/mailbox';
import type { Page } from '@playwright/test';
import { createUser, en, expect, expectInbox, serverPerFile, signIn, test } from './fixtures';

const ctx = serverPerFile();

/** The mailed token of a fresh reset request for `email`. */
async function mailedResetLink(email: string): Promise<{ link: URL; token: string }> {
  const { server } = ctx;
  const request = await fetch(`${server.url}/api/2/auth/password-reset/request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  expect(request.status).toBe(204);
  const link = extractLink(await waitForMailboxMail(server.mailboxDir, addressedTo(email)), '/auth/reset-password');
  return { link, token: linkToken(link) };
}

/** Every request of the page whose path or query holds `token` (a fragment is never sent). */
function requestsCarrying(page: Page, token: string): string[] {
  const carried: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (`${url.pathname}${url.search}`.includes(token)) carried.push(`${r.method()} ${url.pathname}`);
  });
  return carried;
}

test('the reset link checks its token by POST, sets the new password, and works once', async ({ page }) => {
  const { server } = ctx;
  const rita = await createUser(server, { username: 'rita' });
  const { link, token } = await mailedResetLink(rita.email);

  const paths: string[] = [];
  page.on('request', (r) => paths.push(`${r.method()} ${new URL(r.url()).pathname}`));
  const carried = requestsCarrying(page, token);
  await page.goto(link.href);
  await expect(page.getByRole('heading', { name: en.auth.resetPassword.title })).toBeVisible();
  expect(paths).toContain('POST /api/2/auth/password-reset/check');

  const password = 'Rita-New-Passw0rd';
  await page.getByLabel(/^New password/).fill(password);
  await page.getByLabel(/^Confirm new password/).fill(password);
  await page.getByRole('button', { name: en.auth.resetPassword.submit }).click();
  await expect(page.getByRole('heading', { name: en.auth.resetPassword.successTitle })).toBeVisible();

  await page.goto(link.href);
  await expect(page.getByText(en.auth.resetPassword.invalidLink)).toBeVisible();
  expect(carried).toEqual([]);
  await signIn(page, server, { username: rita.username, password });
  await expectInbox(page, server);
});

test('a reset link in the older `?token=` form still works: the page moves the token into the fragment first', async ({ page }) => {
  const { server } = ctx;
  const otto = await createUser(server, { username: 'otto' });
  const { token } = await mailedResetLink(otto.email);
  const carried = requestsCarrying(page, token);
  await page.goto(`${server.url}/auth/reset-password?token=${token}`);
  await expect(page.getByRole('heading', { name: en.auth.resetPassword.title })).toBeVisible();
  // The same history entry, the token now where no server sees it; only that first load sent it.
  await expect(page).toHaveURL(`${server.url}/auth/reset-password#token=${token}`);
  const password = 'Otto-New-Passw0rd';
  await page.getByLabel(/^New password/).fill(password);
  await page.getByLabel(/^Confirm new password/).fill(password);
  await page.getByRole('button', { name: en.auth.resetPassword.submit }).click();
  await expect(page.getByRole('heading', { name: en.auth.resetPassword.successTitle })).toBeVisible();
  expect(carried).toEqual(['GET /auth/reset-password']);
  await signIn(page, server, { username: otto.username, password });
  await expectInbox(page, server);
});
