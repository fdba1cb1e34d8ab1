// Email verification on first sign-in: the code comes from the mail in the server's mailbox
// folder; "Send a new code" mails a second one, which replaces the first.
import { addressedTo, extractVerificationCode, readMailbox, waitForMailboxMail, type MailboxMail } from '@tests/support/mailbox';
import { createUser, en, expect, expectInbox, serverPerFile, signIn, test, type TestServer } from './fixtures';

const ctx = serverPerFile();

async function mailsTo(server: TestServer, address: string, count: number): Promise<MailboxMail[]> {
  let mails: MailboxMail[] = [];
  await expect
    .poll(async () => {
      mails = (await readMailbox(server.mailboxDir)).filter(addressedTo(address));
      return mails.length;
    })
    .toBe(count);
  return mails;
}

test('an unverified user enters the code from the mail and is signed in; resend sends a second mail', async ({ page }) => {
  const { server } = ctx;
  const frank = await createUser(server, { username: 'frank', emailVerified: false });
  await signIn(page, server, frank);

  await expect(page).toHaveURL(`${server.url}/auth/account-verification`);
  await expect(page.getByRole('heading', { name: en.auth.verification.title })).toBeVisible();
  // The masked address the server reported.
  await expect(page.getByText(en.auth.verification.introWithEmail.replace('{{email}}', 'f***@example.test'))).toBeVisible();
  const first = await waitForMailboxMail(server.mailboxDir, addressedTo(frank.email));
  const firstCode = extractVerificationCode(first);

  // Resend: a second mail arrives, the page says so.
  await page.getByRole('button', { name: en.auth.verification.resend }).click();
  await expect(page.getByText(en.auth.verification.resent)).toBeVisible();
  const mails = await mailsTo(server, frank.email, 2);
  const secondCode = extractVerificationCode(mails[1]!);

  // A wrong code is refused with its message.
  const wrong = ['000000', '111111', '222222'].find((c) => c !== firstCode && c !== secondCode)!;
  await page.getByLabel(en.auth.verification.code).fill(wrong);
  await page.getByRole('button', { name: en.auth.verification.submit, exact: true }).click();
  await expect(page.getByText(en.auth.errors.invalidVerificationCode)).toBeVisible();
  await expect(page).toHaveURL(`${server.url}/auth/account-verification`);

  await page.getByLabel(en.auth.verification.code).fill(secondCode);
  await page.getByRole('button', { name: en.auth.verification.submit, exact: true }).click();
  await expectInbox(page, server);

  // Verified for good: the next sign-in goes straight to the inbox, no further mail.
  await page.context().clearCookies();
  await signIn(page, server, frank);
  await expectInbox(page, server);
  expect((await readMailbox(server.mailboxDir)).filter(addressedTo(frank.email))).toHaveLength(2);
});
