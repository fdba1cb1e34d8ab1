// Issue 13 ("Deliveries as people meet them"), items 14, 16 and 18, walked in Chromium on the
// server's defaults:
// 14 — the administrator cannot switch the download disclaimer on with every text empty: the
//      switch says why and nothing is sent; with one text it saves.
// 16 — the main menu marks exactly one entry (aria-current="page"): "Secure mails" for the whole
//      delivery area (also after "Deliveries", which opens Send), "Datarooms" for the data rooms
//      (also after "Secure rooms"); on a phone the compact menu marks the same one.
// 18 — unselected but allowed security levels read in the text colour (not greyed like a disabled
//      control); a wrong phone number is an error message (alert, error colour, field invalid); in
//      French sizes are in Mo and the data rooms are "Salles de données".
import { API_BASE } from '@shared/contract/constants';
import { EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import { ADMIN_SETTINGS_PATH } from '@shared/contract/settings';
import {
  apiCall,
  apiSignIn,
  en,
  expect,
  expectInbox,
  expectNoSeriousA11yViolations,
  locale,
  openSendPage,
  pickFiles,
  recipientsInput,
  serverPerFile,
  setSettingsAsAdmin,
  signIn,
  signInToInbox,
  test, apiCreateAccount, screenshotsAtWidths } from './fixtures';
import { testFileBytes } from '@tests/support/files';

const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const send = en.send;
const deliveries = en.deliveries;
const fr = { shell: locale<typeof en.shell>('fr', 'shell'), send: locale<typeof en.send>('fr', 'send') };
const alice = { email: 'alice.people@example.test', password: 'Good-Passw0rd-e2e' };
const ctx = serverPerFile();
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const session = await apiSignIn(ctx.server, ctx.server.admin);
  await apiCreateAccount(ctx.server, session, { ...alice, firstName: 'Alice', lastName: 'People' });
});


test('16: the main menu marks exactly one entry, the area’s own, on desktop and phone', async ({ page }) => {
  const { server } = ctx;
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  const menu = page.getByRole('navigation', { name: en.shell.menu.label });
  const current = menu.locator('[aria-current="page"]');
  const expectCurrent = async (label: string) => {
    await expect(current).toHaveCount(1);
    await expect(current).toHaveText(label);
    // Across the whole page, too (the brand link is not marked).
    await expect(page.locator('[aria-current="page"]')).toHaveCount(1);
  };
  await expectCurrent(en.shell.menu.secureMails);

  await menu.getByRole('link', { name: en.shell.menu.deliveries }).click();
  await expect(page.getByRole('heading', { level: 1, name: send.title })).toBeVisible();
  await expectCurrent(en.shell.menu.secureMails);
  await page.getByRole('navigation', { name: en.shell.deliveryMenu.label }).getByRole('tab', { name: en.shell.deliveryMenu.sent }).click();
  await expect(page).toHaveURL(/\/secumails\/outbox$/);
  await expectCurrent(en.shell.menu.secureMails);

  // Secure rooms (the end-to-end encrypted rooms): their own page, their own entry.
  await menu.getByRole('link', { name: en.shell.menu.secureRooms }).click();
  await expect(page).toHaveURL(/\/secure-rooms$/);
  await expectCurrent(en.shell.menu.secureRooms);
  await menu.getByRole('link', { name: en.shell.menu.datarooms }).click();
  await expect(page).toHaveURL(/\/datarooms$/);
  await expectCurrent(en.shell.menu.datarooms);
  await menu.getByRole('link', { name: en.shell.menu.forms }).click();
  await expect(page).toHaveURL(/\/forms$/);
  await expectCurrent(en.shell.menu.forms);
  // The current entry stands out: bold, on the hover background.
  const weight = await current.evaluate((element) => getComputedStyle(element).fontWeight);
  const other = await menu.getByRole('link', { name: en.shell.menu.help }).evaluate((element) => getComputedStyle(element).fontWeight);
  expect(Number(weight)).toBeGreaterThan(Number(other));
  await page.goto(`${server.url}/secumails/inbox`);
  await expectCurrent(en.shell.menu.secureMails);

  // Phone: the compact menu marks the same single entry.
  await page.setViewportSize({ width: 380, height: 800 });
  await page.goto(`${server.url}/datarooms`);
  await page.getByRole('button', { name: en.shell.menu.label }).click();
  const items = page.getByRole('menuitem');
  // Flows is ROLE_SECUFLOWS_ACCESS's entry (the administrator does not hold it).
  await expect(items).toHaveCount(8);
  await expect(page.getByRole('menuitem', { name: en.shell.menu.datarooms })).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('[role="menuitem"][aria-current="page"]')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('14: the download disclaimer cannot be switched on without a text; with one it saves', async ({ page }) => {
  const { server } = ctx;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await page.goto(`${server.url}/admin/secure-mails`);
  await expect(page.getByRole('heading', { level: 1, name: admin.secureMails.title })).toBeVisible();
  let puts = 0;
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === `${API_BASE}${ADMIN_SETTINGS_PATH}`) puts += 1;
  });
  const enabled = page.getByRole('switch', { name: admin.secureMails.disclaimer.enabled });
  await enabled.check();
  await page.getByRole('button', { name: admin.settingsForm.save, exact: true }).click();
  const message = page.getByText(admin.secureMails.disclaimer.textRequired);
  await expect(message).toBeVisible();
  await expect(enabled).toHaveAttribute('aria-invalid', 'true');
  await expect(enabled).toBeFocused();
  expect(puts).toBe(0);
  await screenshotsAtWidths(page, 'polish-14-disclaimer');
  await expectNoSeriousA11yViolations(page, 'secure mails settings with the disclaimer refused');

  // Blank text is no text either.
  const french = page.getByLabel(admin.settingsForm.perLanguage.replace('{{label}}', admin.secureMails.disclaimer.text).replace('{{language}}', 'Français'));
  await french.fill('   ');
  await page.getByRole('button', { name: admin.settingsForm.save, exact: true }).click();
  await expect(message).toBeVisible();
  expect(puts).toBe(0);

  await french.fill('Réservé au destinataire nommé.');
  await page.getByRole('button', { name: admin.settingsForm.save, exact: true }).click();
  await expect(page.locator('.fui-ToastTitle').filter({ hasText: admin.settingsForm.saved })).toBeVisible();
  await expect(message).toHaveCount(0);
  expect(puts).toBe(1);
  // The server holds the same rule: emptying the only text while on is refused (SPEC §8 shape).
  const session = await apiSignIn(server, server.admin);
  const refused = await apiCall(server, session, 'PUT', ADMIN_SETTINGS_PATH, { [`${EXTERNAL_SETTING_KEYS.downloadDisclaimerText}.fr`]: '' });
  expect(refused.status).toBe(400);
  const body = (await refused.json()) as { error: string; metadata: unknown };
  expect(body.error).toBe('ValidationException');
  expect(body.metadata).toEqual({ problems: [{ key: EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled, problem: expect.any(String) }] });
  await setSettingsAsAdmin(server, { [EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled]: false });
});

test('18: enabled levels look enabled, a wrong phone number is an error, French sizes and menu', async ({ page }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  await setSettingsAsAdmin(server, { [EXTERNAL_SETTING_KEYS.signupRequiresSms]: true });
  try {
    await signInToInbox(page, server, alice);
    await openSendPage(page, server);
    // Level 1 is preselected; 2–4 are allowed and not selected: text colour, not the disabled grey.
    const label = (title: string) => page.locator('label').filter({ hasText: title });
    const colour = (title: string) => label(title).evaluate((element) => getComputedStyle(element).color);
    const checkedColour = await colour(send.level.level1.title);
    for (const level of [send.level.level2, send.level.level3, send.level.level4]) {
      const radio = page.getByRole('radio', { name: new RegExp(level.title) });
      await expect(radio).toBeEnabled();
      await expect(radio).not.toBeChecked();
      await expect(radio).not.toHaveAttribute('aria-disabled', 'true');
      expect(await colour(level.title), level.title).toBe(checkedColour);
    }
    // The text colour of the theme (colorNeutralForeground1 #242424), not Fluent's grey for unchecked labels.
    expect(checkedColour).toBe('rgb(36, 36, 36)');

    // An external recipient at level 2 needs a phone number; a wrong one is an error.
    const outsider = 'olga.phone@outside.test';
    await recipientsInput(page).fill(`${outsider},`);
    await page.getByRole('textbox', { name: send.subject.label }).fill('Phone check');
    await page.getByRole('textbox', { name: send.body.label }).fill('Hello');
    await page.getByRole('radio', { name: new RegExp(send.level.level2.title) }).check();
    await page.getByRole('button', { name: send.submit, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: deliveries.phoneNumbers.title });
    await expect(dialog).toBeVisible();
    const field = dialog.getByRole('textbox', { name: deliveries.phoneNumbers.label.replace('{{email}}', outsider) });
    await expect(dialog.getByText(deliveries.phoneNumbers.hint)).toBeVisible();
    await field.fill('12345');
    await dialog.getByRole('button', { name: deliveries.phoneNumbers.saveAndSend }).click();
    const error = dialog.getByRole('alert').filter({ hasText: deliveries.phoneNumbers.invalid });
    await expect(error).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    // The error replaces the hint, in the error colour (Fluent's colorPaletteRedForeground1 #bc2f32).
    await expect(dialog.getByText(deliveries.phoneNumbers.hint)).toHaveCount(0);
    expect(await error.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(188, 47, 50)');
    await screenshotsAtWidths(page, 'polish-18-phone');
    await field.fill('+49 170 1234567');
    await dialog.getByRole('button', { name: deliveries.phoneNumbers.saveAndSend }).click();
    await expect(page.getByRole('heading', { level: 1, name: send.success.title })).toBeVisible({ timeout: 30_000 });

    // French: sizes in octets (Mo), data rooms as the French product term.
    await openSendPage(page, server);
    await page.getByRole('button', { name: /English$/ }).click();
    await page.getByRole('menuitemradio', { name: 'Français' }).click();
    await expect(page.getByRole('heading', { level: 1, name: fr.send.title })).toBeVisible();
    await pickFiles(page, [{ name: 'rapport.bin', bytes: testFileBytes(Math.round(1.5 * 1024 * 1024)) }]);
    const list = page.getByRole('list', { name: fr.send.files.listLabel });
    await expect(list).toContainText('1,5 Mo');
    await expect(list).not.toContainText('MB');
    await expect(page.getByRole('navigation', { name: fr.shell.menu.label }).getByRole('link', { name: 'Salles de données' })).toBeVisible();
    await expect(page.getByText('Datarooms', { exact: true })).toHaveCount(0);
    await screenshotsAtWidths(page, 'polish-18-french-send');
    await page.getByRole('button', { name: /Français$/ }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
  } finally {
    await setSettingsAsAdmin(server, { [EXTERNAL_SETTING_KEYS.signupRequiresSms]: false });
  }
});
