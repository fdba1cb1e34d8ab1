// Choice fields and text templates on a published form, as a visitor meets them (issue 33 §1.1,
// §1.2): every option of a checkbox group, a radio group and a dropdown has its own id and
// accessible name, so a click on a label ticks exactly that option and the submission stores it;
// a text template fills `{field:<name>}` live as the visitor types, and the recipient's record
// (the delivery's message, written by the server from the submitted values) holds it filled.
import { expect } from '@playwright/test';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiCreateAccount, apiSignIn, expectNoSeriousA11yViolations, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const builder = { email: 'fiona.choices@example.test', password: PASSWORD, licensed: true, roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'] };
const recipient = { email: 'rita.choices@example.test', password: PASSWORD, licensed: true, roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'] };

let server: TestServer;

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const account of [builder, recipient]) await apiCreateAccount(server, admin, account);
});
test.afterAll(async () => {
  await server?.close();
});

/** The recipient's record of the one submission: the delivery's message. */
async function submittedRecord(subject: string): Promise<string> {
  const session = await apiSignIn(server, recipient);
  await expect
    .poll(async () => ((await (await apiCall(server, session, 'GET', '/deliveries/inbox')).json()) as { items: Array<{ subject: string }> }).items.some((i) => i.subject === subject))
    .toBe(true);
  const inbox = (await (await apiCall(server, session, 'GET', '/deliveries/inbox')).json()) as { items: Array<{ deliveryUuid: string; subject: string }> };
  const entry = inbox.items.find((item) => item.subject === subject)!;
  return ((await (await apiCall(server, session, 'GET', `/deliveries/${entry.deliveryUuid}`)).json()) as { body: string }).body;
}

test('each option of each choice field is its own control; a text template fills in live and is stored filled', async ({ page }) => {
  const session = await apiSignIn(server, builder);
  const created = await apiCall(server, session, 'POST', '/forms', {
    name: 'Claim choices',
    url: 'claim-choices',
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: [recipient.email],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Consent', type: 'checkbox', options: ['Newsletter', 'Terms accepted', 'Phone calls'] },
      { name: 'Topic', type: 'radio', options: ['Sales', 'Billing', 'Support'] },
      { name: 'Channel', type: 'dropdown', options: ['Mail', 'Phone', 'Letter'] },
      { name: 'Summary', type: 'textTemplate', defaultValue: '{field:Full name} about {field:Topic}' },
    ],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const form = (await created.json()) as { formUuid: string };

  await page.goto(`${server.url}/form/${form.formUuid}`);
  await expect(page.getByRole('heading', { name: 'Claim choices' })).toBeVisible();
  // Nothing typed yet: the placeholders fill in empty, never raw.
  await expect(page.getByText('about', { exact: true })).toBeVisible();
  await expect(page.getByText(/\{field:/)).toHaveCount(0);

  // Every option control has an id of its own.
  const ids = await page.locator('form input[type="checkbox"], form input[type="radio"]').evaluateAll((inputs) => inputs.map((i) => i.id));
  expect(ids).toHaveLength(6);
  expect(new Set(ids).size).toBe(6);
  expect(ids.every((id) => id !== '')).toBe(true);

  // Checkbox group: named by its own label, each click on a label ticks exactly that box.
  const consent = page.getByRole('group', { name: 'Consent' });
  await expect(consent.getByRole('checkbox')).toHaveCount(3);
  await consent.getByText('Terms accepted', { exact: true }).click();
  await expect(consent.getByRole('checkbox', { name: 'Terms accepted' })).toBeChecked();
  await expect(consent.getByRole('checkbox', { name: 'Newsletter' })).not.toBeChecked();
  await expect(consent.getByRole('checkbox', { name: 'Phone calls' })).not.toBeChecked();
  await consent.getByText('Phone calls', { exact: true }).click();
  await consent.getByText('Newsletter', { exact: true }).click();
  await consent.getByText('Newsletter', { exact: true }).click();
  await expect(consent.getByRole('checkbox', { name: 'Newsletter' })).not.toBeChecked();
  await expect(consent.getByRole('checkbox', { name: 'Phone calls' })).toBeChecked();

  // Radio group and dropdown: a label click chooses that option.
  const topic = page.getByRole('radiogroup', { name: 'Topic' });
  await topic.getByText('Support', { exact: true }).click();
  await topic.getByText('Billing', { exact: true }).click();
  await expect(topic.getByRole('radio', { name: 'Billing' })).toBeChecked();
  await expect(topic.getByRole('radio', { name: 'Support' })).not.toBeChecked();
  await page.getByRole('combobox', { name: 'Channel' }).selectOption({ label: 'Phone' });

  // The text template follows the typing.
  await page.getByRole('textbox', { name: /Full name/ }).fill('Paula Partner');
  await expect(page.getByText('Paula Partner about Billing', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'public form with choice fields');

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();

  const record = await submittedRecord('Form "Claim choices": new submission');
  expect(record.split('\n')).toEqual(['Full name: Paula Partner', 'Consent: Terms accepted, Phone calls', 'Topic: Billing', 'Channel: Phone', 'Paula Partner about Billing']);
});
