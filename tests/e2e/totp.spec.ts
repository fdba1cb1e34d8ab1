// Two-factor authentication with an authenticator app: registration on first sign-in, then a
// code on every sign-in. Codes come from the manual key, computed like an app does (otpauth).
import { createUser, en, expect, expectInbox, serverPerFile, signIn, submitLogin, test, totpCodes } from './fixtures';

const ctx = serverPerFile();

test('a user who must use an authenticator app registers it (QR code + manual key), then signs in with a fresh code', async ({ page }) => {
  const { server } = ctx;
  const dave = await createUser(server, { username: 'dave', totpRequired: true });
  await signIn(page, server, dave);

  await expect(page).toHaveURL(`${server.url}/auth/totp-registration`);
  await expect(page.getByRole('heading', { name: en.auth.totpRegistration.title })).toBeVisible();
  const qr = page.getByRole('img', { name: en.auth.totpRegistration.qrAlt });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  await expect(page.getByText(en.auth.totpRegistration.manualKey)).toBeVisible();
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  const codes = totpCodes(secret);

  await page.getByLabel(en.auth.totp.code).fill(codes.next());
  await page.getByRole('button', { name: en.auth.totpRegistration.submit }).click();
  await expectInbox(page, server);

  // Second sign-in (session gone): the code screen, a wrong code is refused, a fresh one works.
  await page.context().clearCookies();
  await signIn(page, server, dave);
  await expect(page).toHaveURL(`${server.url}/auth/totp-authentication`);
  await expect(page.getByRole('heading', { name: en.auth.totp.title })).toBeVisible();
  await expect(page.getByText(en.auth.totp.intro.replace('{{count}}', '6'))).toBeVisible();

  // Another time step's code (the server accepts one step of drift; the registration code is used up).
  const fresh = codes.next();
  const wrong = String((Number(fresh) + 500_000) % 1_000_000).padStart(6, '0');
  await page.getByLabel(en.auth.totp.code).fill(wrong);
  await page.getByRole('button', { name: en.auth.totp.submit, exact: true }).click();
  await expect(page.getByText(en.auth.errors.invalidAuthCode)).toBeVisible();
  await expect(page).toHaveURL(`${server.url}/auth/totp-authentication`);

  await page.getByLabel(en.auth.totp.code).fill(fresh);
  await page.getByRole('button', { name: en.auth.totp.submit, exact: true }).click();
  await expectInbox(page, server);
});

test('a deep link survives the two-factor screens: after registration the browser is at the linked page', async ({ page }) => {
  const { server } = ctx;
  const erin = await createUser(server, { username: 'erin', totpRequired: true });
  await page.goto(`${server.url}/settings?x=1`);
  await expect(page).toHaveURL(`${server.url}/auth/login?continue=${encodeURIComponent('/settings?x=1')}`);
  await submitLogin(page, erin);
  await expect(page).toHaveURL(`${server.url}/auth/totp-registration`);
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  const codes = totpCodes(secret);
  await page.getByLabel(en.auth.totp.code).fill(codes.next());
  await page.getByRole('button', { name: en.auth.totpRegistration.submit }).click();
  await expect(page).toHaveURL(`${server.url}/settings?x=1`);
  await expect(page.getByRole('heading', { name: en.settings.title, level: 1 })).toBeVisible();

  // Same on the code screen of the next sign-in.
  await page.context().clearCookies();
  await page.goto(`${server.url}/settings?x=2`);
  await submitLogin(page, erin);
  await expect(page).toHaveURL(`${server.url}/auth/totp-authentication`);
  await page.getByLabel(en.auth.totp.code).fill(codes.next());
  await page.getByRole('button', { name: en.auth.totp.submit, exact: true }).click();
  await expect(page).toHaveURL(`${server.url}/settings?x=2`);
  await expect(page.getByRole('heading', { name: en.settings.title, level: 1 })).toBeVisible();

  // Signed out in the same page (no reload): an escalation screen goes to the login page, not to
  // the target of the finished sign-in.
  await page.getByRole('button', { name: /^User menu of / }).click();
  await page.getByRole('menuitem', { name: en.shell.userMenu.logout }).click();
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  await page.evaluate(() => {
    window.history.pushState({}, '', '/auth/totp-authentication');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(`${server.url}/auth/login`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
});
