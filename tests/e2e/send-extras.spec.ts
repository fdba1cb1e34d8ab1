// Send page follow-ups against the real server in Chromium: the recipient chip warnings (not
// registered; no passphrase at level 3) from POST /deliveries/recipient-status, the changed-key
// confirmation at level 3 (an admin SecuPass reset + a new passphrase of the recipient: Cancel
// sends nothing, Confirm sends), and the phone-number dialog for the SMS signup with the Sent alert.
import { expect, type Page } from '@playwright/test';
import { EXTERNAL_PATHS, EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import { SECUPASS_PATHS } from '@shared/contract/secupass';
import { addressedTo, extractLink, waitForMailboxMail, waitForSms } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import {
  apiCall,
  apiSignIn,
  expectAppRootNotHidden,
  expectNoSeriousA11yViolations,
  locale,
  nodeClient,
  openSendPage,
  recipientsInput,
  secuPassFromNode,
  setSettingsAsAdmin,
  signInToInbox,
  type ApiSession,
  test,
} from './fixtures';
import { proveAddress } from '@tests/support/prove-address';

const PASSWORD = 'Good-Passw0rd-e2e';
const ALICE_PASSPHRASE = 'Alice-Extras-SecuPass-Quartz-61';
const send = locale<typeof import('@locales/en/send.json')>('en', 'send');
const deliveries = locale<typeof import('@locales/en/deliveries.json')>('en', 'deliveries');
const alice = { email: 'alice.extras@example.test', password: PASSWORD };
const bob = { email: 'bob.extras@example.test', password: PASSWORD };
const dave = { email: 'dave.nokey@example.test', password: PASSWORD };

let server: TestServer;
let admin: ApiSession;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  admin = await apiSignIn(server, server.admin);
  for (const account of [alice, bob, dave]) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { email: account.email, password: account.password, language: 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, account.email, account.password);
  }
  await secuPassFromNode(server, alice, ALICE_PASSPHRASE);
  await secuPassFromNode(server, bob, 'Bob-Extras-SecuPass-Lantern-62');
});
test.afterAll(async () => {
  await server?.close();
});

async function fillForm(page: Page, recipients: string, subject: string) {
  const input = recipientsInput(page);
  await input.fill(recipients);
  await input.press('Enter');
  await page.getByRole('textbox', { name: send.subject.label }).fill(subject);
  await page.getByRole('textbox', { name: send.body.label }).fill('Hello, see the message.');
}

const warning = (page: Page, text: string) => page.locator('li[data-warning]').filter({ hasText: text });

async function inboxCount(account: { email: string; password: string }): Promise<number> {
  const session = await apiSignIn(server, account);
  return ((await (await apiCall(server, session, 'GET', '/deliveries/inbox')).json()) as { total?: number; items: unknown[] }).items.length;
}

test('chip warnings: not registered for an unknown address, no passphrase (only at level 3) for a user without one', async ({ page }) => {
  await signInToInbox(page, server, alice);
  await openSendPage(page, server);
  await fillForm(page, `nobody.here@example.test, ${dave.email}, ${bob.email}`, 'Warnings');
  const notRegistered = send.recipients.notRegisteredWarning.replace('{{address}}', 'nobody.here@example.test');
  const noPassphrase = send.recipients.noPassphraseWarning.replace('{{address}}', dave.email);
  await expect(warning(page, notRegistered)).toBeVisible();
  await expect(warning(page, noPassphrase)).toHaveCount(0);
  await page.getByRole('radio', { name: new RegExp(send.level.level3.title) }).check();
  await expect(warning(page, noPassphrase)).toBeVisible();
  // Bob is registered and has a passphrase: no warning for him.
  await expect(page.locator('li[data-warning]').filter({ hasText: bob.email })).toHaveCount(0);
  await expect(page.getByRole('img', { name: `${send.recipients.notRegisteredChip}, ${send.recipients.noPassphraseChip}` })).toBeVisible();
  await page.getByRole('radio', { name: new RegExp(send.level.level2.title) }).check();
  await expect(warning(page, noPassphrase)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'send page with chip warnings');
});

test('changed key: the dialog shows old and new fingerprint; Cancel sends nothing, Confirm pins the new key and sends', async ({ page }) => {
  // Argon2id unlock in the browser plus two level-3 sends on a shared 2-core machine.
  test.setTimeout(180_000);
  await signInToInbox(page, server, alice);
  const sendLevel3 = async (subject: string) => {
    await openSendPage(page, server);
    await fillForm(page, bob.email, subject);
    await page.getByRole('radio', { name: new RegExp(send.level.level3.title) }).check();
    await page.getByRole('button', { name: send.submit, exact: true }).click();
  };
  const unlock = async () => {
    const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to encrypt and send' });
    await dialog.getByLabel(/^Passphrase/).fill(ALICE_PASSPHRASE);
    await dialog.getByRole('button', { name: 'Unlock' }).click();
    await expect(dialog).toBeHidden({ timeout: 60_000 });
  };

  // First send pins Bob's key (first use).
  await sendLevel3('Pinned first');
  await unlock();
  await expect(page.getByRole('heading', { name: send.success.title })).toBeVisible({ timeout: 60_000 });
  expect(await inboxCount(bob)).toBe(1);

  // An administrator resets Bob's SecuPass; Bob sets a new one: a changed key for Alice.
  const { userUuid: bobUuid } = await nodeClient(server, bob);
  const reset = await apiCall(server, admin, 'POST', SECUPASS_PATHS.adminReset(bobUuid));
  expect(reset.status).toBe(204);
  await secuPassFromNode(server, bob, 'Bob-Extras-New-SecuPass-Harbour-63');

  await sendLevel3('After the reset');
  await unlock(); // the page was loaded again: the keys live in memory only
  const dialog = page.getByRole('alertdialog', { name: deliveries.changedKey.title });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByText(deliveries.changedKey.compare)).toBeVisible();
  const oldPrint = (await dialog.getByTestId('changed-key-old').innerText()).trim();
  const newPrint = (await dialog.getByTestId('changed-key-new').innerText()).trim();
  expect(oldPrint).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/);
  expect(newPrint).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/);
  expect(newPrint).not.toBe(oldPrint);
  await expectNoSeriousA11yViolations(page, 'changed key dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('region', { name: send.progress.label }).getByText(send.errors.keyChanged)).toBeVisible();
  await expectAppRootNotHidden(page);
  expect(await inboxCount(bob)).toBe(1);

  // Again: confirm → sent to the new key.
  await page.getByRole('button', { name: send.submit, exact: true }).click();
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByTestId('changed-key-new')).toHaveText(newPrint);
  await dialog.getByRole('button', { name: send.changedKeyConfirm }).click();
  await expect(page.getByRole('heading', { name: send.success.title })).toBeVisible({ timeout: 60_000 });
  await expectAppRootNotHidden(page);
  expect(await inboxCount(bob)).toBe(2);
});

test('phone numbers: asked before sending when the SMS signup applies; missing ones show in Sent and can be added; the SMS goes to that number', async ({ page }) => {
  test.setTimeout(120_000); // two sends and a signup: over a minute on a busy 2-core machine
  await setSettingsAsAdmin(server, { [EXTERNAL_SETTING_KEYS.signupRequiresSms]: true });
  try {
    const outsider = 'olga.outside@example.test';
    await signInToInbox(page, server, alice);
    await openSendPage(page, server);
    await fillForm(page, outsider, 'Needs a phone');
    await page.getByRole('radio', { name: new RegExp(send.level.level2.title) }).check();
    await expect(page.getByRole('button', { name: send.phoneNumbers.button })).toBeVisible();
    await page.getByRole('button', { name: send.submit, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: deliveries.phoneNumbers.title });
    await expect(dialog).toBeVisible();
    const field = dialog.getByRole('textbox', { name: deliveries.phoneNumbers.label.replace('{{email}}', outsider) });
    await field.fill('12345');
    await dialog.getByRole('button', { name: deliveries.phoneNumbers.saveAndSend }).click();
    await expect(dialog.getByText(deliveries.phoneNumbers.invalid)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'phone numbers dialog');
    // Left empty: sent without a number; Sent then says it is missing.
    await field.fill('');
    await dialog.getByRole('button', { name: deliveries.phoneNumbers.saveAndSend }).click();
    await expect(page.getByRole('heading', { name: send.success.title })).toBeVisible({ timeout: 30_000 });

    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(outsider)(m) && m.text.includes('/email-prompt/'));
    const link = extractLink(mail, '/secumails/');
    const shareUuid = /email-prompt\/([0-9a-f-]{36})$/.exec(link.pathname)![1]!;
    const token = new URLSearchParams(link.hash.slice(1)).get('token')!;
    const sessionAlice = await apiSignIn(server, alice);
    const sent = (await (await apiCall(server, sessionAlice, 'GET', '/deliveries/sent')).json()) as { items: Array<{ deliveryUuid: string; subject: string }> };
    const deliveryUuid = sent.items.find((d) => d.subject === 'Needs a phone')!.deliveryUuid;

    await page.goto(`${server.url}/secumails/outbox/${deliveryUuid}`);
    const alert = page.getByText(deliveries.phoneNumbers.missingText.replace('{{recipients}}', outsider));
    await expect(alert).toBeVisible();
    await page.getByRole('button', { name: deliveries.phoneNumbers.add }).click();
    const later = page.getByRole('dialog', { name: deliveries.phoneNumbers.title });
    await later.getByRole('textbox', { name: deliveries.phoneNumbers.label.replace('{{email}}', outsider) }).fill('+49 170 7654321');
    await later.getByRole('button', { name: deliveries.phoneNumbers.save }).click();
    await expect(later).toBeHidden();
    await expect(alert).toBeHidden();
    await expectAppRootNotHidden(page);

    // The external recipient's signup now sends the code to that number.
    const asked = await fetch(`${server.url}/api/2${EXTERNAL_PATHS.smsCode(shareUuid)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: outsider, token }),
    });
    expect(asked.status, await asked.clone().text()).toBe(200);
    await waitForSms(server.mailboxDir, '+491707654321');

    // A second send with the number entered before sending: no alert in Sent.
    await openSendPage(page, server);
    const second = 'paul.outside@example.test';
    await fillForm(page, second, 'Phone before send');
    await page.getByRole('radio', { name: new RegExp(send.level.level2.title) }).check();
    await page.getByRole('button', { name: send.submit, exact: true }).click();
    await dialog.getByRole('textbox', { name: deliveries.phoneNumbers.label.replace('{{email}}', second) }).fill('+49 151 2223334');
    await dialog.getByRole('button', { name: deliveries.phoneNumbers.saveAndSend }).click();
    await expect(page.getByRole('heading', { name: send.success.title })).toBeVisible({ timeout: 30_000 });
    await expectAppRootNotHidden(page);
    const sentAgain = (await (await apiCall(server, sessionAlice, 'GET', '/deliveries/sent')).json()) as { items: Array<{ deliveryUuid: string; subject: string }> };
    const secondUuid = sentAgain.items.find((d) => d.subject === 'Phone before send')!.deliveryUuid;
    const detail = (await (await apiCall(server, sessionAlice, 'GET', `/deliveries/${secondUuid}`)).json()) as { recipients: Array<{ email: string; phoneNumberMissing?: boolean }> };
    expect(detail.recipients.find((r) => r.email === second)?.phoneNumberMissing).toBe(false);
  } finally {
    await setSettingsAsAdmin(server, { [EXTERNAL_SETTING_KEYS.signupRequiresSms]: false });
  }
});
