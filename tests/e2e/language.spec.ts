// The language switcher (Deutsch / English / Français): the choice survives a reload.
import { en, expect, expectInbox, locale, serverPerFile, signIn, submitLogin, test } from './fixtures';

const ctx = serverPerFile();
test.use({ locale: 'en-US' });

type AuthTexts = typeof import('@locales/en/auth.json');
type ShellTexts = typeof import('@locales/en/shell.json');
const texts = {
  de: { auth: locale<AuthTexts>('de', 'auth'), shell: locale<ShellTexts>('de', 'shell'), deliveries: locale<typeof en.deliveries>('de', 'deliveries'), name: 'Deutsch' },
  fr: { auth: locale<AuthTexts>('fr', 'auth'), shell: locale<ShellTexts>('fr', 'shell'), name: 'Français' },
  en: { auth: en.auth, shell: en.shell, name: 'English' },
} as const;

test('switching to Deutsch and to Français on the login page survives a reload', async ({ page }) => {
  const { server } = ctx;
  await page.goto(`${server.url}/auth/login`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // The translations differ, or this test would prove nothing.
  expect(new Set([texts.de.auth.login.title, texts.fr.auth.login.title, en.auth.login.title]).size).toBe(3);

  let current: keyof typeof texts = 'en';
  for (const next of ['de', 'fr', 'en'] as const) {
    await page.getByRole('button', { name: new RegExp(`${texts[current].name}$`) }).click();
    // The legacy /webui pages learn the new language through keep-alive (SPEC §2).
    const keepAlive = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.pathname === '/webui/keepAlive.html' && url.searchParams.get('lang') === next;
    });
    await page.getByRole('menuitemradio', { name: texts[next].name }).click();
    await keepAlive;
    await expect.poll(() => page.evaluate(() => localStorage.getItem('language'))).toBe(next);
    await expect(page.getByRole('heading', { name: texts[next].auth.login.title })).toBeVisible();
    await expect(page.getByLabel(texts[next].auth.login.username)).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', next);

    await page.reload();
    await expect(page.getByRole('heading', { name: texts[next].auth.login.title })).toBeVisible();
    await expect(page.getByRole('button', { name: texts[next].auth.login.submit, exact: true })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', next);
    current = next;
  }
});

test('a signed-in user switching to Deutsch sees the inbox in German after a reload', async ({ page }) => {
  const { server } = ctx;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await page.getByRole('button', { name: /English$/ }).click();
  await page.getByRole('menuitemradio', { name: 'Deutsch' }).click();
  await expect(page.getByRole('heading', { level: 1, name: texts.de.shell.inbox.title, exact: true })).toBeVisible();
  // Kept on the user as well (POST /user/updateLoggedInUser).
  await expect
    .poll(async () => ((await (await page.request.get(`${server.url}/api/2/user`)).json()) as { user?: { language?: string } }).user?.language)
    .toBe('de');
  await page.reload();
  await expect(page).toHaveURL(`${server.url}/secumails/inbox`);
  await expect(page.getByRole('heading', { level: 1, name: texts.de.shell.inbox.title, exact: true })).toBeVisible();
  await expect(page.getByText(texts.de.deliveries.list.inboxEmptyTitle)).toBeVisible();
});

test('a locale in the inbox route switches the language; messages come in that language', async ({ page }) => {
  const { server } = ctx;
  await page.goto(`${server.url}/secumails/de/inbox`);
  await expect(page).toHaveURL(`${server.url}/auth/login?continue=${encodeURIComponent('/secumails/de/inbox')}`);
  await submitLogin(page, { username: server.admin.email, password: server.admin.password });
  await expect(page).toHaveURL(`${server.url}/secumails/de/inbox`);
  await expect(page.getByRole('heading', { level: 1, name: texts.de.shell.inbox.title, exact: true })).toBeVisible();
  await expect(page).toHaveTitle(`Kuvert - ${texts.de.shell.inbox.title}`);

  // Signed out, still German: the wrong-password message (SPEC §8) in German.
  await page.context().clearCookies();
  await page.goto(`${server.url}/auth/login`);
  await expect(page.getByRole('heading', { name: texts.de.auth.login.title })).toBeVisible();
  await page.getByLabel(texts.de.auth.login.username).fill('nobody');
  await page.getByLabel(new RegExp(`^${texts.de.auth.login.password}`)).fill('wrong');
  await page.getByRole('button', { name: texts.de.auth.login.submit, exact: true }).click();
  await expect(page.getByText(texts.de.auth.errors.invalidCredentials)).toBeVisible();
});
