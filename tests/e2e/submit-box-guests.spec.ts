// Submit-box guest tickets in the web client against the real server (issue 33 §3): the owner
// creates a ticket for a named person; its mailed link (the server's mailbox folder) is used once
// and the owner's list says "Used"; a second ticket is revoked and its link says so. axe on the
// owner's page and the revoked link's page.
import { expect, type Page } from '@playwright/test';
import { proveAddress } from '@tests/support/prove-address';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, signInToInbox, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const owner = { email: 'gina.guests@example.test', password: PASSWORD };
let server: TestServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: 1024 } });
  const admin = await apiSignIn(server, server.admin);
  const response = await apiCall(server, admin, 'POST', '/admin/users', {
    ...owner,
    firstName: 'Gina',
    lastName: 'Guests',
    language: 'en',
    roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SUBMITBOX_OWNER'],
  });
  expect(response.status, await response.clone().text()).toBe(201);
  await proveAddress(server, owner.email, owner.password);
  const session = await apiSignIn(server, owner);
  expect((await apiCall(server, session, 'PUT', '/submit-box', { active: true })).status).toBe(200);
});
test.afterAll(async () => {
  await server?.close();
});

async function createTicket(page: Page, email: string, subject: string) {
  const form = page.getByRole('form', { name: 'New guest ticket' });
  await form.getByRole('textbox', { name: 'Email address' }).fill(email);
  await form.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await form.getByRole('textbox', { name: 'Message' }).fill('Please send the signed offer.');
  await form.getByRole('spinbutton', { name: /Valid for/ }).fill('3');
  await form.getByRole('button', { name: 'Create and send ticket' }).click();
  await expect(page.getByText(`Guest ticket sent to ${email}.`).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('table', { name: 'Your guest tickets' }).getByRole('row', { name: new RegExp(email) })).toContainText('Unused');
}

test('a guest ticket is mailed, used once and listed as used; another is revoked and its link says so', async ({ page, browser }) => {
  const used = 'gus.guest@outside.test';
  const revoked = 'rita.revoked@outside.test';
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secumails/submit-box`);
  await expect(page.getByRole('heading', { name: 'Guest tickets' })).toBeVisible();
  await createTicket(page, used, 'Offer 2026');
  await createTicket(page, revoked, 'Offer 2027');
  await expectNoSeriousA11yViolations(page, 'submit box guest tickets');

  // The guest follows the mailed link and sends a message.
  const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(used));
  expect(mail.subject).toContain('Offer 2026');
  expect(mail.text).toContain('Please send the signed offer.');
  const guest = await browser.newContext();
  const guestPage = await guest.newPage();
  await guestPage.goto(extractLink(mail, '/submit/ticket#ticket=').href);
  await expect(guestPage.getByRole('heading', { name: 'Send files to Gina Guests' })).toBeVisible();
  await guestPage.getByRole('textbox', { name: 'Message' }).fill('Here is the offer.');
  await guestPage.locator('input[type=file]').setInputFiles([{ name: 'offer.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 offer') }]);
  await guestPage.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(guestPage.getByRole('heading', { name: 'Sent' })).toBeVisible();

  // The second ticket is revoked; its link says so.
  const list = page.getByRole('table', { name: 'Your guest tickets' });
  await page.getByRole('button', { name: `Revoke the ticket for ${revoked}` }).click();
  await expect(page.getByText(`The ticket for ${revoked} was revoked.`).first()).toBeVisible({ timeout: 30_000 });
  await expect(list.getByRole('row', { name: new RegExp(revoked) })).toContainText('Revoked');
  await page.reload();
  await expect(list.getByRole('row', { name: new RegExp(used) })).toContainText('Used');
  await expect(list.getByRole('row', { name: new RegExp(used) }).getByRole('button')).toHaveCount(0);

  const revokedMail = await waitForMailboxMail(server.mailboxDir, addressedTo(revoked));
  // A fresh page: the same path with another fragment would not load the page again.
  const revokedPage = await guest.newPage();
  await revokedPage.goto(extractLink(revokedMail, '/submit/ticket#ticket=').href);
  await expect(revokedPage.getByText('The owner of this submit box revoked this link. Please ask them for a new one.')).toBeVisible();
  await expectNoSeriousA11yViolations(revokedPage, 'revoked guest ticket');
  await guest.close();
});
