// The administration settings pages against the real server: the administrator changes delivery
// settings in the browser and a sender (or an external recipient) sees the effect — allowed levels
// on the send page, a banned domain refused at send, the download disclaimer on the external path.
// Also: only changed keys travel, the form's own checks send nothing, the server's refusal (minimum
// above maximum validity) shows at its field, leaving with unsaved changes asks first, the keyboard
// alone saves, and a non-administrator gets neither the page nor the API.
import type { Browser, Page, Request } from '@playwright/test';
import { API_BASE, MS_PER_DAY, SECURITY_LEVELS } from '@shared/contract/constants';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import { ADMIN_SETTINGS_PATH, SECRET_MASK, SETTING_KEYS } from '@shared/contract/settings';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import { apiCall, apiSendDelivery, apiSignIn, en, expect, expectInbox, locale, openSendPage, serverPerFile, setSettingsAsAdmin, signIn, test } from './fixtures';
import { proveAddress } from '@tests/support/prove-address';
import { testFileBytes } from '@tests/support/files';

const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const send = locale<typeof import('@locales/en/send.json')>('en', 'send');
const form = admin.settingsForm;
const alice = { email: 'alice.sender@example.test', password: 'Good-Passw0rd-e2e' };

const ctx = serverPerFile();
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const session = await apiSignIn(ctx.server, ctx.server.admin);
  const created = await apiCall(ctx.server, session, 'POST', '/admin/users', { ...alice, firstName: 'Alice', lastName: 'Sender', language: 'en' });
  expect(created.status, await created.clone().text()).toBe(201);
  await proveAddress(ctx.server, alice.email, alice.password);
});

const isSettingsPut = (request: Request) => request.method() === 'PUT' && new URL(request.url()).pathname === `${API_BASE}${ADMIN_SETTINGS_PATH}`;

async function openAsAdmin(page: Page, path: string, heading: string) {
  const { server } = ctx;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await page.goto(`${server.url}${path}`);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** Clicks Save and returns the body of the PUT it sent. */
async function save(page: Page): Promise<Record<string, unknown>> {
  const [request] = await Promise.all([page.waitForRequest(isSettingsPut), page.getByRole('button', { name: form.save, exact: true }).click()]);
  return request.postDataJSON() as Record<string, unknown>;
}

async function settingsNow(): Promise<Record<string, unknown>> {
  const session = await apiSignIn(ctx.server, ctx.server.admin);
  const response = await apiCall(ctx.server, session, 'GET', ADMIN_SETTINGS_PATH);
  expect(response.status).toBe(200);
  return ((await response.json()) as { settings: Record<string, unknown> }).settings;
}

/** The success toast (its text is also in the toaster's live region, hence the class). */
const savedToast = (page: Page) => page.locator('.fui-ToastTitle').filter({ hasText: form.saved });

/** Runs `check` on the send page of alice (the sender), signed in in a context of her own. */
async function onAliceSendPage(browser: Browser, check: (sender: Page) => Promise<void>): Promise<void> {
  const { server } = ctx;
  const context = await browser.newContext();
  try {
    const sender = await context.newPage();
    await signIn(sender, server, { username: alice.email, password: alice.password });
    await expectInbox(sender, server);
    await openSendPage(sender, server);
    await check(sender);
  } finally {
    await context.close();
  }
}

const levelSwitch = (page: Page, level: 1 | 2 | 3 | 4) => page.getByRole('switch', { name: admin.secureMails.levels[`level${level}`] });

test('the menu leads to Secure mails › General; allowed levels saved there are exactly what the send page offers', async ({ page, browser }) => {
  const { server } = ctx;
  await openAsAdmin(page, '/admin', en.shell.admin.title);
  await page.getByRole('navigation', { name: en.shell.admin.menuLabel }).getByRole('link', { name: en.shell.admin.items.general }).first().click();
  await expect(page).toHaveURL(`${server.url}/admin/secure-mails`);
  await expect(page.getByRole('heading', { level: 1, name: admin.secureMails.title })).toBeVisible();
  try {
    for (const level of [1, 2, 3, 4] as const) await expect(levelSwitch(page, level)).toBeChecked();
    await levelSwitch(page, 1).uncheck();
    await levelSwitch(page, 4).uncheck();
    // Only the changed keys travel.
    expect(await save(page)).toEqual({ [SETTING_KEYS.allowSecurityLevel1]: false, [SETTING_KEYS.allowSecurityLevel4]: false });
    await expect(savedToast(page)).toBeVisible();

    await onAliceSendPage(browser, async (sender) => {
      const levels = sender.getByRole('radiogroup', { name: send.level.label }).getByRole('radio');
      await expect(levels).toHaveCount(2);
      await expect(sender.getByRole('radio', { name: send.level.level2.title })).toBeChecked();
      await expect(sender.getByRole('radio', { name: send.level.level3.title })).toHaveCount(1);
      await expect(sender.getByRole('radio', { name: send.level.level1.title })).toHaveCount(0);
      await expect(sender.getByRole('radio', { name: send.level.level4.title })).toHaveCount(0);
    });
  } finally {
    await setSettingsAsAdmin(server, { [SETTING_KEYS.allowSecurityLevel1]: true, [SETTING_KEYS.allowSecurityLevel4]: true });
  }
});

test('the form checks first (no level, a bad banned entry: nothing sent); a banned @domain saved there refuses the send', async ({ page, browser }) => {
  const { server } = ctx;
  await openAsAdmin(page, '/admin/secure-mails', admin.secureMails.title);
  let puts = 0;
  page.on('request', (request) => {
    if (isSettingsPut(request)) puts += 1;
  });
  try {
    for (const level of [1, 2, 3, 4] as const) await levelSwitch(page, level).uncheck();
    const banned = page.getByLabel(admin.secureMails.recipients.banned);
    await banned.fill('not an address');
    await page.getByRole('button', { name: form.save, exact: true }).click();
    await expect(page.getByText(admin.secureMails.levels.atLeastOne)).toBeVisible();
    await expect(page.getByText(admin.secureMails.recipients.bannedInvalid.replace('{{entry}}', 'not an address'))).toBeVisible();
    // Focus lands on the first field with a problem.
    await expect(levelSwitch(page, 1)).toBeFocused();
    expect(puts, 'nothing was sent').toBe(0);

    for (const level of [1, 2, 3, 4] as const) await levelSwitch(page, level).check();
    await expect(page.getByText(admin.secureMails.levels.atLeastOne)).toHaveCount(0);
    await banned.fill('@blocked.example\n  one.person@elsewhere.example  \n');
    // Stored as the server's comma-separated list, entries trimmed.
    expect(await save(page)).toEqual({ [DELIVERY_SETTING_KEYS.bannedRecipients]: '@blocked.example,one.person@elsewhere.example' });
    await expect(savedToast(page)).toBeVisible();
    expect((await settingsNow())[DELIVERY_SETTING_KEYS.bannedRecipients]).toBe('@blocked.example,one.person@elsewhere.example');

    await onAliceSendPage(browser, async (sender) => {
      await sender.getByRole('textbox', { name: send.recipients.label }).fill('someone@blocked.example,');
      await sender.getByRole('textbox', { name: send.subject.label }).fill('To a banned domain');
      await sender.getByRole('textbox', { name: send.body.label }).fill('This must not go out.');
      await sender.getByRole('button', { name: send.submit, exact: true }).click();
      await expect(sender.getByRole('alert').filter({ hasText: 'These recipients are not allowed: someone@blocked.example' })).toBeVisible();
    });
  } finally {
    await setSettingsAsAdmin(server, { [DELIVERY_SETTING_KEYS.bannedRecipients]: '' });
  }
});

test('a minimum validity above the maximum shows the server refusal at the maximum; nothing changes', async ({ page }) => {
  await openAsAdmin(page, '/admin/secure-mails', admin.secureMails.title);
  // Stored in milliseconds, shown in days.
  const min = page.getByLabel(admin.secureMails.validity.min);
  const max = page.getByLabel(admin.secureMails.validity.max);
  await expect(min).toHaveValue('1');
  await expect(max).toHaveValue('365');
  await min.fill('30');
  await max.fill('10');
  expect(await save(page)).toEqual({ [SETTING_KEYS.deliveryCleanupExpirationMin]: 30 * MS_PER_DAY, [SETTING_KEYS.deliveryCleanupExpirationMax]: 10 * MS_PER_DAY });
  await expect(page.getByText(form.errors.server.replace('{{problem}}', 'must not be shorter than the minimum validity'))).toBeVisible();
  await expect(max).toHaveAttribute('aria-invalid', 'true');
  await expect(max).toBeFocused();
  await expect(savedToast(page)).toHaveCount(0);
  const settings = await settingsNow();
  expect(settings[SETTING_KEYS.deliveryCleanupExpirationMin]).toBe(MS_PER_DAY);
  expect(settings[SETTING_KEYS.deliveryCleanupExpirationMax]).toBe(365 * MS_PER_DAY);

  // A whole number of days is the form's own rule.
  await max.fill('ten');
  await page.getByRole('button', { name: form.save, exact: true }).click();
  await expect(page.getByText(form.errors.integerRange.replace('{{min}}', '1').replace('{{max}}', '100000'))).toBeVisible();
});

test('the download disclaimer switched on with the keyboard alone is what an external recipient must accept', async ({ page }) => {
  const { server } = ctx;
  const text = 'Confidential: for the named recipient only.';
  await openAsAdmin(page, '/admin/secure-mails', admin.secureMails.title);
  try {
    const enabled = page.getByRole('switch', { name: admin.secureMails.disclaimer.enabled });
    await expect(enabled).not.toBeChecked();
    // The texts show only while the disclaimer is on.
    const english = page.getByLabel(form.perLanguage.replace('{{label}}', admin.secureMails.disclaimer.text).replace('{{language}}', 'English'));
    await expect(english).toHaveCount(0);
    await enabled.focus();
    await page.keyboard.press('Space');
    await expect(enabled).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel(/^Disclaimer text \(Deutsch\)/)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(english).toBeFocused();
    await page.keyboard.type(text);
    await page.getByRole('button', { name: form.save, exact: true }).focus();
    const [request] = await Promise.all([page.waitForRequest(isSettingsPut), page.keyboard.press('Enter')]);
    expect(request.postDataJSON()).toEqual({ [EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled]: true, [`${EXTERNAL_SETTING_KEYS.downloadDisclaimerText}.en`]: text });
    await expect(savedToast(page)).toBeVisible();

    const to = 'uma.outside@outside.test';
    const sent = await apiSendDelivery(server, await apiSignIn(server, alice), {
      to,
      subject: 'Disclaimer check',
      level: SECURITY_LEVELS.LEVEL_1,
      files: [{ name: 'note.bin', bytes: testFileBytes(64) }],
    });
    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(to)(m) && m.subject.includes('Disclaimer check'));
    await page.context().clearCookies();
    await page.goto(extractLink(mail, '/secumails/').toString());
    await page.getByLabel(en.external.emailPrompt.email).fill(to);
    await page.getByRole('button', { name: en.external.emailPrompt.submit }).click();
    await expect(page).toHaveURL(new RegExp(`/download-disclaimer/${sent.deliveryUuid}$`));
    await expect(page.getByRole('heading', { level: 1, name: en.external.disclaimer.title })).toBeVisible();
    await expect(page.getByText(text)).toBeVisible();
  } finally {
    await setSettingsAsAdmin(server, { [EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled]: false, [`${EXTERNAL_SETTING_KEYS.downloadDisclaimerText}.en`]: '' });
  }
});

test('System: the SMTP password shows masked and stays when the address is edited around it', async ({ page }) => {
  const { server } = ctx;
  await setSettingsAsAdmin(server, { [SETTING_KEYS.mailTransport]: 'smtp', [SETTING_KEYS.mailSmtpUrl]: 'smtp://mailer:S3cret-pw@mail.example.test:587' });
  try {
    await openAsAdmin(page, '/admin/system', admin.system.title);
    const field = page.getByLabel(admin.system.mail.smtpUrl);
    await expect(field).toHaveValue(`smtp://mailer:${SECRET_MASK}@mail.example.test:587`);
    await expect(page.getByText('S3cret-pw')).toHaveCount(0);
    await field.fill(`smtps://mailer:${SECRET_MASK}@relay.example.test:465`);
    expect(await save(page)).toEqual({ [SETTING_KEYS.mailSmtpUrl]: `smtps://mailer:${SECRET_MASK}@relay.example.test:465` });
    await expect(savedToast(page)).toBeVisible();
    expect((await server.app.settings.getAll())[SETTING_KEYS.mailSmtpUrl]).toBe('smtps://mailer:S3cret-pw@relay.example.test:465');
  } finally {
    await setSettingsAsAdmin(server, { [SETTING_KEYS.mailTransport]: 'mailbox', [SETTING_KEYS.mailSmtpUrl]: null });
  }
});

test('System: changed keys only, values kept after a reload; leaving with unsaved changes asks first', async ({ page }) => {
  const { server } = ctx;
  await openAsAdmin(page, '/admin/system', admin.system.title);
  try {
    await page.getByLabel(admin.system.organisation.name).fill('Example Corp');
    await page.getByLabel(admin.system.policy.minLength).first().fill('12');
    // SMTP shows its address field; switched back it is no change at all.
    const transport = page.getByLabel(admin.system.mail.transport);
    await transport.selectOption('smtp');
    await expect(page.getByLabel(admin.system.mail.smtpUrl)).toBeVisible();
    await transport.selectOption('mailbox');
    await expect(page.getByLabel(admin.system.mail.smtpUrl)).toHaveCount(0);
    await page.getByRole('switch', { name: admin.system.signIn.totpRequired }).check();
    await page.getByRole('switch', { name: admin.system.signIn.totpRequired }).uncheck();
    expect(await save(page)).toEqual({ [SETTING_KEYS.organisationName]: 'Example Corp', [SETTING_KEYS.passwordMinLength]: 12 });
    await expect(savedToast(page)).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(admin.system.organisation.name)).toHaveValue('Example Corp');

    // Unsaved: the main menu's link asks; Stay keeps the edit, Leave goes.
    await page.getByLabel(admin.system.organisation.name).fill('Unsaved Corp');
    const administration = page.getByRole('navigation', { name: en.shell.menu.label }).getByRole('link', { name: en.shell.menu.administration });
    await administration.click();
    const dialog = page.getByRole('alertdialog', { name: form.leaveTitle });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: form.stay }).click();
    await expect(page).toHaveURL(`${server.url}/admin/system`);
    await expect(page.getByLabel(admin.system.organisation.name)).toHaveValue('Unsaved Corp');
    await administration.click();
    await page.getByRole('alertdialog', { name: form.leaveTitle }).getByRole('button', { name: form.leave }).click();
    await expect(page).toHaveURL(`${server.url}/admin`);
    expect((await settingsNow())[SETTING_KEYS.organisationName]).toBe('Example Corp');
  } finally {
    await setSettingsAsAdmin(server, { [SETTING_KEYS.organisationName]: 'Kuvert', [SETTING_KEYS.passwordMinLength]: 10 });
  }
});

test('a sender gets neither the settings pages nor the settings API', async ({ page }) => {
  const { server } = ctx;
  await signIn(page, server, { username: alice.email, password: alice.password });
  await expectInbox(page, server);
  for (const path of ['/admin/secure-mails', '/admin/system']) {
    await page.goto(`${server.url}${path}`);
    // The page answers with the insufficient-rights message (issue 34 §1), never the form.
    await expect(page.getByText(en.shell.insufficientRights.text)).toBeVisible();
    await expect(page.getByRole('heading', { name: admin.secureMails.title })).toHaveCount(0);
  }
  const session = await apiSignIn(server, alice);
  expect((await apiCall(server, session, 'GET', ADMIN_SETTINGS_PATH)).status).toBe(403);
  expect((await apiCall(server, session, 'PUT', ADMIN_SETTINGS_PATH, { [SETTING_KEYS.allowSecurityLevel1]: false })).status).toBe(403);
  expect((await settingsNow())[SETTING_KEYS.allowSecurityLevel1]).toBe(true);
});
