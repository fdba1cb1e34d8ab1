// axe (WCAG rules) on every sign-in screen, the inbox and the settings: no violation of impact
// serious or critical. One server, screens visited in an order that keeps the escalations apart
// (the captcha comes last: its failures count for the whole address).
import { SETTING_KEYS } from '@shared/contract/settings';
import {
  authenticatorFor,
  createUser,
  en,
  expect,
  expectInbox,
  expectNoSeriousA11yViolations,
  serverPerFile,
  setSettingsAsAdmin,
  signIn,
  submitLogin,
  test,
} from './fixtures';

const ctx = serverPerFile();
test.describe.configure({ mode: 'serial' });

test('login and request-reset-password', async ({ page }) => {
  const { server } = ctx;
  await page.goto(`${server.url}/auth/login`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'login');
  // With the validation messages showing.
  await page.getByRole('button', { name: en.auth.login.submit, exact: true }).click();
  await expect(page.getByLabel(en.auth.login.username)).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousA11yViolations(page, 'login with validation errors');

  await page.getByRole('link', { name: en.auth.login.forgotPassword }).click();
  await expect(page).toHaveURL(`${server.url}/auth/request-reset-password`);
  await expect(page.getByRole('heading', { name: en.auth.requestReset.title })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'request-reset-password');
});

test('inbox and settings', async ({ page }) => {
  const { server } = ctx;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await expect(page.getByText(en.shell.inbox.emptyTitle)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'inbox');

  await page.getByRole('button', { name: /^User menu of / }).click();
  await page.getByRole('menuitem', { name: en.shell.userMenu.settings }).click();
  await expect(page).toHaveURL(`${server.url}/settings`);
  await expect(page.getByRole('heading', { name: en.settings.title, level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'settings');
});

test('account-verification', async ({ page }) => {
  const { server } = ctx;
  const user = await createUser(server, { username: 'unverified', emailVerified: false });
  await signIn(page, server, user);
  await expect(page).toHaveURL(`${server.url}/auth/account-verification`);
  await expect(page.getByRole('heading', { name: en.auth.verification.title })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'account-verification');
});

test('totp-registration and totp-authentication', async ({ page }) => {
  const { server } = ctx;
  const user = await createUser(server, { username: 'twofactor', totpRequired: true });
  await signIn(page, server, user);
  await expect(page).toHaveURL(`${server.url}/auth/totp-registration`);
  await expect(page.getByRole('img', { name: en.auth.totpRegistration.qrAlt })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'totp-registration');

  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  const app = authenticatorFor(secret);
  await page.getByLabel(en.auth.totp.code).fill(app.generate());
  await page.getByRole('button', { name: en.auth.totpRegistration.submit }).click();
  await expectInbox(page, server);

  await page.context().clearCookies();
  await signIn(page, server, user);
  await expect(page).toHaveURL(`${server.url}/auth/totp-authentication`);
  await expect(page.getByRole('heading', { name: en.auth.totp.title })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'totp-authentication');
});

test('login-disclaimer', async ({ page }) => {
  const { server } = ctx;
  await setSettingsAsAdmin(server, { [SETTING_KEYS.loginDisclaimerEnabled]: true, [`${SETTING_KEYS.loginDisclaimerText}.en`]: 'Business use only.' });
  try {
    const user = await createUser(server, { username: 'disclaimer' });
    await signIn(page, server, user);
    await expect(page).toHaveURL(`${server.url}/auth/login-disclaimer`);
    await expect(page.getByTestId('login-disclaimer-text')).toHaveText('Business use only.');
    await expectNoSeriousA11yViolations(page, 'login-disclaimer');
  } finally {
    await setSettingsAsAdmin(server, { [SETTING_KEYS.loginDisclaimerEnabled]: false });
  }
});

test('captcha', async ({ page }) => {
  const { server } = ctx;
  const user = await createUser(server, { username: 'captcha' });
  await signIn(page, server, { ...user, password: 'wrong-1' });
  for (const password of ['wrong-2', 'wrong-3']) {
    await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
    await submitLogin(page, { ...user, password });
  }
  await expect(page.getByText(en.auth.errors.invalidCredentials)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'login with the invalid-credentials message');
  await submitLogin(page, user);
  await expect(page).toHaveURL(`${server.url}/auth/captcha`);
  await expect(page.getByRole('img', { name: en.auth.captcha.imageAlt })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'captcha');
});
