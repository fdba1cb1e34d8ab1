// The external recipient's path in the browser against the real server: a sender (created via the
// API) sends level 1 and level 2 deliveries to outside addresses; the recipient follows the link
// from the mail file → email prompt (a wrong address first) → download disclaimer → (level 2)
// signup with the SMS code read from the mailbox folder → delivery view → download with the exact
// bytes (SHA-256) → success with Reply. axe on every screen. Declining the disclaimer leaves.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import type { Download, Page } from '@playwright/test';
import { addressedTo, extractLink, extractSmsCode, readMailboxSms, waitForMailboxMail, waitForSms } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSendDelivery, apiSignIn, en, expect, expectNoSeriousA11yViolations, setSettingsAsAdmin, test } from './fixtures';
import { proveAddress } from '@tests/support/prove-address';
import { testFileBytes } from '@tests/support/files';

/** Small parts so a few KiB make several (the config minimum). */
const PART_SIZE = 1024;
const alice = { email: 'alice.sender@example.test', password: 'Good-Passw0rd-e2e' };
const DISCLAIMER = 'Files of this delivery are confidential and meant for the recipient only.';
const t = en.external;

let server: TestServer;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await apiSignIn(server, server.admin);
  const created = await apiCall(server, admin, 'POST', '/admin/users', { ...alice, firstName: 'Alice', lastName: 'Sender', language: 'en' });
  expect(created.status, await created.clone().text()).toBe(201);
  await proveAddress(server, alice.email, alice.password);
  await setSettingsAsAdmin(server, { [EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled]: true, [`${EXTERNAL_SETTING_KEYS.downloadDisclaimerText}.en`]: DISCLAIMER });
});
test.afterAll(async () => {
  await server?.close();
});

async function send(to: string, subject: string, level: number, bytes: Uint8Array, phoneNumbers?: Record<string, string>) {
  const sent = await apiSendDelivery(server, await apiSignIn(server, alice), { to, subject, level, files: [{ name: 'offer.bin', bytes }], phoneNumbers });
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(to)(m) && m.subject.includes(subject));
  return { sent, link: extractLink(mail, '/secumails/') };
}

/** The email prompt: a wrong address is refused clearly, the right one goes on. */
async function passEmailPrompt(page: Page, link: URL, email: string) {
  await page.goto(link.toString());
  await expect(page.getByRole('heading', { level: 1, name: t.emailPrompt.title })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'email prompt');
  await page.getByLabel(t.emailPrompt.email).fill('someone.else@example.test');
  await page.getByRole('button', { name: t.emailPrompt.submit }).click();
  await expect(page.getByText(t.errors.emailMismatch)).toBeVisible();
  await page.getByLabel(t.emailPrompt.email).fill(email);
  await page.getByRole('button', { name: t.emailPrompt.submit }).click();
}

async function acceptDisclaimer(page: Page, deliveryUuid: string) {
  await expect(page).toHaveURL(new RegExp(`/secumails/en/download-disclaimer/${deliveryUuid}$`));
  await expect(page.getByRole('heading', { level: 1, name: t.disclaimer.title })).toBeVisible();
  await expect(page.getByText(DISCLAIMER)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'download disclaimer');
  await page.getByRole('button', { name: t.disclaimer.accept }).click();
}

/** Delivery view → download (bit-exact) → success page with Reply. */
async function downloadAndFinish(page: Page, subject: string, levelTitle: string, bytes: Uint8Array, deliveryUuid: string) {
  await expect(page.getByRole('heading', { name: subject })).toBeVisible();
  await expect(page.getByRole('complementary')).toContainText(levelTitle);
  await expectNoSeriousA11yViolations(page, 'delivery view');
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), page.getByLabel('Download offer.bin').click()]);
  expect(download.suggestedFilename()).toBe('offer.bin');
  expect(sha256(await readFile(await download.path()))).toBe(sha256(bytes));
  await page.getByRole('link', { name: en.deliveries.download.finish }).click();
  await expect(page).toHaveURL(new RegExp(`/download-success/${deliveryUuid}$`));
  await expect(page.getByRole('heading', { level: 1, name: en.deliveries.download.successTitle })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'download success');
  // Reply: the send page prefilled with the sender and "Re: subject".
  const reply = new URL((await page.getByRole('link', { name: en.deliveries.actions.reply }).getAttribute('href'))!, server.url);
  expect(reply.pathname).toBe('/secumails/send');
  expect(reply.searchParams.get('to')).toBe(alice.email);
  expect(reply.searchParams.get('subject')).toBe(`Re: ${subject}`);
}

test('level 1: email prompt → disclaimer → delivery → bit-exact download → success', async ({ page }) => {
  const to = 'uma.level1@outside.test';
  const bytes = testFileBytes(2 * PART_SIZE + 17);
  const { sent, link } = await send(to, 'Offer level one', SECURITY_LEVELS.LEVEL_1, bytes);
  expect(link.pathname).toMatch(/^\/secumails\/en\/email-prompt\/[0-9a-f-]{36}$/);
  // The token travels in the fragment only: no request URL ever carries it.
  const token = new URLSearchParams(link.hash.slice(1)).get('token')!;
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));

  await passEmailPrompt(page, link, to);
  await acceptDisclaimer(page, sent.deliveryUuid);
  await expect(page).toHaveURL(new RegExp(`/secumails/en/download\\?deliveryUuid=${sent.deliveryUuid}`));
  await downloadAndFinish(page, 'Offer level one', en.deliveries.securityLevel.level1.title, bytes, sent.deliveryUuid);
  expect(urls.filter((url) => url.includes(token)).filter((url) => !/\/content\?token=/.test(url))).toEqual([]);
});

test('declining the disclaimer leaves without opening the delivery', async ({ page }) => {
  const to = 'walt.decline@outside.test';
  const { sent, link } = await send(to, 'Declined offer', SECURITY_LEVELS.LEVEL_1, testFileBytes(100));
  await passEmailPrompt(page, link, to);
  await expect(page).toHaveURL(new RegExp(`/download-disclaimer/${sent.deliveryUuid}$`));
  await page.getByRole('button', { name: t.disclaimer.decline }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.disclaimer.declinedTitle })).toBeVisible();
  await expect(page.getByText(t.disclaimer.declined)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Declined offer' })).toHaveCount(0);
});

test('level 2 with a phone number: signup with the SMS code from the mailbox folder → delivery → download → success', async ({ page }) => {
  const to = 'vera.level2@outside.test';
  const phone = '+491705550123';
  const bytes = testFileBytes(3 * PART_SIZE + 1);
  const { sent, link } = await send(to, 'Offer level two', SECURITY_LEVELS.LEVEL_2, bytes, { [to]: '+49 170 5550123' });

  await passEmailPrompt(page, link, to);
  await acceptDisclaimer(page, sent.deliveryUuid);
  // The double-authenticated variant of the signup (SMS code).
  await expect(page).toHaveURL(new RegExp(`/auth/delivery-signup-dar\\?deliveryUuid=${sent.deliveryUuid}$`));
  await expect(page.getByRole('heading', { level: 1, name: t.signup.title })).toBeVisible();
  await expect(page.getByLabel(t.signup.email)).toHaveValue(to);
  await expectNoSeriousA11yViolations(page, 'delivery signup');

  // The password policy is checked before anything is sent.
  const seenSms = new Set((await readMailboxSms(server.mailboxDir)).map((s) => s.id));
  await page.getByLabel(t.signup.firstName).fill('Vera');
  await page.getByRole('textbox', { name: en.common.password.new, exact: true }).fill('short');
  await page.getByLabel(en.common.password.confirm).fill('short');
  await page.getByRole('button', { name: t.signup.sendCode }).click();
  await expect(page.getByText(en.common.validation.passwordPolicy)).toBeVisible();
  await page.getByRole('textbox', { name: en.common.password.new, exact: true }).fill('Outside-Passw0rd-1');
  await page.getByLabel(en.common.password.confirm).fill('Outside-Passw0rd-1');
  await page.getByRole('button', { name: t.signup.sendCode }).click();

  // The SMS code screen: resend waits for its cool-down.
  await expect(page.getByRole('heading', { level: 1, name: t.sms.title })).toBeVisible();
  await expect(page.getByText('•••123')).toBeVisible();
  await expect(page.getByRole('button', { name: /New code in \d+ seconds?/ })).toBeDisabled();
  await expectNoSeriousA11yViolations(page, 'SMS code');
  const sms = await waitForSms(server.mailboxDir, phone, { seen: seenSms });
  const code = extractSmsCode(sms);
  await page.getByLabel(t.sms.code).fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: t.sms.submit }).click();
  await expect(page.getByText('The code is not correct. 4 tries left.')).toBeVisible();
  await page.getByLabel(t.sms.code).fill(code);
  await page.getByRole('button', { name: t.sms.submit }).click();

  // Signed in as the new account and on to the delivery.
  await expect(page).toHaveURL(new RegExp(`/secumails/en/download\\?deliveryUuid=${sent.deliveryUuid}`));
  await downloadAndFinish(page, 'Offer level two', en.deliveries.securityLevel.level2.title, bytes, sent.deliveryUuid);
});
