// The mailed reset link in the browser: the page checks the token with a POST (never in a path,
// issue 12 §1), sets the new password, and a used link is refused. Real server, real Chromium.
import { addressedTo, extractLink, waitForMailboxMail } from '@tests/support/mailbox';
import { createUser, en, expect, expectInbox, serverPerFile, signIn, test } from './fixtures';

const ctx = serverPerFile();

test('the reset link checks its token by POST, sets the new password, and works once', async ({ page }) => {
  const { server } = ctx;
  const rita = await createUser(server, { username: 'rita' });
  const request = await fetch(`${server.url}/api/2/auth/password-reset/request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: rita.email }) });
  expect(request.status).toBe(204);
  const link = extractLink(await waitForMailboxMail(server.mailboxDir, addressedTo(rita.email)), '/auth/reset-password');
  const token = link.searchParams.get('token')!;

  const paths: string[] = [];
  page.on('request', (r) => paths.push(`${r.method()} ${new URL(r.url()).pathname}`));
  await page.goto(link.href);
  await expect(page.getByRole('heading', { name: en.auth.resetPassword.title })).toBeVisible();
  expect(paths).toContain('POST /api/2/auth/password-reset/check');
  expect(paths.filter((p) => p.startsWith('GET /api/') && p.includes(token))).toEqual([]);

  const password = 'Rita-New-Passw0rd';
  await page.getByLabel(/^New password/).fill(password);
  await page.getByLabel(/^Confirm new password/).fill(password);
  await page.getByRole('button', { name: en.auth.resetPassword.submit }).click();
  await expect(page.getByRole('heading', { name: en.auth.resetPassword.successTitle })).toBeVisible();

  await page.goto(link.href);
  await expect(page.getByText(en.auth.resetPassword.invalidLink)).toBeVisible();
  await signIn(page, server, { username: rita.username, password });
  await expectInbox(page, server);
});
