// Who may send what, in Chromium against the real server: an unlicensed sender sees the notice and,
// after sending to an unregistered address, the SenderNotLicensedException message naming it; a
// member of a sender group is offered only the group's levels, the first one chosen; the
// administrator manages groups and licences on the users page with the keyboard.
import { expect } from '@playwright/test';
import { SENDER_GROUP_PATHS } from '@shared/contract/sender-groups';
import { startTestServer, type TestServer } from '../support/server';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import { apiCall, apiSendDelivery, apiSignIn, expectNoSeriousA11yViolations, locale, openSendPage, signIn, signInToInbox, type ApiSession, test } from './fixtures';
import { proveAddress } from '@tests/support/prove-address';

const PASSWORD = 'Good-Passw0rd-e2e';
const send = locale<typeof import('@locales/en/send.json')>('en', 'send');
const adminText = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const uma = { email: 'uma.unlicensed@example.test', password: PASSWORD };
const gina = { email: 'gina.group@example.test', password: PASSWORD };
const ole = { email: 'ole.outsider@example.test', password: PASSWORD };

let server: TestServer;
let admin: ApiSession;

test.describe.configure({ mode: 'serial' });

async function userUuid(email: string): Promise<string> {
  const response = await apiCall(server, admin, 'GET', `/admin/users?q=${encodeURIComponent(email)}`);
  const body = (await response.json()) as { users: Array<{ uuid: string; email: string }> };
  return body.users.find((u) => u.email === email)!.uuid;
}

test.beforeAll(async () => {
  server = await startTestServer();
  admin = await apiSignIn(server, server.admin);
  for (const account of [uma, gina]) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { email: account.email, password: account.password, language: 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, account.email, account.password);
  }
  // An outsider as delivery signup makes them: receives, may only reply.
  const outsider = await apiCall(server, admin, 'POST', '/admin/users', {
    email: ole.email,
    password: ole.password,
    language: 'en',
    roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER', 'ROLE_SENDER_EXTERNAL'],
  });
  expect(outsider.status, await outsider.clone().text()).toBe(201);
  await proveAddress(server, ole.email, ole.password);
  expect((await apiCall(server, admin, 'PATCH', SENDER_GROUP_PATHS.userSender(await userUuid(uma.email)), { licensed: false })).status).toBe(200);
  const created = await apiCall(server, admin, 'POST', SENDER_GROUP_PATHS.list, { name: 'Legal', levels: [10, 20] });
  expect(created.status).toBe(201);
  const { group } = (await created.json()) as { group: { groupUuid: string } };
  expect((await apiCall(server, admin, 'PATCH', SENDER_GROUP_PATHS.userSender(await userUuid(gina.email)), { senderGroupUuid: group.groupUuid })).status).toBe(200);
});
test.afterAll(async () => {
  await server?.close();
});

test('an unlicensed sender is told before and refused after sending to an unregistered address', async ({ page }) => {
  await signInToInbox(page, server, uma);
  await openSendPage(page, server);
  await expect(page.getByText(send.sender.unlicensed)).toBeVisible();
  const input = page.getByRole('textbox', { name: send.recipients.label });
  await input.fill('newcomer@partner.test');
  await input.press('Enter');
  await page.getByRole('textbox', { name: send.subject.label }).fill('Licence check');
  await page.getByRole('textbox', { name: send.body.label }).fill('Hello.');
  await page.getByRole('button', { name: send.submit, exact: true }).click();
  const message = send.errors.senderNotLicensed.replace('{{recipients}}', 'newcomer@partner.test');
  await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'send page, sender not licensed');
});

test('a sender group member is offered only the group’s levels, the first one chosen', async ({ page }) => {
  await signInToInbox(page, server, gina);
  await openSendPage(page, server);
  await expect(page.getByRole('radio', { name: send.level.level2.title })).toBeChecked();
  await expect(page.getByRole('radio', { name: send.level.level3.title })).toBeVisible();
  await expect(page.getByRole('radio', { name: send.level.level1.title })).toHaveCount(0);
  await expect(page.getByRole('radio', { name: send.level.level4.title })).toHaveCount(0);
  await expect(page.getByRole('radio')).toHaveCount(2);
});

test('the administrator creates a group, changes its levels, assigns it and licenses a user with the keyboard', async ({ page }) => {
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expect(page).toHaveURL(/\/(secumails|admin)/);
  await page.goto(`${server.url}/admin/users`);
  await expect(page.getByRole('heading', { level: 2, name: adminText.senderGroups.title })).toBeVisible();
  const form = page.getByRole('form', { name: adminText.senderGroups.create });
  await form.getByRole('textbox', { name: adminText.senderGroups.name }).fill('Board');
  // Levels 1 and 2 are preset; take 1 away, add 4 (keyboard: Space toggles a focused checkbox).
  await form.getByRole('checkbox', { name: adminText.senderGroups.level1 }).focus();
  await page.keyboard.press('Space');
  await form.getByRole('checkbox', { name: adminText.senderGroups.level4 }).focus();
  await page.keyboard.press('Space');
  await form.getByRole('button', { name: adminText.senderGroups.create }).press('Enter');
  const row = page.getByRole('table', { name: adminText.senderGroups.title }).getByRole('row').filter({ hasText: 'Board' });
  await expect(row).toContainText('Level 2, Level 4');

  // Assign Gina, license Uma.
  await page.getByRole('combobox', { name: adminText.senderGroups.groupFor.replace('{{name}}', gina.email) }).selectOption({ label: 'Board' });
  await expect(row.getByRole('cell', { name: '1', exact: true })).toBeVisible();
  const licence = page.getByRole('switch', { name: adminText.senderGroups.licensedFor.replace('{{name}}', uma.email) });
  await expect(licence).not.toBeChecked();
  await licence.focus();
  await page.keyboard.press('Space');
  await expect(licence).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'admin users page with sender groups');

  const ginaConfig = (await (await apiCall(server, await apiSignIn(server, gina), 'GET', '/delivery/send/config')).json()) as Record<string, unknown>;
  expect([ginaConfig.allowSecurityLevel1, ginaConfig.allowSecurityLevel2, ginaConfig.allowSecurityLevel3, ginaConfig.allowSecurityLevel4]).toEqual([false, true, false, true]);
  const umaConfig = (await (await apiCall(server, await apiSignIn(server, uma), 'GET', '/delivery/send/config')).json()) as { sender: { licensed: boolean } };
  expect(umaConfig.sender.licensed).toBe(true);
});

test('a reply-only account writes to the reply target only; without one it is told to reply from the inbox', async ({ page }) => {
  await apiSendDelivery(server, await apiSignIn(server, gina), { to: ole.email, subject: 'Question for Ole', level: 10, files: [] });
  await signInToInbox(page, server, ole);
  await openSendPage(page, server);
  await expect(page.getByText(send.sender.replyOnlyNone)).toBeVisible();
  await expect(page.getByRole('textbox', { name: send.subject.label })).toHaveCount(0);

  await page.goto(`${server.url}/secumails/send?to=${encodeURIComponent(gina.email)}&subject=${encodeURIComponent('Re: Question for Ole')}`);
  await expect(page.getByText(send.sender.replyOnly)).toBeVisible();
  await expect(page.getByRole('textbox', { name: send.recipients.label })).toBeDisabled();
  await page.getByRole('textbox', { name: send.body.label }).fill('Here is my answer.');
  await page.getByRole('button', { name: send.submit, exact: true }).click();
  await expect(page).toHaveURL(/\/secumails\/send-success$/);
  await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(gina.email)(m) && m.subject.includes('Re: Question for Ole'));
});

test('a level-1 link opened without the email prompt goes back to the prompt (the token alone opens nothing)', async ({ page }) => {
  const to = 'pat.prompt@partner.test';
  const sent = await apiSendDelivery(server, admin, { to, subject: 'Prompt first', level: 0, files: [] });
  const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(to));
  const token = new URLSearchParams(extractLink(mail, '/secumails/').hash.slice(1)).get('token')!;
  const shareUuid = sent.recipients.find((r) => r.email === to)!.shareUuid;
  await page.goto(`${server.url}/secumails/en/download?deliveryUuid=${sent.deliveryUuid}&shareUuid=${shareUuid}#token=${encodeURIComponent(token)}`);
  await expect(page).toHaveURL(new RegExp(`/secumails/en/email-prompt/${shareUuid}#token=`));
  await page.getByLabel('Email address').fill(to);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Prompt first' })).toBeVisible();
});
