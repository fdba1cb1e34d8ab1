// Fluent dialogs closed every way the app closes them leave no aria-hidden on the app root (a
// dialog unmounted while open would): the unlock dialog (cancelled, and unlocked before a level 3
// send), the phone-numbers dialog (cancelled twice, saved; send-extras covers "save and send"), the delete confirmation
// (cancelled, and confirmed, which leaves the page).
import { expect, type Page } from '@playwright/test';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import { startTestServer, type TestServer } from '../support/server';
import {
  apiCall,
  apiSendDelivery,
  apiSignIn,
  en,
  expectAppRootNotHidden,
  locale,
  openSendPage,
  recipientsInput,
  secuPassFromNode,
  setSettingsAsAdmin,
  signInToInbox,
  test,
} from './fixtures';
import { proveAddress } from '@tests/support/prove-address';
import { testFileBytes } from '@tests/support/files';

const PASSWORD = 'Good-Passw0rd-e2e';
const PASSPHRASE = 'Alice-Dialogs-SecuPass-Harbour-52';
const alice = { email: 'alice.dialogs@example.test', password: PASSWORD };
const bob = { email: 'bob.dialogs@example.test', password: PASSWORD };
const secupass = locale<typeof import('@locales/en/secupass.json')>('en', 'secupass');
const { send, deliveries } = en;

let server: TestServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const account of [alice, bob]) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { email: account.email, password: account.password, language: 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, account.email, account.password);
  }
  await secuPassFromNode(server, alice, PASSPHRASE);
});
test.afterAll(async () => {
  await server?.close();
});

async function fillForm(page: Page, to: string, subject: string, level: string) {
  await recipientsInput(page).fill(`${to},`);
  await page.getByRole('textbox', { name: send.subject.label }).fill(subject);
  await page.getByRole('textbox', { name: send.body.label }).fill('Hello.');
  await page.getByRole('radio', { name: level }).check();
}

test('unlock dialog: cancelled, then unlocked before a level 3 send', async ({ page }) => {
  await signInToInbox(page, server, alice);
  await openSendPage(page, server);
  await fillForm(page, bob.email, 'Dialogs level 3', send.level.level3.title);
  const dialog = page.getByRole('dialog', { name: secupass.unlock.title.send });

  await page.getByRole('button', { name: send.submit, exact: true }).click();
  await expect(dialog).toBeVisible();
  // While a modal dialog is open the rest of the page is hidden: what the checks below look for.
  await expect(page.locator('#root')).toHaveAttribute('aria-hidden', 'true');
  await dialog.getByRole('button', { name: en.common.actions.cancel }).click();
  await expectAppRootNotHidden(page);
  await expect(page.getByRole('heading', { level: 1, name: send.title })).toBeVisible();

  await page.getByRole('button', { name: send.submit, exact: true }).click();
  await dialog.getByLabel(/^Passphrase/).fill(PASSPHRASE);
  await dialog.getByRole('button', { name: secupass.unlock.submit.send }).click();
  await expect(page.getByRole('heading', { name: send.success.title })).toBeVisible({ timeout: 60_000 });
  await expectAppRootNotHidden(page);
});

test('phone-numbers dialog: cancelled from its button and before sending, saved', async ({ page }) => {
  await setSettingsAsAdmin(server, { [EXTERNAL_SETTING_KEYS.signupRequiresSms]: true });
  try {
    const outsider = 'olga.dialogs@example.test';
    await signInToInbox(page, server, alice);
    await openSendPage(page, server);
    await fillForm(page, outsider, 'Dialogs phone', send.level.level2.title);
    const dialog = page.getByRole('dialog', { name: deliveries.phoneNumbers.title });
    const field = dialog.getByRole('textbox', { name: deliveries.phoneNumbers.label.replace('{{email}}', outsider) });

    // Opened from its button, cancelled.
    await page.getByRole('button', { name: send.phoneNumbers.button }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: en.common.actions.cancel }).click();
    await expectAppRootNotHidden(page);

    // Asked before sending, cancelled: nothing is sent.
    await page.getByRole('button', { name: send.submit, exact: true }).click();
    await expect(dialog.getByRole('button', { name: deliveries.phoneNumbers.saveAndSend })).toBeVisible();
    await dialog.getByRole('button', { name: en.common.actions.cancel }).click();
    await expectAppRootNotHidden(page);
    await expect(page.getByRole('heading', { level: 1, name: send.title })).toBeVisible();

    // Saved from its button; then sending asks no more.
    await page.getByRole('button', { name: send.phoneNumbers.button }).click();
    await field.fill('+49 170 1234567');
    await dialog.getByRole('button', { name: deliveries.phoneNumbers.save, exact: true }).click();
    await expectAppRootNotHidden(page);
    await page.getByRole('button', { name: send.submit, exact: true }).click();
    await expect(page.getByRole('heading', { name: send.success.title })).toBeVisible({ timeout: 30_000 });
    await expectAppRootNotHidden(page);
  } finally {
    await setSettingsAsAdmin(server, { [EXTERNAL_SETTING_KEYS.signupRequiresSms]: false });
  }
});

test('delete confirmation: cancelled, then confirmed (the page goes back to the list)', async ({ page }) => {
  await apiSendDelivery(server, await apiSignIn(server, bob), { to: alice.email, subject: 'Dialogs delete', level: SECURITY_LEVELS.LEVEL_2, files: [{ name: 'x.bin', bytes: testFileBytes(50) }] });
  await signInToInbox(page, server, alice);
  await page.getByRole('link', { name: 'Dialogs delete' }).click();
  const dialog = page.getByRole('dialog', { name: deliveries.delete.title });

  await page.getByRole('button', { name: deliveries.actions.delete, exact: true }).click();
  await dialog.getByRole('button', { name: en.common.actions.cancel }).click();
  await expectAppRootNotHidden(page);

  await page.getByRole('button', { name: deliveries.actions.delete, exact: true }).click();
  await dialog.getByRole('button', { name: deliveries.delete.confirm }).click();
  await expect(page).toHaveURL(/\/secumails\/inbox$/);
  await expectAppRootNotHidden(page);
});
