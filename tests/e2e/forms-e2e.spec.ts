// Web forms at level 3 in the browser against the real server (issue 16 §2): the forms
// administrator chooses level 3 in the Options tab and is told which recipient has no E2E; with
// only recipients who have a SecuPass the form saves. A visitor without an account fills it in with
// a file — the crypto Worker makes a throwaway SecuPass and encrypts the file and the entries
// (form-values.json) to the recipient's pinned key; the server stores ciphertext only. The
// recipient unlocks in the browser, downloads the exact bytes (SHA-256) and sees the entries.
// After a reset of the recipient's SecuPass the public page shows "passphrase not set".
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page } from '@playwright/test';
import { proveAddress } from '@tests/support/prove-address';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, en, expectNoSeriousA11yViolations, secuPassFromNode, signInToInbox, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const PASSPHRASE = 'Rita-Forms-SecuPass-Willow-38';
const builder = { email: 'fiona.e2e.forms@example.test', password: PASSWORD };
const recipient = { email: 'rita.e2e.recipient@example.test', password: PASSWORD };
const noPassphrase = { email: 'nora.nopass@example.test', password: PASSWORD };
const VALUE_MARKER = 'Paula-Marker-5b7e';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let server: TestServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: 1024 } });
  const admin = await apiSignIn(server, server.admin);
  for (const [user, roleNames] of [
    [builder, ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS']],
    [recipient, ['ROLE_UI_USER', 'ROLE_RECEIVER']],
    [noPassphrase, ['ROLE_UI_USER', 'ROLE_RECEIVER']],
  ] as const) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { ...user, firstName: 'E2e', lastName: 'User', language: 'en', licensed: true, roleNames });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, user.email, user.password);
  }
  await secuPassFromNode(server, recipient, PASSPHRASE);
});
test.afterAll(async () => {
  await server?.close();
});

/** The unlock dialog of the inbox detail, then the decrypted download. */
async function decryptAndDownload(page: Page, name: string): Promise<string> {
  await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'memory'));
  await page.getByRole('button', { name: 'Enter passphrase and decrypt' }).click();
  const dialog = page.getByRole('dialog', { name: en.secupass.unlock.title.decrypt });
  await dialog.getByLabel(/^Passphrase/).fill(PASSPHRASE);
  await dialog.getByRole('button', { name: en.secupass.unlock.submit.decrypt }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  const button = page.getByRole('button', { name: `Download ${name}` });
  await expect(button).toBeVisible({ timeout: 30_000 });
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe(name);
  return sha256(await readFile((await download.path())!));
}

test('level 3: the visitor encrypts file and entries in the browser; the recipient decrypts both', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const bytes = randomBytes(150 * 1024 + 7);

  // The administrator: level 3 with a recipient without E2E is refused, naming that recipient.
  await signInToInbox(page, server, builder);
  await page.goto(`${server.url}/forms/new`);
  await expect(page.getByRole('heading', { name: 'New form', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill('Encrypted intake');
  await page.getByRole('textbox', { name: /^URL/ }).fill('encrypted-intake');
  await page.getByRole('switch', { name: 'Active' }).check();
  await page.getByRole('combobox', { name: 'Security level' }).selectOption({ label: 'Level 3 – encrypted attachments' });
  await expect(page.getByText(/the submitter's browser encrypts the files and the entries/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Mandatory recipients' }).fill(`${recipient.email}\n${noPassphrase.email}`);
  await page.getByRole('tab', { name: 'Custom fields' }).click();
  await page.getByRole('button', { name: 'Add field' }).click();
  await page.getByRole('textbox', { name: 'Field name' }).nth(0).fill('Full name');
  await page.getByRole('checkbox', { name: 'Required' }).nth(0).check();
  await page.getByRole('button', { name: 'Add field' }).click();
  await page.getByRole('textbox', { name: 'Field name' }).nth(1).fill('Document');
  await page.getByRole('combobox', { name: 'Type' }).nth(1).selectOption('file');
  await page.getByRole('spinbutton', { name: 'Maximum file size (kB)' }).fill('1000');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Without: ${noPassphrase.email}`).first()).toBeVisible();
  await page.getByRole('tab', { name: 'Options' }).click();
  await expect(page.getByText(`Without: ${noPassphrase.email}`).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'form options (level 3 refused)');
  await page.getByRole('textbox', { name: 'Mandatory recipients' }).fill(recipient.email);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved').first()).toBeVisible();
  const linkText = await page.getByRole('link', { name: /^Public link: / }).textContent();
  const link = linkText!.replace(/^Public link: /, '');

  // The visitor, without an account: encrypted in the browser, with progress.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(link);
  await expect(visitorPage.getByRole('heading', { name: 'Encrypted intake' })).toBeVisible();
  await expect(visitorPage.getByText('Your entries and files are encrypted in this browser for the recipients. The server cannot read them.')).toBeVisible();
  await expectNoSeriousA11yViolations(visitorPage, 'public form (level 3)');
  await visitorPage.getByRole('textbox', { name: /Full name/ }).fill(VALUE_MARKER);
  await visitorPage.getByLabel('Document').setInputFiles({ name: 'scan.bin', mimeType: 'application/octet-stream', buffer: bytes });
  await visitorPage.getByRole('button', { name: 'Submit' }).click();
  await expect(visitorPage.getByRole('heading', { name: 'Thank you' })).toBeVisible({ timeout: 60_000 });
  await visitor.close();

  // Ciphertext only: the file and form-values.json are encrypted; the value is nowhere in the database.
  const stored = await server.app.db.selectFrom('delivery_files').select(['encrypted', 'name']).orderBy('name').execute();
  expect(stored).toEqual([
    { encrypted: 1, name: 'form-values.json' },
    { encrypted: 1, name: 'scan.bin' },
  ]);
  const deliveries = await server.app.db.selectFrom('deliveries').select(['uuid', 'subject', 'body']).execute();
  expect(JSON.stringify(deliveries)).not.toContain(VALUE_MARKER);

  // The recipient unlocks like any E2E delivery: exact bytes, and the entries decrypted.
  const session = await apiSignIn(server, recipient);
  const inbox = (await (await apiCall(server, session, 'GET', '/deliveries/inbox')).json()) as { items: Array<{ deliveryUuid: string; subject: string }> };
  const entry = inbox.items.find((item) => item.subject === 'Form "Encrypted intake": new submission');
  expect(entry).toBeDefined();
  const reader = await browser.newContext();
  const readerPage = await reader.newPage();
  await signInToInbox(readerPage, server, recipient);
  await readerPage.goto(`${server.url}/secumails/inbox/${entry!.deliveryUuid}`);
  expect(await decryptAndDownload(readerPage, 'scan.bin')).toBe(sha256(bytes));
  const values = readerPage.getByTestId('form-values');
  await expect(values).toContainText('Full name');
  await expect(values).toContainText(VALUE_MARKER);
  await expect(values).toContainText('scan.bin');
  await expectNoSeriousA11yViolations(readerPage, 'form submission opened (level 3)');
  await reader.close();

  // The recipient's SecuPass is reset after the save: the public page says "passphrase not set".
  const me = (await (await apiCall(server, session, 'GET', '/user')).json()) as { user: { uuid: string } };
  const admin = await apiSignIn(server, server.admin);
  const reset = await apiCall(server, admin, 'POST', `/admin/users/${me.user.uuid}/secupass/reset`, {});
  expect(reset.status, await reset.clone().text()).toBe(204);
  const later = await browser.newContext();
  const laterPage = await later.newPage();
  await laterPage.goto(link);
  await expect(laterPage.getByText('A recipient of this form has not set a passphrase. Please tell the operator of this form.')).toBeVisible();
  await expectNoSeriousA11yViolations(laterPage, 'public form (passphrase not set)');
  await later.close();
});
