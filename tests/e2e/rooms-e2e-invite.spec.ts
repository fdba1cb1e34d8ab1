// The E2E half of the issue-15 scenario, in the browser against one real server: the owner creates
// an end-to-end encrypted room (axe on the Secure rooms list and the create dialog), uploads a file
// (encrypted in the crypto Worker) and invites an outside address as EDITOR and a registered user
// as VIEWER through the share dialog. The invitee signs up from the mailed link, lands in the room,
// activates encryption there (SecuPass created in the browser; the SecuPass pages speak of the
// room and lead back to it), waits ("Access is being granted",
// axe), is granted by the owner and downloads the file — SHA-256 equal to the original. The
// registered user activates encryption too, the owner does not approve, and the room says so
// ("Access not approved", axe).
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { proveAddress } from '@tests/support/prove-address';
import { addressedTo, extractLink, waitForMailboxMail } from '../support/mailbox';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, en as enBase, expectNoSeriousA11yViolations, locale, secuPassFromNode, signInToInbox, test } from './fixtures';
import { e2eRowAction, e2eRowMenu, ROW_ITEMS } from './e2e-row-menu';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const auth = locale<typeof import('@locales/en/auth.json')>('en', 'auth');
const secupass = locale<typeof import('@locales/en/secupass.json')>('en', 'secupass');
const en = { ...enBase, rooms, auth, secupass };
const PASSWORD = 'Good-Passw0rd-e2e-invite';
const OWNER_PASSPHRASE = 'Owner-Invite-SecuPass-Basalt-51';
const INVITEE_PASSPHRASE = 'Invitee-Invite-SecuPass-Cedar-52';
const owner = { email: 'owner.e2e-invite@example.test', password: PASSWORD };
const refused = { email: 'refused.e2e-invite@example.test', password: PASSWORD };
const INVITEE = 'iris.outside@partner.test';
const ROOM = 'Due diligence';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

let server: TestServer;

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const account of [owner, refused]) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { email: account.email, password: account.password, language: 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, account.email, account.password);
  }
  await secuPassFromNode(server, owner, OWNER_PASSPHRASE);
});
test.afterAll(async () => {
  await server?.close();
});

async function unlock(page: Page, passphrase: string) {
  await page.getByRole('button', { name: 'Enter passphrase' }).first().click();
  const dialog = page.getByRole('dialog', { name: en.secupass.unlock.title.decrypt });
  await dialog.getByLabel(/^Passphrase/).fill(passphrase);
  await dialog.getByRole('button', { name: en.secupass.unlock.submit.decrypt }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
}

test('an outside address invited to an E2E room signs up from the mail, activates encryption, is granted and downloads (same SHA-256); a declined member sees "Access not approved"', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const bytes = new Uint8Array(randomBytes(600 * 1024 + 3)); // two 512 KiB records

  // The owner: the Secure rooms list and the create dialog (axe on both), then the room and its file.
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms`);
  await expect(page.getByRole('heading', { level: 1, name: 'Secure rooms' })).toBeVisible();
  await unlock(page, OWNER_PASSPHRASE);
  await expect(page.getByText('You have no end-to-end encrypted data rooms yet.')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'Secure rooms list');
  await page.getByRole('button', { name: rooms.e2e.create.action }).click();
  const create = page.getByRole('dialog', { name: rooms.e2e.create.title });
  await expect(create.getByLabel('Name of the data room')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'create E2E room dialog');
  await create.getByLabel('Name of the data room').fill(ROOM);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/secure-rooms\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  const roomUuid = page.url().split('/').at(-1)!;
  await expect(page.getByRole('heading', { level: 1, name: ROOM })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Upload files', { exact: true }).setInputFiles({ name: 'data-room-index.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  await expect(toast(page, 'Upload finished: data-room-index.bin')).toBeVisible({ timeout: 60_000 });

  // The share dialog: the outside address as EDITOR (an invitation by mail), the registered user as
  // VIEWER (no keys yet: told to wait).
  await page.getByRole('button', { name: rooms.e2e.share }).click();
  const share = page.getByRole('dialog', { name: `Share “${ROOM}”` });
  await share.getByRole('textbox', { name: rooms.share.user }).fill(INVITEE);
  await share.getByRole('combobox', { name: rooms.share.role, exact: true }).selectOption('EDITOR');
  await share.getByRole('button', { name: rooms.share.add }).click();
  await expect(page.getByText(`as Editor was mailed to ${INVITEE}.`).first()).toBeVisible({ timeout: 30_000 });
  const pending = share.getByRole('table', { name: `Pending invitations to “${ROOM}”` });
  await expect(pending.getByRole('row', { name: new RegExp(INVITEE) })).toContainText('Editor');
  await share.getByRole('textbox', { name: rooms.share.user }).fill(refused.email);
  await share.getByRole('combobox', { name: rooms.share.role, exact: true }).selectOption('VIEWER');
  await share.getByRole('button', { name: rooms.share.add }).click();
  await expect(toast(page, `${refused.email} has not activated end-to-end encryption yet. Grant access on this page once they have.`)).toBeVisible({ timeout: 30_000 });
  await share.getByRole('button', { name: rooms.share.close }).click();

  // The invitee, in a browser of their own: the mailed link, the registration, the room.
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(INVITEE)(m) && m.text.includes('/auth/dataroom-signup'));
  expect(mail.text, 'the mail does not name an encrypted room').not.toContain(ROOM);
  const link = extractLink(mail, '/auth/dataroom-signup');
  const inviteeContext = await browser.newContext({ acceptDownloads: true });
  const invitee = await inviteeContext.newPage();
  await invitee.goto(`${server.url}${link.pathname}${link.search}${link.hash}`);
  await expect(invitee.getByRole('heading', { level: 1, name: auth.dataroomSignup.title })).toBeVisible();
  await expect(invitee.getByRole('textbox', { name: auth.dataroomSignup.room })).toHaveValue(auth.dataroomSignup.encryptedRoom);
  await expect(invitee.getByRole('textbox', { name: auth.dataroomSignup.email })).toHaveValue(INVITEE);
  await invitee.getByRole('textbox', { name: en.common.password.new, exact: true }).fill(PASSWORD);
  await invitee.getByLabel(en.common.password.confirm).fill(PASSWORD);
  await invitee.getByRole('button', { name: auth.dataroomSignup.submit }).click();
  await expect(invitee).toHaveURL(new RegExp(`/secure-rooms/${roomUuid}$`), { timeout: 30_000 });

  // Encryption is not active yet: the room page leads to creating the SecuPass (in this browser).
  await expect(invitee.getByText(rooms.e2e.activation.title)).toBeVisible({ timeout: 30_000 });
  await invitee.getByRole('link', { name: rooms.e2e.activation.action }).click();
  // The SecuPass pages speak of the data room (not of a delivery) and lead back to it.
  await expect(invitee.getByRole('heading', { level: 1, name: secupass.create.title })).toBeVisible();
  await expect(invitee.getByText(secupass.room.createIntro)).toBeVisible();
  await expect(invitee.getByText(secupass.create.intro)).toHaveCount(0);
  await invitee.getByLabel(/^Passphrase/).fill(INVITEE_PASSPHRASE);
  await invitee.getByLabel(/^Confirm passphrase/).fill(INVITEE_PASSPHRASE);
  await invitee.getByRole('button', { name: secupass.set.submit }).click();
  await expect(invitee.getByRole('heading', { level: 1, name: secupass.room.approvalTitle })).toBeVisible({ timeout: 60_000 });
  await expect(invitee).toHaveTitle(new RegExp(`${secupass.room.approvalTitle}$`));
  await expect(invitee.getByText(secupass.room.approvalText)).toBeVisible();
  await expect(invitee.getByText(secupass.approval.text)).toHaveCount(0);
  await expect(invitee.getByRole('link', { name: secupass.approval.toDelivery })).toHaveCount(0);
  await expectNoSeriousA11yViolations(invitee, 'SecuPass created from a data room, waiting for access');
  await invitee.getByRole('link', { name: secupass.room.toRoom }).click();
  await expect(invitee).toHaveURL(`${server.url}/secure-rooms/${roomUuid}`);
  // A fresh load (keys locked again), as a later visit would be.
  await invitee.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlock(invitee, INVITEE_PASSPHRASE);
  await expect(invitee.getByText(rooms.e2e.access.pending)).toBeVisible({ timeout: 30_000 });
  await expectNoSeriousA11yViolations(invitee, 'E2E room, access is being granted');

  // The registered user activates encryption as well (from Node: this story is the owner's refusal).
  await secuPassFromNode(server, refused, 'Refused-Invite-SecuPass-Alder-53');

  // The owner grants the invitee and does not approve the other.
  await page.reload();
  await unlock(page, OWNER_PASSPHRASE);
  const inviteeRow = page.getByRole('row').filter({ hasText: INVITEE });
  await expect(inviteeRow).toContainText(rooms.e2e.members.states.pending, { timeout: 30_000 });
  await inviteeRow.getByRole('button', { name: rooms.e2e.members.grant }).click();
  // The invitee's key fingerprint first (README section 7 "Who is a member"), then the grant.
  await page.getByRole('dialog', { name: rooms.e2e.approve.title.replace('{{user}}', INVITEE) }).getByRole('button', { name: rooms.e2e.approve.confirm }).click();
  await expect(toast(page, `Access approved for ${INVITEE}.`)).toBeVisible({ timeout: 30_000 });
  await expect(inviteeRow).toContainText(rooms.e2e.members.states.approved);
  const refusedRow = page.getByRole('row').filter({ hasText: refused.email });
  await expect(refusedRow).toContainText(rooms.e2e.members.states.pending);
  await refusedRow.getByRole('button', { name: rooms.e2e.members.decline }).click();
  await expect(toast(page, `Access not approved for ${refused.email}.`)).toBeVisible({ timeout: 30_000 });
  await expect(refusedRow).toContainText(rooms.e2e.members.states.notApproved);

  // The invitee opens the room: the name decrypts, the download decrypts in the Worker, same bytes.
  await invitee.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'memory'));
  await invitee.reload();
  await unlock(invitee, INVITEE_PASSPHRASE);
  await expect(invitee.getByRole('heading', { level: 1, name: ROOM })).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([invitee.waitForEvent('download'), e2eRowAction(invitee, 'data-room-index.bin', ROW_ITEMS.download)]);
  expect(download.suggestedFilename()).toBe('data-room-index.bin');
  expect(sha256(await readFile((await download.path())!))).toBe(sha256(bytes));
  await inviteeContext.close();

  // The declined member: the room says the access was not approved.
  const refusedContext = await browser.newContext();
  const refusedPage = await refusedContext.newPage();
  await signInToInbox(refusedPage, server, refused);
  await refusedPage.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlock(refusedPage, 'Refused-Invite-SecuPass-Alder-53');
  await expect(refusedPage.getByText(rooms.e2e.access.notApproved)).toBeVisible({ timeout: 30_000 });
  await expect(e2eRowMenu(refusedPage, 'data-room-index.bin')).toHaveCount(0);
  await expectNoSeriousA11yViolations(refusedPage, 'E2E room, access not approved');
  await refusedContext.close();
});
