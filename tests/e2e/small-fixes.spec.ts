// Issue 33 §2, the smaller things a person notices, in Chromium against one real server: a
// required file field's "Field is required" goes once files are chosen; an inbox row opens on a
// click anywhere in it; the licence menu item and page spell the word the same, and a holder's
// status reads as on the users page. The installation wizard (its own server, without an
// administrator) lists every problem at once and keeps what was typed. axe at 1280 and 390 px.
import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { Form } from '@shared/contract/forms';
import { expect, type Page } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSendDelivery, apiSignIn, createUser, en, expectNoSeriousA11yViolations, locale, openAdminItem, signInToInbox, type ApiSession, type TestUser, test } from './fixtures';

const forms = locale<typeof import('@locales/en/forms.json')>('en', 'forms');
const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const formAdmin = locale<typeof import('@locales/en/formAdmin.json')>('en', 'formAdmin');

let server: TestServer;
let adminSession: ApiSession;
let rita: TestUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  adminSession = await apiSignIn(server, server.admin);
  rita = await createUser(server, { username: 'rita', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER'] });
});
test.afterAll(async () => {
  await server?.close();
});

/** axe at the desktop and the phone width of SPEC §9. */
async function axeAtBothWidths(page: Page, screen: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSeriousA11yViolations(page, `${screen} at ${width} px`);
  }
}

const CLAIM = {
  name: 'Claim',
  url: 'claim',
  active: true,
  securityLevel: SECURITY_LEVELS.LEVEL_1,
  mandatoryRecipients: [] as string[],
  customFields: [{ name: 'Receipt', type: 'file', required: true, maxFileSizeKb: 1024 }],
};
let form: Form;

test('a required file field: "Field is required" goes once a file is chosen', async ({ page }) => {
  const created = await apiCall(server, adminSession, 'POST', '/forms', { ...CLAIM, mandatoryRecipients: [server.admin.email] });
  expect(created.status, await created.clone().text()).toBe(201);
  form = (await created.json()) as Form;
  await page.goto(`${server.url}/form/${form.url}`);
  await page.getByRole('button', { name: forms.public.submit }).click();
  await expect(page.getByText(forms.problems.required)).toBeVisible();
  await page.getByLabel('Receipt').setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 receipt') });
  await expect(page.getByText(forms.problems.required)).toHaveCount(0);
  await axeAtBothWidths(page, 'public form with a file chosen');
});

test("the form's History names security levels, not numbers", async ({ page }) => {
  const saved = await apiCall(server, adminSession, 'PUT', `/forms/${form.formUuid}`, { ...CLAIM, mandatoryRecipients: [server.admin.email], securityLevel: SECURITY_LEVELS.LEVEL_2 });
  expect(saved.status, await saved.clone().text()).toBe(200);
  await signInToInbox(page, server, server.admin);
  await page.goto(`${server.url}/forms/${form.formUuid}`);
  await page.getByRole('tab', { name: formAdmin.tabs.history }).click();
  const level = (n: 1 | 2) => en.send.level[`level${n}`].title;
  await expect(page.getByRole('table', { name: formAdmin.history.title })).toContainText(`${formAdmin.history.fields.securityLevel}: ${level(1)} → ${level(2)}`);
});

test('an inbox row opens on a click anywhere in it, not only on its subject', async ({ page }) => {
  const sent = await apiSendDelivery(server, adminSession, { to: rita.email, subject: 'Quarterly figures', level: SECURITY_LEVELS.LEVEL_1, files: [{ name: 'figures.txt', bytes: new TextEncoder().encode('figures') }] });
  await signInToInbox(page, server, rita);
  const row = page.getByRole('row').filter({ hasText: 'Quarterly figures' });
  // The last cell holds no link: a click there opens the delivery all the same.
  await row.getByRole('cell').last().click();
  await expect(page).toHaveURL(new RegExp(sent.deliveryUuid));
});

test('licence: the menu item and the page read the same; a holder has the status of the users page', async ({ page }) => {
  // An invited licensed user (no password yet): "Invited" on both pages.
  const invited = await apiCall(server, adminSession, 'POST', '/admin/users', { email: 'ivy.invited@example.test', firstName: 'Ivy', language: 'en' });
  expect(invited.status, await invited.clone().text()).toBe(201);
  await signInToInbox(page, server, server.admin);
  await openAdminItem(page, server, en.shell.admin.items.license);
  await expect(page.getByRole('heading', { level: 1, name: admin.licence.title })).toBeVisible();
  expect(en.shell.admin.items.license).toBe(admin.licence.title);
  const senders = page.getByTestId('licence-senders');
  await expect(senders.getByRole('row').filter({ hasText: 'ivy.invited@example.test' }).getByText(admin.users.unverified, { exact: true })).toBeVisible();
  await expect(senders.getByRole('row').filter({ hasText: server.admin.email }).getByText(admin.users.enabled, { exact: true })).toBeVisible();
  await axeAtBothWidths(page, 'licence page');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/admin/users`);
  await page.getByLabel(admin.users.search).fill('ivy.invited');
  await expect(page.getByRole('row').filter({ hasText: 'ivy.invited@example.test' }).getByText(admin.users.unverified, { exact: true })).toBeVisible();
});

test.describe('installation wizard', () => {
  let fresh: TestServer;
  test.beforeAll(async () => {
    fresh = await startTestServer({ admin: false });
  });
  test.afterAll(async () => {
    await fresh?.close();
  });

  test('lists every problem at once and keeps what was typed', async ({ page }) => {
    const { ensureFirstAdmin } = await import('@server/setup/first-admin');
    const first = await ensureFirstAdmin(fresh.app, {});
    if (!('setupCode' in first)) throw new Error('expected the wizard to run');
    await page.goto(`${fresh.url}/webui/wizard?lang=en`);
    await page.getByLabel('Setup code').fill(first.setupCode);
    await page.getByLabel('Email address').fill('not-an-address');
    await page.getByLabel('Password', { exact: true }).fill('Wizard-Passw0rd');
    await page.getByLabel('Repeat password').fill('Wizard-Passw0rd');
    await page.getByRole('button', { name: 'Finish installation' }).click();
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('listitem')).toHaveCount(2); // organisation missing, address invalid
    await expect(page.getByLabel('Setup code')).toHaveValue(first.setupCode);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('Wizard-Passw0rd');
    await expect(page.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
    await axeAtBothWidths(page, 'wizard with errors');
    await page.getByLabel('Organisation name').fill('Acme');
    await page.getByLabel('Email address').fill('boss@acme.test');
    await page.getByRole('button', { name: 'Finish installation' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Installation finished' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
    await axeAtBothWidths(page, 'wizard finished');
  });
});
