// Terms of use and privacy agreement (issue 34): a version in force is asked before any page, the
// agreement continues to the page the user was going to; a new version asks again.
import { TERMS_SETTING_KEYS } from '@shared/contract/terms';
import { createUser, en, expect, expectNoSeriousA11yViolations, locale, serverPerFile, setSettingsAsAdmin, signIn, test } from './fixtures';

const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');

const ctx = serverPerFile();

test('a version in force is asked after sign-in and continues to the deep link; a new version asks again; signing out instead is possible', async ({ page }) => {
  const { server } = ctx;
  await setSettingsAsAdmin(server, { [TERMS_SETTING_KEYS.version]: 1 });
  const kim = await createUser(server, { username: 'kim' });
  await page.goto(`${server.url}/settings?section=language`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  await signIn(page, server, kim, new URL(page.url()).pathname + new URL(page.url()).search);

  await expect(page).toHaveURL(`${server.url}/auth/terms?continue=${encodeURIComponent('/settings?section=language')}`);
  await expect(page.getByRole('heading', { name: en.auth.terms.title })).toBeVisible();
  await expect(page.getByText(en.auth.terms.pleaseAgree)).toBeVisible();
  await expect(page.getByText(en.auth.terms.useText)).toBeVisible();
  const agree = page.getByRole('button', { name: en.auth.terms.agreeAndContinue });
  await expect(agree).toBeDisabled();
  await expectNoSeriousA11yViolations(page, 'terms agreement');
  // Keyboard: tick the box with Space.
  await page.getByRole('checkbox', { name: en.auth.terms.agree }).focus();
  await page.keyboard.press('Space');
  await agree.click();
  await expect(page).toHaveURL(`${server.url}/settings?section=language`);
  await expect(page.getByRole('heading', { name: en.settings.title, level: 1 })).toBeVisible();
  const row = await server.app.db.selectFrom('users').select(['terms_accepted_version', 'terms_accepted_at']).where('username', '=', 'kim').executeTakeFirstOrThrow();
  expect(row.terms_accepted_version).toBe(1);
  expect(Number(row.terms_accepted_at)).toBeGreaterThan(Date.now() - 60_000);

  // Agreed: other pages open directly; the terms page says when.
  await page.goto(`${server.url}/secumails/inbox`);
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.goto(`${server.url}/auth/terms`);
  await expect(page.getByText(/^You agreed to version 1 on /)).toBeVisible();

  // A new version with the administrator's own text: asked again at the next page load.
  await setSettingsAsAdmin(server, { [TERMS_SETTING_KEYS.version]: 2, [`${TERMS_SETTING_KEYS.text}.en`]: 'Version two: play fair.' });
  await page.goto(`${server.url}/secumails/inbox`);
  await expect(page).toHaveURL(new RegExp(`/auth/terms\\?continue=`));
  await expect(page.getByText(en.auth.terms.newVersion.replace('{{version}}', '2'))).toBeVisible();
  await expect(page.getByText('Version two: play fair.')).toBeVisible();
  await page.getByRole('button', { name: en.auth.terms.signOut }).click();
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  expect((await server.app.db.selectFrom('users').select('terms_accepted_version').where('username', '=', 'kim').executeTakeFirstOrThrow()).terms_accepted_version).toBe(1);
});

test('the administrator numbers the terms in Administration › System', async ({ page }) => {
  const { server } = ctx;
  await setSettingsAsAdmin(server, { [TERMS_SETTING_KEYS.version]: 0 });
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.goto(`${server.url}/admin/system`);
  const version = page.getByRole('textbox', { name: admin.system.terms.version });
  await expect(version).toHaveValue('0');
  await version.fill('3');
  await page.getByRole('button', { name: admin.settingsForm.save }).click();
  await expect.poll(async () => (await server.app.settings.get<number>(TERMS_SETTING_KEYS.version))).toBe(3);
  // In force at once for the administrator too: the next page asks.
  await page.goto(`${server.url}/secumails/inbox`);
  await expect(page).toHaveURL(/\/auth\/terms\?continue=/);
});
