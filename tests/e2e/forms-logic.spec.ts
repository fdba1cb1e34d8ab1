// Conditional fields, number and rating fields, the response summary and the webhook delivery log
// in Chromium (issue 33 §3): the owner builds the form in the editor, a visitor without an account
// sees the conditional field come and go, meets the number's range on the page, rates by keyboard
// and submits; the owner's Submissions tab sums it up. On the Process service tab "Send test" and a
// failing hand-off's "Send again" go to a real local receiver. One server for the file.
import { expect, type Page } from '@playwright/test';
import type { FlowAttemptList } from '@shared/contract/flow-attempts';
import { startWebhookReceiver, type WebhookReceiver } from '@tests/support/webhook-receiver';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiCreateAccount, apiSignIn, expectNoSeriousA11yViolations, signInToInbox, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const builder = { email: 'fiona.logic@example.test', password: PASSWORD, licensed: true, roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'] };
const recipient = { email: 'rita.logic@example.test', password: PASSWORD, licensed: true, roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'] };

let server: TestServer;
let receiver: WebhookReceiver;
let formUuid = '';
let link = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // One attempt per hand-off, so a failing receiver fails it at once; the loopback receiver is allow-listed.
  server = await startTestServer({ config: { webhookAttempts: 1, outboundAllow: ['127.0.0.1'], outboundAllowHttp: true } });
  const admin = await apiSignIn(server, server.admin);
  for (const account of [builder, recipient]) await apiCreateAccount(server, admin, account);
});
test.afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const signIn = (page: Page) => signInToInbox(page, server, builder);

/** Adds a field at the end of the custom-fields tab and returns its card (named by the field). */
async function addField(page: Page, name: string, type: string) {
  await page.getByRole('button', { name: 'Add field' }).click();
  await page.getByRole('textbox', { name: 'Field name' }).last().fill(name);
  const card = page.getByRole('group', { name, exact: true });
  await card.getByRole('combobox', { name: 'Type' }).selectOption(type);
  return card;
}

test('the owner builds conditions, a number and a rating; the visitor meets them; the summary counts them', async ({ page, browser }) => {
  await signIn(page);
  await page.goto(`${server.url}/forms`);
  await page.getByRole('button', { name: 'New form' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Service survey');
  await page.getByRole('textbox', { name: /^URL/ }).fill('service-survey');
  await page.getByRole('switch', { name: 'Active' }).check();
  await page.getByRole('textbox', { name: 'Mandatory recipients' }).fill(recipient.email);

  await page.getByRole('tab', { name: 'Custom fields' }).click();
  const age = await addField(page, 'Age', 'number');
  await age.getByRole('spinbutton', { name: 'Smallest value' }).fill('18');
  await age.getByRole('spinbutton', { name: 'Largest value' }).fill('99');
  await age.getByRole('checkbox', { name: 'Whole numbers only' }).check();
  const stars = await addField(page, 'Service', 'rating');
  await expect(stars.getByRole('combobox', { name: 'Number of stars' })).toHaveValue('5');
  // Ten stars: the widest rating, checked at 390 px below (issue 33 §6).
  await stars.getByRole('combobox', { name: 'Number of stars' }).selectOption('10');
  const contact = await addField(page, 'Contact', 'radio');
  await contact.getByRole('textbox', { name: 'Selection values (one per line)' }).fill('Phone\nMail');
  const phone = await addField(page, 'Phone number', 'text');
  await phone.getByRole('combobox', { name: 'Show only when this earlier field' }).selectOption('Contact');
  await expect(phone.getByRole('combobox', { name: 'Condition' })).toHaveValue('equals');
  await phone.getByRole('textbox', { name: 'Values (one per line)' }).fill('Phone');
  await phone.getByRole('checkbox', { name: 'Required' }).check();
  await expectNoSeriousA11yViolations(page, 'form editor with number, rating and condition');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved').first()).toBeVisible();
  // The toast can come before the editor moves from /forms/new to the saved form's address.
  await expect(page).toHaveURL(/\/forms\/[0-9a-f-]{36}/);
  formUuid = /\/forms\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  link = (await page.getByRole('link', { name: /^Public link: / }).textContent())!.replace(/^Public link: /, '');

  // The visitor, without an account, on a phone's width (the editor and the summary run at 1280 px).
  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const form = await visitor.newPage();
  await form.goto(link);
  await expect(form.getByRole('heading', { name: 'Service survey' })).toBeVisible();
  const phoneBox = form.getByRole('textbox', { name: /Phone number/ });
  await expect(phoneBox).toHaveCount(0);
  const contactGroup = form.getByRole('radiogroup', { name: 'Contact' });
  await contactGroup.getByText('Phone', { exact: true }).click();
  await expect(phoneBox).toBeVisible();
  await contactGroup.getByText('Mail', { exact: true }).click();
  await expect(phoneBox).toHaveCount(0);
  await contactGroup.getByText('Phone', { exact: true }).click();
  await phoneBox.fill('+49 30 1234567');

  // The number's range, from the page's own check (the browser's is off: the page names the range).
  const ageBox = form.getByRole('spinbutton', { name: 'Age' });
  await ageBox.fill('150');
  // The rating by keyboard: Tab reaches the group, the arrows move the choice.
  await form.getByRole('radio', { name: '1 of 10 stars' }).focus();
  await form.keyboard.press('Space');
  for (let i = 0; i < 3; i++) await form.keyboard.press('ArrowRight');
  await expect(form.getByRole('radio', { name: '4 of 10 stars' })).toBeChecked();
  // All ten stars fit the width: nothing scrolls sideways.
  expect(await form.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoSeriousA11yViolations(form, 'public form with condition, number and rating');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Please enter a number from 18 to 99')).toBeVisible();
  await expect(ageBox).toBeFocused();
  await expectNoSeriousA11yViolations(form, 'public form with a number out of range');
  await ageBox.fill('42');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await visitor.close();

  // The owner's summary on the Submissions tab.
  await page.getByRole('tab', { name: 'Submissions' }).click();
  const summary = page.getByRole('region', { name: 'Summary of 1 submission' });
  await expect(summary).toBeVisible();
  await expect(summary.getByRole('region', { name: 'Age' })).toContainText('Smallest 42, average 42, largest 42');
  const service = summary.getByRole('region', { name: 'Service' });
  await expect(service.getByRole('row', { name: '4 1' })).toBeVisible();
  await expect(service.getByRole('row', { name: '3 0' })).toBeVisible();
  const contactSummary = summary.getByRole('region', { name: 'Contact' });
  await expect(contactSummary.getByRole('row', { name: 'Phone 1' })).toBeVisible();
  await expect(contactSummary.getByRole('row', { name: 'Mail 0' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'form submissions with summary');
});

test('the webhook delivery log: "Send test" lists the attempt, a failing hand-off is sent again', async ({ page, browser }) => {
  // Sign-in, editor, a visitor's submission and two trips through the job queue: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto(`${server.url}/forms/${formUuid}`);
  // A click while the page was still settling once left the tab unopened (CI): click until its content is there.
  const handOff = page.getByRole('switch', { name: 'Hand submissions to a process service' });
  await expect(async () => {
    await page.getByRole('tab', { name: 'Process service' }).click();
    await expect(handOff).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await handOff.check();
  await page.getByRole('textbox', { name: /^Webhook URL/ }).fill(receiver.url);
  await page.getByRole('button', { name: 'Create new secret' }).click();
  await expect(page.getByRole('textbox', { name: /Copy this secret now/ })).toHaveValue(/^whsec_/);
  await page.getByRole('button', { name: 'Save process service' }).click();
  await expect(page.getByText('The process service is saved.').first()).toBeVisible({ timeout: 30_000 });
  const log = page.getByRole('table', { name: 'Webhook delivery log' });
  await expect(page.getByText('Nothing has been sent to the webhook yet.')).toBeVisible();

  // A test that arrives, then one the receiver refuses: each a row with its status and result.
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(log.getByRole('row').filter({ hasText: 'Test' }).filter({ hasText: '200' }).filter({ hasText: 'Delivered' })).toHaveCount(1);
  receiver.script.push(500);
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(log.getByRole('row').filter({ hasText: 'Test' }).filter({ hasText: '500' }).filter({ hasText: 'Failed' })).toHaveCount(1);
  expect(receiver.received).toHaveLength(2);

  // A submission whose one attempt fails (KUVERT_WEBHOOK_ATTEMPTS=1 here), then "Send again".
  receiver.script.push(503);
  const visitor = await browser.newContext();
  const form = await visitor.newPage();
  await form.goto(link);
  await form.getByRole('radiogroup', { name: 'Contact' }).getByText('Mail', { exact: true }).click();
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await visitor.close();
  // The hand-off goes out from the job queue once the delivery is sent: asked through the API, then the page reloaded once.
  const session = await apiSignIn(server, builder);
  await expect
    .poll(async () => ((await (await apiCall(server, session, 'GET', `/forms/${formUuid}/process-service/attempts`)).json()) as FlowAttemptList).items.some((a) => a.handOffState === 'failed'), { timeout: 20_000 })
    .toBe(true);
  await page.reload();
  await page.getByRole('tab', { name: 'Process service' }).click();
  const failedRow = log.getByRole('row').filter({ hasText: 'Submission' }).filter({ hasText: '503' });
  await expect(failedRow).toContainText('Failed');
  await expectNoSeriousA11yViolations(page, 'process service tab with the delivery log');
  await failedRow.getByRole('button', { name: 'Send again' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The hand-off is queued again.' })).toBeVisible();
  // The log looks again while the hand-off is pending: the new attempt arrives delivered.
  await expect(log.getByRole('row').filter({ hasText: 'Submission' }).filter({ hasText: '200' }).filter({ hasText: 'Delivered' })).toHaveCount(1, { timeout: 20_000 });
  expect(receiver.received).toHaveLength(4);
});
