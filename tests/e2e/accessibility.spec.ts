// axe (WCAG rules) on the signed-out screens: login, request-reset-password, account-verification
// and captcha; no violation of impact serious or critical. One server; the captcha comes last
// (its failures count for the whole address). The other screens: accessibility-signed-in.spec.ts.
import {
  createUser,
  en,
  expect,
  expectNoSeriousA11yViolations,
  serverPerFile,
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

test('account-verification', async ({ page }) => {
  const { server } = ctx;
  const user = await createUser(server, { username: 'unverified', emailVerified: false });
  await signIn(page, server, user);
  await expect(page).toHaveURL(`${server.url}/auth/account-verification`);
  await expect(page.getByRole('heading', { name: en.auth.verification.title })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'account-verification');
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
