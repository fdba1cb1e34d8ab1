// Data-room invitation of an address without an account, through the web client against the real
// server (issue 15): the owner shares a plain room that holds a file with an outside address as
// EDITOR (the share dialog lists the pending invitation); the invitee opens the mailed link from
// the mailbox folder, completes the registration, lands in the room signed in and downloads the
// file with the same SHA-256; the link opened again shows the expired-or-used warning, as does the
// link of an invitation the owner revoked (after the confirmation). axe on the share dialog with
// the invitation, the revoke confirmation, the signup page and the warning. Secure rooms › General
// sets the links' validity; the -dar variant goes to its `back` path.
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { ROOM_INVITATION_VALID_DAYS_KEY } from '@shared/contract/room-invitations';
import { ROOM_PATHS } from '@shared/contract/rooms';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { addressedTo, extractLink, linkToken, waitForMailboxMail } from '../support/mailbox';
import { apiCall, apiSignIn, en as enBase, expectInbox, expectNoSeriousA11yViolations, locale, serverPerFile, signIn, signInToInbox, test } from './fixtures';
import { apiCreateRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const auth = locale<typeof import('@locales/en/auth.json')>('en', 'auth');
const en = { ...enBase, rooms, auth };
const ctx = serverPerFile();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const INVITEE = 'ines.outside@partner.test';
const PASSWORD = 'Partner-Passw0rd-7';

let owner: TestUser;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'orla', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test('an owner invites an outside address as EDITOR; the invitee signs up from the mail, lands in the room and downloads the file bit-exact; the link then warns', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  // The room and its file through the API: this story starts at the share dialog.
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Partner Room');
  const bytes = Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 17 + 3) % 256));
  await apiUploadRoomFile(server, session, room.uuid, null, 'offer.bin', bytes);

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Partner Room' })).toBeVisible();
  await page.getByRole('button', { name: rooms.share.action, exact: true }).click();
  const share = page.getByRole('dialog', { name: 'Share “Partner Room”' });
  await expect(share.getByText(rooms.invitations.hint)).toBeVisible();
  await share.getByRole('textbox', { name: rooms.share.user }).fill(INVITEE);
  await share.getByRole('combobox', { name: rooms.share.role, exact: true }).selectOption('EDITOR');
  await share.getByRole('button', { name: rooms.share.add }).click();
  await expect(toast(page, `An invitation to “Partner Room” as Editor was mailed to ${INVITEE}.`)).toBeVisible();
  const pending = share.getByRole('table', { name: 'Pending invitations to “Partner Room”' });
  await expect(pending.getByRole('row', { name: new RegExp(INVITEE) })).toContainText('Invitation pending, expires');
  await expect(pending.getByRole('row', { name: new RegExp(INVITEE) })).toContainText('Editor');
  await expectNoSeriousA11yViolations(page, 'share dialog with a pending invitation');
  await share.getByRole('button', { name: rooms.share.close }).click();

  // The invitee: the link from the mailbox folder, in a browser of their own.
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(INVITEE)(m) && m.text.includes('/auth/dataroom-signup'));
  expect(mail.text).toContain('Partner Room');
  const link = extractLink(mail, '/auth/dataroom-signup');
  const inviteeContext = await browser.newContext({ acceptDownloads: true });
  const invitee = await inviteeContext.newPage();
  // The token in the link's fragment (issue 28): no request of the page carries it in a path or query.
  const token = linkToken(link);
  const carried: string[] = [];
  invitee.on('request', (r) => {
    const url = new URL(r.url());
    if (`${url.pathname}${url.search}`.includes(token)) carried.push(r.url());
  });
  await invitee.goto(`${server.url}${link.pathname}${link.search}${link.hash}`);
  await expect(invitee.getByRole('heading', { level: 1, name: auth.dataroomSignup.title })).toBeVisible();
  await expect(invitee.getByRole('textbox', { name: auth.dataroomSignup.room })).toHaveValue('Partner Room');
  expect(carried).toEqual([]);
  const address = invitee.getByRole('textbox', { name: auth.dataroomSignup.email });
  await expect(address).toHaveValue(INVITEE);
  await expect(address).toHaveAttribute('readonly', '');
  await expectNoSeriousA11yViolations(invitee, 'dataroom signup');

  // The password policy is checked before anything is sent.
  await invitee.getByRole('textbox', { name: auth.signup.firstName }).fill('Ines');
  await invitee.getByRole('textbox', { name: auth.signup.lastName }).fill('Outside');
  await invitee.getByRole('textbox', { name: en.common.password.new, exact: true }).fill('short');
  await invitee.getByLabel(en.common.password.confirm).fill('short');
  await invitee.getByRole('button', { name: auth.dataroomSignup.submit }).click();
  await expect(invitee.getByText(en.common.validation.passwordPolicy)).toBeVisible();
  await invitee.getByRole('textbox', { name: en.common.password.new, exact: true }).fill(PASSWORD);
  await invitee.getByLabel(en.common.password.confirm).fill(PASSWORD);
  await invitee.getByRole('button', { name: auth.dataroomSignup.submit }).click();

  // Signed in, in the room, as EDITOR: the file downloads with the very bytes.
  await expect(invitee).toHaveURL(new RegExp(`/datarooms/${room.uuid}$`));
  await expect(invitee.getByRole('heading', { level: 1, name: 'Partner Room' })).toBeVisible();
  const files = invitee.getByRole('table', { name: rooms.files.title });
  await expect(files.getByRole('row', { name: /offer\.bin/ })).toBeVisible();
  const download = invitee.waitForEvent('download');
  await files.getByRole('link', { name: 'Download offer.bin' }).click();
  const saved = await (await download).path();
  expect(sha256(await readFile(saved))).toBe(sha256(bytes));

  // The owner's share dialog: the invitee is a member now, nothing pending.
  await page.reload();
  await page.getByRole('button', { name: rooms.share.action, exact: true }).click();
  await expect(share.getByRole('table', { name: 'Who has access to “Partner Room”' })).toContainText(INVITEE);
  await expect(share.getByRole('table', { name: 'Pending invitations to “Partner Room”' })).toHaveCount(0);

  // A second invitation, revoked from the dialog after the confirmation: its link warns as well.
  await share.getByRole('textbox', { name: rooms.share.user }).fill('revoked@partner.test');
  await share.getByRole('button', { name: rooms.share.add }).click();
  await expect(toast(page, 'An invitation to “Partner Room” as Viewer was mailed to revoked@partner.test.')).toBeVisible();
  await share.getByRole('button', { name: 'Revoke the invitation of revoked@partner.test' }).click();
  const ask = share.getByRole('group', { name: rooms.invitations.confirm });
  await expect(ask).toContainText('Revoke the invitation of revoked@partner.test to “Partner Room”?');
  await expectNoSeriousA11yViolations(page, 'revoke invitation confirmation');
  await ask.getByRole('button', { name: rooms.invitations.confirm }).click();
  await expect(toast(page, 'The invitation of revoked@partner.test to “Partner Room” was revoked.')).toBeVisible();
  await expect(share.getByRole('table', { name: 'Pending invitations to “Partner Room”' })).toHaveCount(0);
  const revokedMail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('revoked@partner.test')(m));
  const revokedLink = extractLink(revokedMail, '/auth/dataroom-signup');

  // The link again: used — the expired-or-used warning, nothing to fill in.
  const again = await browser.newContext();
  const second = await again.newPage();
  await second.goto(`${server.url}${link.pathname}${link.search}${link.hash}`);
  await expect(second.getByText(auth.dataroomSignup.errors.gone)).toBeVisible();
  await expect(second.getByRole('button', { name: auth.dataroomSignup.submit })).toHaveCount(0);
  await expectNoSeriousA11yViolations(second, 'dataroom signup (expired or used)');
  await second.goto(`${server.url}${revokedLink.pathname}${revokedLink.search}${revokedLink.hash}`);
  await expect(second.getByText(auth.dataroomSignup.errors.gone)).toBeVisible();
  await inviteeContext.close();
  await again.close();
});

test('Secure rooms › General sets how long invitation links stay valid', async ({ page }) => {
  const { server } = ctx;
  const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await page.goto(`${server.url}/admin/secure-rooms`);
  await expect(page.getByRole('heading', { level: 1, name: admin.roomsAdmin.settings.title })).toBeVisible();
  const days = page.locator(`[data-setting="${ROOM_INVITATION_VALID_DAYS_KEY}"]`);
  await expect(days).toHaveValue('14');
  await days.fill('400');
  await page.getByRole('button', { name: admin.settingsForm.save }).click();
  await expect(page.getByText('Enter a whole number from 1 to 365.')).toBeVisible();
  await days.fill('7');
  await page.getByRole('button', { name: admin.settingsForm.save }).click();
  await expect(page.getByText(admin.settingsForm.saved).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'secure rooms general with invitations');
  const stored = await server.app.db.selectFrom('settings').select('value').where('key', '=', ROOM_INVITATION_VALID_DAYS_KEY).executeTakeFirstOrThrow();
  expect(JSON.parse(stored.value)).toBe(7);
});

test('dataroom-signup-dar goes to its same-origin back path after the registration', async ({ page }) => {
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Request Room');
  const shared = await apiCall(server, session, 'PUT', ROOM_PATHS.access(room.uuid), { user: 'dar@partner.test', role: 'VIEWER' });
  expect(shared.status, await shared.clone().text()).toBe(200);
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('dar@partner.test')(m) && m.text.includes('/auth/dataroom-signup'));
  const token = linkToken(extractLink(mail, '/auth/dataroom-signup'));
  const carried: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (`${url.pathname}${url.search}`.includes(token)) carried.push(url.pathname);
  });
  // A link in the form mailed before issue 28 (token in the query): the page moves it into the
  // fragment at once (the same history entry), `back` stays; only that first load carried it.
  const back = encodeURIComponent('/secumails/inbox');
  await page.goto(`${server.url}/auth/dataroom-signup-dar?token=${encodeURIComponent(token)}&back=${back}`);
  await expect(page.getByRole('heading', { level: 1, name: auth.dataroomSignup.title })).toBeVisible();
  await expect(page).toHaveURL(`${server.url}/auth/dataroom-signup-dar?back=${back}#token=${token}`);
  await page.getByRole('textbox', { name: en.common.password.new, exact: true }).fill(PASSWORD);
  await page.getByLabel(en.common.password.confirm).fill(PASSWORD);
  await page.getByRole('button', { name: auth.dataroomSignup.submit }).click();
  await expect(page).toHaveURL(/\/secumails\/inbox$/);
  expect(carried).toEqual(['/auth/dataroom-signup-dar']);
});
