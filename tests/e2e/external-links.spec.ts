// Bad, expired and deleted mail links (issue 13 item 13), in Chromium against the real server: the
// page says at once what is wrong — each case its own message — before asking for anything; a
// good link still asks for the address. Deliveries are sent through the API from Node and their
// links read from the mailbox folder, as a recipient gets them.
import { randomBytes } from 'node:crypto';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { DELIVERY_PATHS } from '@shared/contract/deliveries';
import type { Page } from '@playwright/test';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import { apiCall, apiSendDelivery, apiSignIn, en, expect, expectNoSeriousA11yViolations, serverPerFile, test, apiCreateAccount, screenshotsAtWidths } from './fixtures';
import { testFileBytes } from '@tests/support/files';

const alice = { email: 'alice.links@example.test', password: 'Good-Passw0rd-e2e' };
const t = en.external;
const holder = serverPerFile();

test.beforeAll(async () => {
  const admin = await apiSignIn(holder.server, holder.server.admin);
  await apiCreateAccount(holder.server, admin, alice);
});

async function sendWithLink(to: string, subject: string) {
  const { server } = holder;
  const sent = await apiSendDelivery(server, await apiSignIn(server, alice), { to, subject, level: SECURITY_LEVELS.LEVEL_1, files: [{ name: 'note.bin', bytes: testFileBytes(64) }] });
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(to)(m) && m.subject.includes(subject));
  return { sent, link: extractLink(mail, '/secumails/') };
}

/** The link page refuses at once: its title, the given message, and no address field. */
async function expectRefused(page: Page, message: string | RegExp, screen: string) {
  await expect(page.getByRole('heading', { level: 1, name: t.errors.linkRefusedTitle })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(message);
  await expect(page.getByLabel(t.emailPrompt.email)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, screen);
}


test('a good link asks for the address; a wrong token or a missing one is refused at once as invalid', async ({ page }) => {
  const { link } = await sendWithLink('lena.good@outside.test', 'Good link');
  await page.goto(link.toString());
  await expect(page.getByRole('heading', { level: 1, name: t.emailPrompt.title })).toBeVisible();
  await expect(page.getByLabel(t.emailPrompt.email)).toBeVisible();

  const wrong = new URL(link);
  wrong.hash = `token=${randomBytes(32).toString('base64url')}`;
  // Each link opened afresh, as from the mail (a fragment-only change would not load the page).
  await page.goto('about:blank');
  await page.goto(wrong.toString());
  await expectRefused(page, t.errors.linkInvalid, 'invalid link');
  await screenshotsAtWidths(page, 'recipient-link-invalid');

  const cut = new URL(link);
  cut.hash = '';
  await page.goto('about:blank');
  await page.goto(cut.toString());
  await expectRefused(page, t.errors.linkInvalid, 'link without token');
});

test('an expired delivery says so with its date, before asking anything', async ({ page }) => {
  const { sent, link } = await sendWithLink('mona.expired@outside.test', 'Expired link');
  // The delivery's validity ran out (set in the database: no waiting in tests).
  const expiredAt = Date.UTC(2026, 0, 15, 12, 0, 0);
  await holder.server.app.db.updateTable('deliveries').set({ expires_at: expiredAt }).where('uuid', '=', sent.deliveryUuid).execute();
  await page.goto(link.toString());
  await expectRefused(page, t.errors.linkExpiredOn.replace('{{date}}', 'January 15, 2026'), 'expired link');
  await screenshotsAtWidths(page, 'recipient-link-expired');
});

test('a deleted delivery says the sender deleted it — not "use your most recent email"', async ({ page }) => {
  const { server } = holder;
  const { sent, link } = await sendWithLink('nina.deleted@outside.test', 'Deleted link');
  const removed = await apiCall(server, await apiSignIn(server, alice), 'DELETE', DELIVERY_PATHS.one(sent.deliveryUuid));
  expect(removed.status, await removed.clone().text()).toBe(204);
  await page.goto(link.toString());
  await expectRefused(page, t.errors.linkDeleted, 'deleted link');
  await expect(page.getByText('most recent email')).toHaveCount(0);
  await screenshotsAtWidths(page, 'recipient-link-deleted');
});

test('a link check that cannot reach the server says so instead of a link verdict', async ({ page }) => {
  const { link } = await sendWithLink('olaf.offline@outside.test', 'Unreachable check');
  // The only interception: the network drops the link check (as an offline moment would).
  await page.route('**/api/2/shares/*/link-check', (route) => route.abort('internetdisconnected'));
  await page.goto(link.toString());
  await expectRefused(page, t.errors.linkCheckFailed, 'link check failed');
});
