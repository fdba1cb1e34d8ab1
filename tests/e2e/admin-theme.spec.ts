// Licence and theme pages in Chromium against the real server (issue 17 §2): the licence page shows
// counts against the operator's caps and who holds them; the administrator changes the theme colour
// and the logo on the theme page, and the shell (computed style, served logo), a mail (read from the
// mailbox folder) and the add-in task pane (the harness with office.js stood in) show them; reset
// brings the defaults back. axe finds nothing serious on either page.
import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { THEME_PROFILE_KEYS } from '@shared/contract/theme';
import { OFFICE_JS_STAND_IN, OFFICE_JS_URL } from '../addin/office-stand-in';
import { addressedTo, waitForMailboxMail } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expect, expectInbox, expectNoSeriousA11yViolations, locale, signIn, test } from './fixtures';

const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const shell = locale<typeof import('@locales/en/shell.json')>('en', 'shell');

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PNG_VERSION = createHash('sha256').update(PNG).digest('hex').slice(0, 16);
const BLUE = { hex: '#336699', rgb: 'rgb(51, 102, 153)' };
const GREEN = 'rgb(25, 133, 63)';

let server: TestServer;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer({ config: { licenceSenders: 5, licenceDataRoomCreators: 2 } });
  const session = await apiSignIn(server, server.admin);
  const created = await apiCall(server, session, 'POST', '/admin/users', { email: 'creator@example.test', password: 'Good-Passw0rd-e2e', roleNames: ['ROLE_UI_USER', 'ROLE_SECUROOMS_CREATOR'] });
  expect(created.status, await created.clone().text()).toBe(201);
});
test.afterAll(async () => server?.close());

async function openAdminPage(page: Page, linkName: string, heading: string) {
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await page.goto(`${server.url}/admin`);
  await page.getByRole('link', { name: linkName }).click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** A toast's title (its text is also in the toaster's live region, hence the class). */
const toast = (page: Page, text: string) => page.locator('.fui-ToastTitle').filter({ hasText: text });

const background = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => getComputedStyle(el).backgroundColor);

test('the licence page shows each count against its cap, who holds it and what happens at the cap', async ({ page }) => {
  await openAdminPage(page, shell.admin.items.license, admin.licence.title);
  const senders = page.getByTestId('licence-senders');
  await expect(senders.getByTestId('licence-senders-figures')).toHaveText(admin.licence.usedOfCap.replace('{{used}}', '2').replace('{{cap}}', '5'));
  await expect(senders.getByRole('cell', { name: 'creator@example.test' })).toBeVisible();
  await expect(senders.getByText(admin.licence.kinds.senders.atCap)).toBeVisible();
  const creators = page.getByTestId('licence-dataRoomCreators');
  await expect(creators.getByTestId('licence-dataRoomCreators-figures')).toHaveText(admin.licence.usedOfCap.replace('{{used}}', '1').replace('{{cap}}', '2'));
  // Forms exist now: counted, no "not available" note.
  await expect(page.getByTestId('licence-activeForms').getByText(admin.licence.kinds.activeForms.notAvailable)).toHaveCount(0);
  await expect(page.getByTestId('licence-activeForms-figures')).toHaveText(admin.licence.usedUnlimited.replace('{{used}}', '0'));
  await expectNoSeriousA11yViolations(page, 'licence page');
});

test('the theme colour and logo reach the shell, a mail and the add-in; reset brings the defaults back', async ({ page, browser }) => {
  await openAdminPage(page, shell.admin.items.theme, admin.theme.title);
  expect(await background(page, 'header')).toBe(GREEN);

  // A wrong colour is named at its field and cannot be saved (SPEC §5).
  const themeColour = page.getByRole('textbox', { name: admin.theme.colours.theme, exact: true });
  await themeColour.fill('green');
  await expect(page.getByText(admin.theme.invalidHex)).toBeVisible();
  await expect(page.getByRole('button', { name: admin.theme.save })).toBeDisabled();

  // The preview follows the draft before saving; the luminance rule picks light text on this blue.
  await themeColour.fill(BLUE.hex);
  await expect(page.getByText(admin.theme.lightText.replace('{{luminance}}', '93'))).toBeVisible();
  expect(await background(page, '[data-testid="theme-preview-button"]')).toBe(BLUE.rgb);
  expect(await page.getByTestId('theme-preview-button').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 255)');
  expect(await background(page, 'header')).toBe(GREEN);
  await page.getByRole('button', { name: admin.theme.save }).click();
  await expect(toast(page, admin.theme.saved)).toBeVisible();
  await expect.poll(() => background(page, 'header')).toBe(BLUE.rgb);

  // The logo: uploaded, then shown by the shell at its versioned URL.
  await page.getByTestId('theme-logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await expect(toast(page, admin.theme.assets.uploaded.replace('{{name}}', admin.theme.assets.logo))).toBeVisible();
  const shellLogo = page.getByTestId('shell-logo');
  await expect(shellLogo).toHaveAttribute('src', `/webui/logo?v=${PNG_VERSION}`);
  await expect.poll(() => shellLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  await expectNoSeriousA11yViolations(page, 'theme page');

  // A mail: the header bar and the button in the theme colour, the logo attached inline.
  const session = await apiSignIn(server, server.admin);
  expect((await apiCall(server, session, 'POST', '/admin/users', { email: 'invited@example.test', language: 'en' })).status).toBe(201);
  const mail = await waitForMailboxMail(server.mailboxDir, addressedTo('invited@example.test'));
  expect(mail.html).toContain(`background:${BLUE.hex}`);
  const logo = mail.parsed.attachments.find((a) => a.cid === 'logo@kuvert');
  expect(logo && Buffer.from(logo.content).equals(PNG)).toBe(true);

  // The add-in task pane (office.js stood in) shows the same colour and logo.
  const pane = await browser.newPage();
  await pane.addInitScript(() => {
    (window as unknown as { __kuvertMailbox: unknown }).__kuvertMailbox = { mode: 'compose', displayLanguage: 'en-US', to: [], cc: [], bcc: [], subject: '', body: '', attachments: [] };
  });
  await pane.route(OFFICE_JS_URL, (route) => route.fulfill({ contentType: 'text/javascript', body: OFFICE_JS_STAND_IN }));
  await pane.goto(`${server.url}/addin/taskpane.html`);
  await expect(pane.getByTestId('addin-logo')).toHaveAttribute('src', `/webui/logo?v=${PNG_VERSION}`);
  await expect.poll(() => background(pane, '[data-testid="addin-brand"]')).toBe(BLUE.rgb);
  await expect.poll(() => pane.getByTestId('addin-logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  await pane.close();

  // Reset, after the confirmation: the default colour and the product logo are back.
  await page.getByRole('button', { name: admin.theme.reset.button }).click();
  const dialog = page.getByRole('alertdialog', { name: admin.theme.reset.title });
  await dialog.getByRole('button', { name: admin.theme.reset.confirm }).click();
  await expect(toast(page, admin.theme.reset.done)).toBeVisible();
  await expect.poll(() => background(page, 'header')).toBe(GREEN);
  await expect(shellLogo).toHaveAttribute('src', '/webui/logo?v=default');
  const profile = (await (await fetch(`${server.url}/api/2/config/profile`)).json()) as { config: Record<string, unknown> };
  expect(profile.config[THEME_PROFILE_KEYS.logoUrl]).toBe('/webui/logo?v=default');
});
