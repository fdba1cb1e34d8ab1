// The not-found page and the insufficient-rights message (issue 34 §1, SPEC §2 screen list and §6):
// an unknown address shows "Page not found" in place (no jump to the inbox); a signed-in user
// without the role opens a role-guarded screen by its address and reads the SPEC's message,
// while a user with the role sees the page itself. axe clean.
import { createUser, en, expect, expectNoSeriousA11yViolations, locale, serverPerFile, signIn, test } from './fixtures';

const formsText = locale<typeof import('@locales/en/forms.json')>('en', 'forms');
const adminText = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const holder = serverPerFile('file');
const insufficient = "You don't have sufficient rights, please ask your administrator";

test('an unknown address shows the not-found page and keeps the address; its link leads to the inbox', async ({ page }) => {
  const { server } = holder;
  const user = await createUser(server, { username: 'lost' });
  await signIn(page, server, { username: user.email, password: user.password });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  for (const path of ['/no-such-page', '/admin/no-such-page', '/secumails/no-such-page']) {
    await page.goto(`${server.url}${path}`);
    await expect(page.getByRole('heading', { level: 1, name: en.shell.notFound.title })).toBeVisible();
    await expect(page).toHaveURL(`${server.url}${path}`);
  }
  // `:locale` is de, en or fr only (SPEC §2): another segment there is an unknown address too.
  await page.goto(`${server.url}/secumails/xx/inbox`);
  await expect(page.getByRole('heading', { level: 1, name: en.shell.notFound.title })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(en.shell.notFound.title));
  await expectNoSeriousA11yViolations(page, 'not found');
  await page.getByRole('link', { name: en.shell.notFound.toInbox }).click();
  await expect(page).toHaveURL(/\/secumails\/inbox$/);
  // The locale with the empty path leads to that language's inbox.
  await page.goto(`${server.url}/secumails/en`);
  await expect(page).toHaveURL(/\/secumails\/en\/inbox$/);

  // Signed out, an unknown address is still "not found", not the sign-in page.
  await page.context().clearCookies();
  await page.goto(`${server.url}/no-such-page`);
  await expect(page.getByRole('heading', { level: 1, name: en.shell.notFound.title })).toBeVisible();
});

test('a user without the forms role opening Forms reads the insufficient-rights message; a forms user sees the page', async ({ page }) => {
  const { server } = holder;
  const plain = await createUser(server, { username: 'noforms' });
  await signIn(page, server, { username: plain.email, password: plain.password });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.goto(`${server.url}/forms`);
  await expect(page.getByRole('heading', { level: 1, name: en.shell.insufficientRights.title })).toBeVisible();
  await expect(page.getByText(insufficient)).toBeVisible();
  await expect(page).toHaveURL(`${server.url}/forms`);
  await expect(page.getByRole('heading', { level: 1, name: formsText.title })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'insufficient rights');

  await page.context().clearCookies();
  const former = await createUser(server, { username: 'forms-user', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'] });
  await signIn(page, server, { username: former.email, password: former.password });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.goto(`${server.url}/forms`);
  await expect(page.getByRole('heading', { level: 1, name: formsText.title })).toBeVisible();
  await expect(page.getByText(insufficient)).toHaveCount(0);
});

test('a user administrator may open Users but reads the message on System, Theme and Reports', async ({ page }) => {
  const { server } = holder;
  const userAdmin = await createUser(server, { username: 'useradmin', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_USER_ADMIN'] });
  await signIn(page, server, { username: userAdmin.email, password: userAdmin.password });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.goto(`${server.url}/admin/users`);
  await expect(page.getByRole('heading', { level: 1, name: adminText.users.title })).toBeVisible();
  for (const path of ['/admin/system', '/admin/theme', '/reports']) {
    await page.goto(`${server.url}${path}`);
    await expect(page.getByText(insufficient)).toBeVisible();
    await expect(page).toHaveURL(`${server.url}${path}`);
  }
});
