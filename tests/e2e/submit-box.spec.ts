// The submit box in the web client against the real server: the owner activates the box and copies
// its link; a partner without an account asks for a ticket on the public page, follows the mailed
// link (the server's mailbox folder), uploads two files with a message; the owner downloads both
// with the exact bytes (SHA-256). The used link then shows its status page. axe on every new screen.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page } from '@playwright/test';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import { proveAddress } from '@tests/support/prove-address';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, test } from './fixtures';
import { testFileBytes } from '@tests/support/files';

const PASSWORD = 'Good-Passw0rd-e2e';
const owner = { email: 'olga.owner@example.test', password: PASSWORD };
const partnerEmail = 'pat.partner@outside.test';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let server: TestServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: 1024 } });
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
});
test.afterAll(async () => {
  await server?.close();
});

async function signIn(page: Page) {
  await page.goto(`${server.url}/auth/login`);
  await page.getByLabel('Username or email').fill(owner.email);
  await page.getByLabel(/^Password/).fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/secumails\/inbox/);
}

async function downloadedSha256(page: Page, fileName: string): Promise<string> {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), page.getByLabel(`Download ${fileName}`).click()]);
  expect(download.suggestedFilename()).toBe(fileName);
  return sha256(await readFile(await download.path()));
}

test('a partner asks for a ticket, follows the mailed link and submits two files; the owner downloads them', async ({ page, browser }) => {
  const first = testFileBytes(5000);
  const second = testFileBytes(1500);

  // The owner: the menu entry opens the page; activate and read the link.
  await signIn(page);
  await page.getByRole('tab', { name: 'Submit box' }).click();
  await expect(page).toHaveURL(/\/secumails\/submit-box$/);
  await expect(page.getByRole('heading', { name: 'Submit box', level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'submit box (owner)');
  await page.getByRole('switch', { name: 'Submit box inactive' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The submit box settings were saved.').first()).toBeVisible();
  const link = await page.getByRole('textbox', { name: 'Link to your submit box' }).inputValue();
  expect(link).toMatch(new RegExp(`^${server.url}/submit/[0-9a-f-]{36}$`));
  await expect(page.getByRole('heading', { name: 'Send a ticket' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'submit box (owner, active)');

  // The partner, without an account.
  const partner = await browser.newContext();
  const partnerPage = await partner.newPage();
  await partnerPage.goto(link);
  await expect(partnerPage.getByRole('heading', { name: 'Send files to Olga Owner' })).toBeVisible();
  // Told before giving the address: it is kept as a submitter account without sign-in (issue 33 §2).
  await expect(partnerPage.getByText(/as a submitter account of this service.*cannot sign in/)).toBeVisible();
  await expectNoSeriousA11yViolations(partnerPage, 'submit box public page');
  await partnerPage.getByRole('button', { name: 'Send me the link' }).click();
  // Empty address: the field says so, nothing is sent.
  await expect(partnerPage.getByRole('textbox', { name: 'Your email address' })).toHaveAttribute('aria-invalid', 'true');
  await partnerPage.getByRole('textbox', { name: 'Your email address' }).fill(partnerEmail);
  await partnerPage.getByRole('button', { name: 'Send me the link' }).click();
  await expect(partnerPage.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(partnerPage.getByText(/within 5 minutes; otherwise please check your spam folder/)).toBeVisible();
  await expectNoSeriousA11yViolations(partnerPage, 'submit box ticket requested');

  const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(partnerEmail));
  // The ticket is in the link's fragment (issue 28); the page's calls send it in a header.
  const ticketLink = extractLink(mail, '/submit/ticket#ticket=');
  const ticket = new URLSearchParams(ticketLink.hash.slice(1)).get('ticket')!;
  const urls: string[] = [];
  partnerPage.on('request', (request) => void urls.push(request.url()));
  await partnerPage.goto(ticketLink.href);
  await expect(partnerPage.getByRole('heading', { name: 'Send files to Olga Owner' })).toBeVisible();
  await expectNoSeriousA11yViolations(partnerPage, 'submit ticket page');
  // The box allows levels 1 and 2: the partner may choose, the highest is preselected (issue 33 §2).
  const levels = partnerPage.getByRole('radiogroup', { name: 'Security level of your submission' });
  await expect(levels.getByRole('radio', { name: 'Level 2: sign-in required' })).toBeChecked();
  await levels.getByRole('radio', { name: 'Level 1: secure link' }).check();
  await partnerPage.getByRole('textbox', { name: 'Message' }).fill('The signed contract and a photo.');
  await partnerPage.locator('input[type=file]').setInputFiles([
    { name: 'contract.pdf', mimeType: 'application/pdf', buffer: first },
    { name: 'photo.bin', mimeType: 'application/octet-stream', buffer: second },
  ]);
  await expect(partnerPage.getByRole('list', { name: 'Chosen files' }).getByRole('listitem')).toHaveCount(2);
  await partnerPage.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(partnerPage.getByRole('heading', { name: 'Sent' })).toBeVisible();

  expect(urls.filter((url) => url.includes(ticket) && !url.includes('#'))).toEqual([]);

  // The used link: its status page — opened in the form mailed before issue 28 (ticket in the path),
  // which still works: the page moves the ticket into the fragment.
  await partnerPage.goto(`${server.url}/submit/ticket/${ticket}`);
  await expect(partnerPage.getByText('This link was used already. Ask for a new one on the submit box\'s page.')).toBeVisible();
  expect(partnerPage.url()).toBe(ticketLink.href);
  // …and the way back to the box, where a new link is asked for (issue 33 §2).
  await expect(partnerPage.getByRole('link', { name: "Ask for a new link on the submit box's page" })).toHaveAttribute('href', new URL(link).pathname);
  await expectNoSeriousA11yViolations(partnerPage, 'submit ticket used');
  await partner.close();

  // The owner downloads both files.
  const session = await apiSignIn(server, owner);
  const inbox = (await (await apiCall(server, session, 'GET', '/deliveries/inbox')).json()) as { items: Array<{ deliveryUuid: string; subject: string }> };
  const entry = inbox.items.find((item) => item.subject === `Submit box: submission from ${partnerEmail}`);
  expect(entry).toBeDefined();
  const sent = await server.app.db.selectFrom('deliveries').select('security_level').where('uuid', '=', entry!.deliveryUuid).executeTakeFirstOrThrow();
  expect(sent.security_level).toBe(0);
  await page.goto(`${server.url}/secumails/inbox/${entry!.deliveryUuid}`);
  await expect(page.getByText('The signed contract and a photo.')).toBeVisible();
  expect(await downloadedSha256(page, 'contract.pdf')).toBe(sha256(first));
  expect(await downloadedSha256(page, 'photo.bin')).toBe(sha256(second));
});
