// The login disclaimer, switched on through the admin settings API.
import { SETTING_KEYS } from '@shared/contract/settings';
import { authenticatorFor, createUser, en, expect, expectInbox, serverPerFile, setSettingsAsAdmin, signIn, test } from './fixtures';

const ctx = serverPerFile();
const TEXT = 'Business use only. Every access is logged.';

test.beforeAll(async () => {
  await setSettingsAsAdmin(ctx.server, {
    [SETTING_KEYS.loginDisclaimerEnabled]: true,
    [`${SETTING_KEYS.loginDisclaimerText}.en`]: TEXT,
    [`${SETTING_KEYS.loginDisclaimerText}.de`]: 'Nur für dienstliche Zwecke.',
  });
});

test('when enabled, sign-in shows the disclaimer; declining goes back, accepting signs in', async ({ page }) => {
  const { server } = ctx;
  const hank = await createUser(server, { username: 'hank' });
  await signIn(page, server, hank);
  await expect(page).toHaveURL(`${server.url}/auth/login-disclaimer`);
  await expect(page.getByRole('heading', { name: en.auth.disclaimer.title })).toBeVisible();
  await expect(page.getByTestId('login-disclaimer-text')).toHaveText(TEXT);

  await page.getByRole('link', { name: en.auth.disclaimer.decline }).click();
  await expect(page).toHaveURL(new RegExp(`^${server.url}/auth/login`));
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();

  await signIn(page, server, hank);
  await expect(page.getByTestId('login-disclaimer-text')).toHaveText(TEXT);
  await page.getByRole('button', { name: en.auth.disclaimer.accept }).click();
  await expectInbox(page, server);
});

test('with two-factor authentication the disclaimer comes first, then one code signs in', async ({ page }) => {
  const { server } = ctx;
  const ivy = await createUser(server, { username: 'ivy', totpRequired: true });
  await signIn(page, server, ivy);
  await expect(page).toHaveURL(`${server.url}/auth/login-disclaimer`);
  await page.getByRole('button', { name: en.auth.disclaimer.accept }).click();
  await expect(page).toHaveURL(`${server.url}/auth/totp-registration`);
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  await page.getByLabel(en.auth.totp.code).fill(authenticatorFor(secret).generate());
  await page.getByRole('button', { name: en.auth.totpRegistration.submit }).click();
  await expectInbox(page, server);
});
