// axe (WCAG rules) on inbox, settings, the admin settings pages (system, secure mails), totp-registration,
// totp-authentication and login-disclaimer;
// no violation of impact serious or critical. One server (the signed-out screens: accessibility.spec.ts).
import { SETTING_KEYS } from '@shared/contract/settings';
import {
  authenticatorFor,
  createUser,
  en,
  expect,
  expectInbox,
  expectNoSeriousA11yViolations,
  locale,
  serverPerFile,
  setSettingsAsAdmin,
  signIn,
  test,
} from './fixtures';

const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const ctx = serverPerFile();
test.describe.configure({ mode: 'serial' });

test('inbox and settings', async ({ page }) => {
  const { server } = ctx;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await expect(page.getByText(en.deliveries.list.inboxEmptyTitle)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'inbox');

  await page.getByRole('button', { name: /^User menu of / }).click();
  await page.getByRole('menuitem', { name: en.shell.userMenu.settings }).click();
  await expect(page).toHaveURL(`${server.url}/settings`);
  await expect(page.getByRole('heading', { name: en.settings.title, level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'settings');
});

test('admin settings pages: system and secure mails (with a field problem showing)', async ({ page }) => {
  const { server } = ctx;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await page.goto(`${server.url}/admin/system`);
  await expect(page.getByRole('heading', { level: 1, name: admin.system.title })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'admin system settings');
  await page.goto(`${server.url}/admin/secure-mails`);
  await expect(page.getByRole('heading', { level: 1, name: admin.secureMails.title })).toBeVisible();
  await page.getByLabel(admin.secureMails.validity.max).fill('many');
  await page.getByRole('button', { name: admin.settingsForm.save, exact: true }).click();
  await expect(page.getByLabel(admin.secureMails.validity.max)).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousA11yViolations(page, 'admin secure mails settings');
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
