// Receiving side of deliveries (levels 1/2) in the web client, against the real server: deliveries
// are created, uploaded and sent with the real API from Node (small parts), mails land in the
// server's mailbox folder. Proves: inbox list, search, filter, detail, download with the exact bytes
// (SHA-256), the sender's Sent page showing the download, the external level-1 link from the mail
// (anonymous, token in the fragment), level 2 signed out → sign-in → back, delete with confirmation,
// and axe on inbox, detail, sent and download pages.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page } from '@playwright/test';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { DeliveryDetail } from '@shared/contract/deliveries';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, axeBuilder, apiSendDelivery, apiSignIn as signInByApi, type ApiSession, test } from './fixtures';
import { proveAddress } from '@tests/support/prove-address';
import { testFileBytes } from '@tests/support/files';

/** Small parts so a few KiB make several (the config minimum). */
const PART_SIZE = 1024;
const PASSWORD = 'Good-Passw0rd-e2e';

let server: TestServer;

interface Account {
  email: string;
  password: string;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const alice: Account = { email: 'alice.sender@example.test', password: PASSWORD };
const bob: Account = { email: 'bob.recipient@example.test', password: PASSWORD };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await apiSignIn(server.admin);
  for (const [account, firstName, lastName] of [
    [alice, 'Alice', 'Sender'],
    [bob, 'Bob', 'Recipient'],
  ] as const) {
    const response = await api(admin, 'POST', '/admin/users', { email: account.email, password: account.password, firstName, lastName, language: 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, account.email, account.password);
  }
});
test.afterAll(async () => {
  await server?.close();
});

// ---- the real server's API, from Node ----

const apiSignIn = (account: Account) => signInByApi(server, account);
const api = (session: ApiSession, method: string, path: string, body?: unknown, headers?: Record<string, string>) => apiCall(server, session, method, path, body, headers);

/** Creates, uploads, commits and sends one delivery as `sender` (fixtures' apiSendDelivery). */
async function sendDelivery(sender: Account, options: { to: string; subject: string; level: number; files: { name: string; bytes: Uint8Array }[] }): Promise<DeliveryDetail> {
  return apiSendDelivery(server, await apiSignIn(sender), options);
}

// ---- the browser ----

async function fillSignIn(page: Page, account: Account) {
  await page.getByLabel('Username or email').fill(account.email);
  await page.getByLabel(/^Password/).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signIn(page: Page, account: Account) {
  await page.goto(`${server.url}/auth/login`);
  await fillSignIn(page, account);
  await expect(page).toHaveURL(/\/secumails\/inbox/);
}

async function downloadedSha256(page: Page, fileName: string): Promise<string> {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), page.getByLabel(`Download ${fileName}`).click()]);
  expect(download.suggestedFilename()).toBe(fileName);
  const path = await download.path();
  return sha256(await readFile(path));
}

/** tabster's focus sentinels are a documented Fluent false positive (web/README); serious and critical only. */
async function expectNoSeriousAxeViolations(page: Page) {
  const { violations } = await axeBuilder(page).disableRules(['aria-hidden-focus']).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

const rowsOf = (page: Page) => page.getByRole('table', { name: 'Received deliveries' }).getByRole('row');

test('inbox: search, filter, detail and download with the exact bytes; the sender sees the download', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const figures = testFileBytes(3 * PART_SIZE + 17);
  await sendDelivery(alice, { to: bob.email, subject: 'Quarterly figures', level: SECURITY_LEVELS.LEVEL_2, files: [{ name: 'figures.bin', bytes: figures }] });
  await sendDelivery(alice, { to: bob.email, subject: 'Holiday photos', level: SECURITY_LEVELS.LEVEL_2, files: [{ name: 'photos.bin', bytes: testFileBytes(900) }] });

  await signIn(page, bob);
  await expect(rowsOf(page)).toHaveCount(3); // header + 2
  await expect(page.getByText('1 to 2 of 2, page 1 of 1')).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // Search (typed key by key: one request after the pause, not one per keystroke), then a
  // search without result, then the filter.
  const searches: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('/deliveries/inbox') && url.searchParams.has('q')) searches.push(url.searchParams.get('q')!);
  });
  await page.getByRole('searchbox', { name: 'Search deliveries' }).pressSequentially('quarterly', { delay: 40 });
  await expect(rowsOf(page)).toHaveCount(2);
  // Not one request per keystroke: the last search is the whole word, and there are far fewer
  // than the 9 keystrokes (a busy machine may stall once between two keys for longer than the
  // 300 ms pause, so "exactly one" would test the machine, not the debounce).
  await expect.poll(() => searches.at(-1)).toBe('quarterly');
  expect(new Set(searches).size, searches.join(', ')).toBeLessThanOrEqual(3);
  await expect(page.getByRole('link', { name: 'Quarterly figures' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search deliveries' }).fill('no such thing');
  await expect(page.getByRole('heading', { name: 'No matching deliveries' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search deliveries' }).fill('');
  await expect(rowsOf(page)).toHaveCount(3);

  // Keyboard: the subject link is reachable and opens the detail.
  await page.getByRole('link', { name: 'Quarterly figures' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/secumails\/inbox\/[^/]+$/);
  await expect(page.getByRole('heading', { name: 'Quarterly figures' })).toBeVisible();
  await expect(page.getByText('Alice Sender <alice.sender@example.test>')).toBeVisible();
  await expect(page.getByText('Body of Quarterly figures')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Reply' })).toHaveAttribute('href', '/secumails/send?to=alice.sender%40example.test&subject=Re%3A+Quarterly+figures');
  await expectNoSeriousAxeViolations(page);
  expect(await downloadedSha256(page, 'figures.bin')).toBe(sha256(figures));

  // Not downloaded: only the other one is left.
  await page.getByRole('link', { name: 'Back to the inbox' }).click();
  await page.getByRole('tab', { name: 'Not downloaded' }).click();
  await expect(rowsOf(page)).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Holiday photos' })).toBeVisible();

  // The sender's Sent page: Bob downloaded it.
  const context = await browser.newContext();
  const senderPage = await context.newPage();
  await signIn(senderPage, alice);
  await senderPage.goto(`${server.url}/secumails/outbox`);
  await expect(senderPage.getByRole('table', { name: 'Sent deliveries' })).toBeVisible();
  await expectNoSeriousAxeViolations(senderPage);
  await senderPage.getByRole('link', { name: 'Quarterly figures' }).click();
  const recipients = senderPage.getByRole('table', { name: 'Recipients' });
  await expect(recipients.getByRole('row', { name: new RegExp(bob.email) })).toContainText('Downloaded on');
  await expect(senderPage.getByRole('table', { name: 'Activity log' })).toContainText('Downloaded');
  await expectNoSeriousAxeViolations(senderPage);
  // Resend once: then disabled.
  await senderPage.getByRole('button', { name: 'Resend notification' }).click();
  await expect(senderPage.getByText('The notification was sent again.')).toBeVisible();
  await expect(senderPage.getByRole('button', { name: 'Resend notification' })).toBeDisabled();
  await context.close();
});

test('an external level-1 recipient downloads anonymously from the mailed link', async ({ page }) => {
  const bytes = testFileBytes(2 * PART_SIZE + 5);
  const external = 'erin.external@example.test';
  const sent = await sendDelivery(alice, { to: external, subject: 'Contract draft', level: SECURITY_LEVELS.LEVEL_1, files: [{ name: 'contract.bin', bytes }] });
  const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(external));
  const link = extractLink(mail, '/secumails/');
  // Link holders start at the email prompt of their share (tests/e2e/external-recipient.spec.ts).
  const share = sent.recipients.find((r) => r.email === external)!.shareUuid;
  expect(link.pathname).toBe(`/secumails/en/email-prompt/${share}`);
  expect(link.hash).toMatch(/^#token=/);

  // The fragment never goes to the server: record every request URL.
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  await page.goto(link.toString());
  await page.getByLabel('Email address').fill(external);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Contract draft' })).toBeVisible();
  await expect(page.getByRole('complementary')).toContainText('Security level 1: secure link');
  await expectNoSeriousAxeViolations(page);
  expect(await downloadedSha256(page, 'contract.bin')).toBe(sha256(bytes));
  expect(urls.some((url) => url.includes('#'))).toBe(false);

  await page.getByRole('link', { name: 'Finish' }).click();
  await expect(page).toHaveURL(new RegExp(`/secumails/en/download-success/${sent.deliveryUuid}$`));
  await expect(page.getByRole('link', { name: 'Reply' })).toHaveAttribute('href', /to=alice\.sender%40example\.test/);

  // A wrong token: no access permission, never the delivery.
  await page.goto(`${server.url}/secumails/download.html?deliveryUuid=${sent.deliveryUuid}#token=wrong`);
  await expect(page.getByRole('alert')).toContainText(/no permission|not found/);
  await expect(page.getByRole('heading', { name: 'Contract draft' })).toHaveCount(0);
});

test('a level-2 link while signed out goes to the sign-in and back', async ({ page }) => {
  const sent = await sendDelivery(alice, { to: bob.email, subject: 'Level two memo', level: SECURITY_LEVELS.LEVEL_2, files: [{ name: 'memo.bin', bytes: testFileBytes(300) }] });
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(bob.email)(m) && m.text.includes(sent.deliveryUuid));
  const link = extractLink(mail, '/secumails/inbox/');
  await page.goto(link.toString());
  await expect(page).toHaveURL(/\/auth\/login\?continue=/);
  await fillSignIn(page, bob);
  await expect(page).toHaveURL(new RegExp(`/secumails/inbox/${sent.deliveryUuid}$`));
  await expect(page.getByRole('heading', { name: 'Level two memo' })).toBeVisible();

  // The public download page without a token, signed out: sign-in with continue, then the delivery.
  await page.context().clearCookies();
  await page.goto(`${server.url}/secumails/index.html?deliveryUuid=${sent.deliveryUuid}`);
  await expect(page).toHaveURL(/\/auth\/login\?continue=/);
  await fillSignIn(page, bob);
  await expect(page).toHaveURL(new RegExp(`/secumails/index\\.html\\?deliveryUuid=${sent.deliveryUuid}$`));
  await expect(page.getByRole('complementary')).toContainText('Security level 2: sign-in');
  await expectNoSeriousAxeViolations(page);
});

test('delete with confirmation removes the delivery from the inbox', async ({ page }) => {
  await sendDelivery(alice, { to: bob.email, subject: 'To be deleted', level: SECURITY_LEVELS.LEVEL_2, files: [{ name: 'gone.bin', bytes: testFileBytes(100) }] });
  await signIn(page, bob);
  await page.getByRole('link', { name: 'To be deleted' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete delivery?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // Until the closing dialog has left, its own Delete button is a second button of that name.
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'To be deleted' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/secumails\/inbox$/);
  await expect(page.getByRole('link', { name: 'Holiday photos' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'To be deleted' })).toHaveCount(0);
});
