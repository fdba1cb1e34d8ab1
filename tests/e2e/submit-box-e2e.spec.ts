// The submit box at level 3 in the browser against the real server (issue 16 §1): the owner (with a
// SecuPass) chooses level 3 and switches the notification off on the owner page; a partner without an account asks for a ticket,
// follows the mailed link and submits a file and a message — the crypto Worker makes a throwaway
// SecuPass and encrypts to the owner's key; the server stores ciphertext only. The owner unlocks in
// the browser and downloads the decrypted file with the exact bytes (SHA-256). Level 4: subject and
// message only in the encrypted manifest, shown to the owner after decrypting. axe on the new states.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page } from '@playwright/test';
import { addressedTo, extractLink, readMailbox, waitForMailboxMail } from '../support/mailbox';
import { proveAddress } from '@tests/support/prove-address';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, en, expectNoSeriousA11yViolations, secuPassFromNode, signInToInbox, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const PASSPHRASE = 'Olga-Submit-SecuPass-Quartz-91';
const owner = { email: 'olga.e2e.owner@example.test', password: PASSWORD };
const partnerEmail = 'pat.e2e.partner@outside.test';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let server: TestServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  const response = await apiCall(server, admin, 'POST', '/admin/users', {
    ...owner,
    firstName: 'Olga',
    lastName: 'Owner',
    language: 'en',
    roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SUBMITBOX_OWNER'],
  });
  expect(response.status, await response.clone().text()).toBe(201);
  await proveAddress(server, owner.email, owner.password);
  await secuPassFromNode(server, owner, PASSPHRASE);
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

test('level 3: the partner submits encrypted from the browser; the owner decrypts the exact bytes', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const bytes = randomBytes(200 * 1024 + 5);

  // The owner chooses level 3 (possible: a SecuPass is active) and activates the box.
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secumails/submit-box`);
  await expect(page.getByRole('heading', { name: 'Submit box', level: 1 })).toBeVisible();
  await page.getByRole('switch', { name: 'Submit box inactive' }).check();
  await page.getByRole('checkbox', { name: 'Level 3: end-to-end encrypted files' }).check();
  // The notification off: the submission is only in the inbox, no mail.
  await page.getByRole('switch', { name: 'Email me about each submission' }).uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The submit box settings were saved.').first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Email me about each submission' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Level 3: end-to-end encrypted files' })).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'submit box (owner, level 3)');
  const link = await page.getByRole('textbox', { name: 'Link to your submit box' }).inputValue();

  // The partner, without an account.
  const partner = await browser.newContext();
  const partnerPage = await partner.newPage();
  await partnerPage.goto(link);
  await partnerPage.getByRole('textbox', { name: 'Your email address' }).fill(partnerEmail);
  await partnerPage.getByRole('button', { name: 'Send me the link' }).click();
  await expect(partnerPage.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  const ticketLink = extractLink(await waitForMailboxMail(server.mailboxDir, addressedTo(partnerEmail)), '/submit/ticket#ticket=');
  await partnerPage.goto(ticketLink.href);
  await expect(partnerPage.getByRole('heading', { name: 'Send files to Olga Owner' })).toBeVisible();
  await expect(partnerPage.getByText('Your files are encrypted in this browser before they leave it; only Olga Owner can open them.')).toBeVisible();
  await expectNoSeriousA11yViolations(partnerPage, 'submit ticket page (level 3)');
  await partnerPage.getByRole('textbox', { name: 'Message' }).fill('The encrypted figures.');
  await partnerPage.locator('input[type=file]').setInputFiles([{ name: 'figures.bin', mimeType: 'application/octet-stream', buffer: bytes }]);
  await partnerPage.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(partnerPage.getByRole('heading', { name: 'Sent' })).toBeVisible({ timeout: 60_000 });
  await partner.close();

  // The send answered after the mailer ran: no mail to the owner (notification off).
  expect((await readMailbox(server.mailboxDir)).filter(addressedTo(owner.email)).filter((m) => m.subject.includes(partnerEmail))).toEqual([]);

  // Ciphertext only on the server.
  const stored = await server.app.db.selectFrom('delivery_files').select(['encrypted', 'name']).where('name', '=', 'figures.bin').execute();
  expect(stored).toEqual([{ encrypted: 1, name: 'figures.bin' }]);

  // The owner opens the submission with the SecuPass and gets identical bytes.
  const session = await apiSignIn(server, owner);
  const inbox = (await (await apiCall(server, session, 'GET', '/deliveries/inbox')).json()) as { items: Array<{ deliveryUuid: string; subject: string }> };
  const entry = inbox.items.find((item) => item.subject === `Submit box: submission from ${partnerEmail}`);
  expect(entry).toBeDefined();
  await page.goto(`${server.url}/secumails/inbox/${entry!.deliveryUuid}`);
  await expect(page.getByText('The encrypted figures.')).toBeVisible();
  expect(await decryptAndDownload(page, 'figures.bin')).toBe(sha256(bytes));
});

test('level 4: the message travels only encrypted; the owner reads it after decrypting', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const bytes = randomBytes(3000);
  const partner4 = 'pia.level4@outside.test';
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secumails/submit-box`);
  await page.getByRole('checkbox', { name: 'Level 4: end-to-end encrypted files and message' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The submit box settings were saved.').first()).toBeVisible();
  const link = await page.getByRole('textbox', { name: 'Link to your submit box' }).inputValue();

  const partner = await browser.newContext();
  const partnerPage = await partner.newPage();
  await partnerPage.goto(link);
  await partnerPage.getByRole('textbox', { name: 'Your email address' }).fill(partner4);
  await partnerPage.getByRole('button', { name: 'Send me the link' }).click();
  await expect(partnerPage.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  const ticketLink = extractLink(await waitForMailboxMail(server.mailboxDir, addressedTo(partner4)), '/submit/ticket#ticket=');
  await partnerPage.goto(ticketLink.href);
  await expect(partnerPage.getByText('Your files and your message are encrypted in this browser before they leave it; only Olga Owner can open them.')).toBeVisible();
  await partnerPage.getByRole('textbox', { name: 'Message' }).fill('Only Olga reads this.');
  await partnerPage.locator('input[type=file]').setInputFiles([{ name: 'secret.bin', mimeType: 'application/octet-stream', buffer: bytes }]);
  await partnerPage.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(partnerPage.getByRole('heading', { name: 'Sent' })).toBeVisible({ timeout: 60_000 });
  await partner.close();

  // Neither subject nor message in clear on the server.
  const row = await server.app.db.selectFrom('deliveries').select(['uuid', 'subject', 'body']).where('security_level', '=', 30).executeTakeFirstOrThrow();
  expect(row).toMatchObject({ subject: '', body: '' });
  await page.goto(`${server.url}/secumails/inbox/${row.uuid}`);
  expect(await decryptAndDownload(page, 'secret.bin')).toBe(sha256(bytes));
  await expect(page.getByText('Only Olga reads this.')).toBeVisible();
  await expect(page.getByText(`Submit box: submission from ${partner4}`).first()).toBeVisible();
});
