// Flows in the web client against the real server: a forms administrator turns on a form's
// process service (webhook to an in-process receiver, the secret shown once), an anonymous visitor
// submits the form, the receiver gets the signed hand-off, and a Flows user (ROLE_SECUFLOWS_ACCESS)
// sees it "Delivered" with its JSON. The forms administrator has no Flows entry. axe on each screen.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { FLOW_WEBHOOK_HEADERS, FlowWebhookBodySchema } from '@shared/contract/flows';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { proveAddress } from '@tests/support/prove-address';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from '@tests/support/webhook-receiver';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const builder = { email: 'fiona.flows@example.test', password: PASSWORD };
const viewer = { email: 'vera.flows@example.test', password: PASSWORD };
const recipient = { email: 'rita.flows@example.test', password: PASSWORD };

let server: TestServer;
let receiver: WebhookReceiver;
let receiverUrl: string;
let received: ReceivedHook[];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ({ url: receiverUrl, received } = receiver);
  // The loopback receiver through the operator's allow-list (KUVERT_OUTBOUND_ALLOW, KUVERT_OUTBOUND_ALLOW_HTTP).
  server = await startTestServer({ config: { uploadPartSize: 1024, outboundAllow: ['127.0.0.1'], outboundAllowHttp: true } });
  const admin = await apiSignIn(server, server.admin);
  for (const [user, roleNames] of [
    [builder, ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS']],
    [viewer, ['ROLE_UI_USER', 'ROLE_RECEIVER', 'ROLE_SECUFLOWS_ACCESS']],
    [recipient, ['ROLE_UI_USER', 'ROLE_RECEIVER']],
  ] as const) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { ...user, firstName: 'E2e', lastName: 'User', language: 'en', licensed: true, roleNames });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, user.email, user.password);
  }
});
test.afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto(`${server.url}/auth/login`);
  await page.getByLabel('Username or email').fill(user.email);
  await page.getByLabel(/^Password/).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/secumails\/inbox/);
}

test('a form hands its submission to a webhook; the Flows page shows it delivered with its JSON', async ({ page, browser }) => {
  const session = await apiSignIn(server, builder);
  const created = await apiCall(server, session, 'POST', '/forms', {
    name: 'Damage claim',
    url: 'damage-claim',
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: [recipient.email],
    customFields: [{ name: 'Full name', type: 'text', required: true, textAreaSize: 1 }],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const form = (await created.json()) as { formUuid: string; link: string };

  // The forms administrator: the Process service tab; no Flows entry in the menu.
  await signIn(page, builder);
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Flows' })).toHaveCount(0);
  await page.goto(`${server.url}/forms/${form.formUuid}`);
  await page.getByRole('tab', { name: 'Process service' }).click();
  // One Save on this tab, its own (issue 33 §2): the form's Save would save nothing here.
  await expect(page.getByRole('button', { name: /Save/ })).toHaveCount(1);
  await page.getByRole('switch', { name: 'Hand submissions to a process service' }).check();
  await page.getByRole('textbox', { name: /^Webhook URL/ }).fill(receiverUrl);
  await page.getByRole('button', { name: 'Save process service' }).click();
  await expect(page.getByText('Create the shared secret first.')).toBeVisible();
  await page.getByRole('button', { name: 'Create new secret' }).click();
  const secretBox = page.getByRole('textbox', { name: /Copy this secret now/ });
  await expect(secretBox).toHaveValue(/^whsec_/);
  const secret = await secretBox.inputValue();
  // An internal address (here the cloud metadata service) is refused with words, not saved.
  await page.getByRole('textbox', { name: /^Webhook URL/ }).fill('https://169.254.169.254/latest/meta-data/');
  await page.getByRole('button', { name: 'Save process service' }).click();
  await expect(page.getByText(/This address points into an internal network/)).toBeVisible();
  await page.getByRole('textbox', { name: /^Webhook URL/ }).fill(receiverUrl);
  await page.getByRole('button', { name: 'Save process service' }).click();
  await expect(page.getByText('The process service is saved.').first()).toBeVisible();
  await expect(page.getByText(/A secret exists/)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'form process service tab');

  // An anonymous visitor submits the form.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(form.link);
  await visitorPage.getByRole('textbox', { name: /Full name/ }).fill('Paula Partner');
  await visitorPage.getByRole('button', { name: 'Submit' }).click();
  await expect(visitorPage.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await visitor.close();

  // The Flows user: the menu entry, the hand-off delivered, its JSON.
  const flowsContext = await browser.newContext();
  const flowsPage = await flowsContext.newPage();
  await signIn(flowsPage, viewer);
  await flowsPage.getByRole('navigation').getByRole('link', { name: 'Flows' }).first().click();
  await expect(flowsPage).toHaveURL(/\/flows$/);
  await expect(flowsPage.getByRole('heading', { name: 'Flows', level: 1 })).toBeVisible();
  const row = flowsPage.getByRole('row', { name: /Damage claim/ });
  await expect(async () => {
    await flowsPage.reload();
    await expect(row.getByText('Delivered')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await row.getByRole('button', { name: 'Show JSON' }).click();
  const json = flowsPage.getByRole('region', { name: 'JSON of the submission to Damage claim' });
  await expect(json).toContainText('"value": "Paula Partner"');
  await expect(json).toContainText('"schema": "https://kuvert.example/schemas/form-submission/v1.json"');
  await expectNoSeriousA11yViolations(flowsPage, 'flows page with JSON');
  await flowsPage.getByRole('searchbox', { name: /Search/ }).fill('nobody-wrote-this');
  await expect(flowsPage.getByText('No submission has been handed to a process service yet.')).toBeVisible();
  await flowsContext.close();

  // The receiver got exactly this hand-off, signed with the secret shown once.
  expect(received).toHaveLength(1);
  const [hook] = received;
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(hook!.headers[FLOW_WEBHOOK_HEADERS.signature]));
  expect(match).not.toBeNull();
  const expected = createHmac('sha256', secret).update(`${match![1]}.${hook!.body}`).digest();
  expect(timingSafeEqual(expected, Buffer.from(match![2]!, 'hex'))).toBe(true);
  const body = FlowWebhookBodySchema.parse(JSON.parse(hook!.body));
  expect(body.submission?.fields).toEqual([{ name: 'Full name', type: 'text', value: 'Paula Partner' }]);
});
