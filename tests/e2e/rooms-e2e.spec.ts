// End-to-end encrypted data rooms in the browser against the real server: the owner creates an
// E2E room and uploads a file (encrypted in the crypto Worker), shares the room through the share
// dialog with a registered member who activates end-to-end encryption only afterwards (and with a
// colleague who has keys already: the approve dialog with her key's fingerprint follows the share
// dialog — Cancel leaves her waiting, then granted from the members table —, then role changed and
// revoked, confirmed),
// grants the member's key on the room page; the member then downloads and decrypts in the browser
// — SHA-256 equal to the original. Issue 32: the notice mails, read from the mailbox — the member
// told she was added, the owner told she waits for a grant, she and the German colleague told they
// were granted —, each in its recipient's language and none naming the Secure room; the member opens
// the room from her mail's link.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server';
import { proveAddress } from '@tests/support/prove-address';
import { addressedTo, extractLink, waitForMailboxMail, type MailboxMail } from '../support/mailbox';
import { apiCall, apiSignIn, en, expectNoSeriousA11yViolations, secuPassFromNode, signInToInbox, test } from './fixtures';
import { e2eRowAction, ROW_ITEMS } from './e2e-row-menu';

const PASSWORD = 'Good-Passw0rd-rooms';
const OWNER_PASSPHRASE = 'Owner-Room-SecuPass-Granite-31';
const MEMBER_PASSPHRASE = 'Member-Room-SecuPass-Willow-32';
const owner = { email: 'owner.rooms-e2e@example.test', password: PASSWORD };
const member = { email: 'member.rooms-e2e@example.test', password: PASSWORD };
const colleague = { email: 'colleague.rooms-e2e@example.test', password: PASSWORD };
const unlicensed = { email: 'unlicensed.rooms-e2e@example.test', password: PASSWORD };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

let server: TestServer;
let colleagueKeys: Awaited<ReturnType<typeof secuPassFromNode>>['keys'];
let ownerNode: Awaited<ReturnType<typeof secuPassFromNode>>;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const account of [owner, member, colleague, unlicensed]) {
    // The colleague reads German (only her mails show it; she never opens a page here).
    const response = await apiCall(server, admin, 'POST', '/admin/users', { email: account.email, password: account.password, language: account === colleague ? 'de' : 'en' });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, account.email, account.password);
    if (account === unlicensed) {
      const { uuid } = ((await response.json()) as { user: { uuid: string } }).user;
      expect((await apiCall(server, admin, 'PATCH', `/admin/users/${uuid}/sender`, { licensed: false })).status).toBe(200);
    }
  }
  ownerNode = await secuPassFromNode(server, owner, OWNER_PASSPHRASE);
  colleagueKeys = (await secuPassFromNode(server, colleague, 'Colleague-Room-SecuPass-Birch-33')).keys;
});
test.afterAll(async () => {
  await server?.close();
});

/** The role the room's stored signed member list gives an address (null: not listed). The list is
 * what every member reads; here straight from the store. */
async function signedRoleOf(roomUuid: string, email: string): Promise<string | null> {
  const room = await server.app.db.selectFrom('data_rooms').select('id').where('uuid', '=', roomUuid).executeTakeFirstOrThrow();
  const row = await server.app.db.selectFrom('room_e2e_member_lists').select('signed_list').where('room_id', '=', room.id).executeTakeFirst();
  const list = row ? (JSON.parse(row.signed_list) as { list: { members: { email: string; role: string }[] } }).list : null;
  return list?.members.find((m) => m.email === email)?.role ?? null;
}

/** A notice mail of a Secure room: it never carries the room's (sealed) name. */
function expectNoRoomName(mail: MailboxMail, roomName: string) {
  for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toContain(roomName);
}

async function unlock(page: Page, passphrase: string) {
  await page.getByRole('button', { name: 'Enter passphrase' }).first().click();
  const dialog = page.getByRole('dialog', { name: en.secupass.unlock.title.decrypt });
  await dialog.getByLabel(/^Passphrase/).fill(passphrase);
  await dialog.getByRole('button', { name: en.secupass.unlock.submit.decrypt }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
}

/** Creates an E2E room from the Secure rooms page (keys unlocked); answers its UUID. */
async function createRoom(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: 'Create end-to-end encrypted room' }).click();
  const create = page.getByRole('dialog', { name: 'Create end-to-end encrypted room' });
  await create.getByLabel('Name of the data room').fill(name);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/secure-rooms\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  return page.url().split('/').at(-1)!;
}

test('owner creates an E2E room and uploads; a member activates later, is granted, downloads (same SHA-256)', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const bytes = new Uint8Array(randomBytes(700 * 1024 + 5)); // two 512 KiB records
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms`);
  await expect(page.getByRole('heading', { level: 1, name: 'Secure rooms' })).toBeVisible();
  await unlock(page, OWNER_PASSPHRASE);
  const roomUuid = await createRoom(page, 'Merger documents');
  await expect(page.getByRole('heading', { level: 1, name: 'Merger documents' })).toBeVisible({ timeout: 30_000 });

  await page.getByLabel('Upload files', { exact: true }).setInputFiles({ name: 'term-sheet.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  await expect(page.getByText('Upload finished: term-sheet.bin').first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('row').filter({ hasText: 'term-sheet.bin' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 30_000 });
  await expectNoSeriousA11yViolations(page, 'E2E room');

  // The share dialog: the member (registered, no keys yet) is invited and shows the missing key.
  await page.getByRole('button', { name: 'Share' }).click();
  const share = page.getByRole('dialog', { name: 'Share “Merger documents”' });
  await share.getByRole('textbox', { name: 'Email address or username' }).fill(member.email);
  await share.getByRole('combobox', { name: 'Role', exact: true }).selectOption('VIEWER');
  await share.getByRole('button', { name: 'Add' }).click();
  await expect(toast(page, `${member.email} is now Viewer of “Merger documents”.`)).toBeVisible({ timeout: 30_000 });
  await expect(toast(page, `${member.email} has not activated end-to-end encryption yet. Grant access on this page once they have.`)).toBeVisible({ timeout: 30_000 });
  await expect(share.getByRole('row').filter({ hasText: member.email })).toContainText('Encryption not activated');
  // Her mail says she was added to a Secure room, without its name.
  const added = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(member.email)(m) && m.subject.includes('shared a data room with you'));
  expect(added.text).toContain('gave you access to a Secure room');
  expectNoRoomName(added, 'Merger documents');
  // Listed by the OWNER with her role and no key ids yet (her approval adds the keys she checks then).
  await expect.poll(() => signedRoleOf(roomUuid, member.email), { timeout: 30_000 }).toBe('VIEWER');
  // The colleague has keys: the share dialog hands over to the approve dialog with the fingerprint of
  // the key the room key would be wrapped to. Cancel grants nothing: she waits in the members table.
  await share.getByRole('textbox', { name: 'Email address or username' }).fill(colleague.email);
  await share.getByRole('combobox', { name: 'Role', exact: true }).selectOption('EDITOR');
  await share.getByRole('button', { name: 'Add' }).click();
  const approve = page.getByRole('dialog', { name: `Grant access to ${colleague.email}?` });
  await expect(approve.getByTestId('approve-fingerprint')).toHaveText(colleagueKeys.encryption.fingerprintDisplay, { timeout: 30_000 });
  await expect(share).toBeHidden();
  await expectNoSeriousA11yViolations(page, 'E2E approve dialog after the share dialog');
  await approve.getByRole('button', { name: 'Cancel' }).click();
  await expect(toast(page, `${colleague.email} has access to the room but not the room key yet: they are waiting for access in the members table until you grant it there.`)).toBeVisible({ timeout: 30_000 }); // toasts show one at a time, 5 s each: two may still be queued before it
  const waiting = page.getByRole('table', { name: 'Members and access keys' }).getByRole('row').filter({ hasText: colleague.email });
  await expect(waiting).toContainText('Waiting for access (missing file key)');
  expect((await apiCall(server, await apiSignIn(server, colleague), 'GET', `/rooms/${roomUuid}/e2e`).then((r) => r.json())) as { roomKey: unknown }).toMatchObject({ state: 'pending', roomKey: null });
  // Granted from the members table, after the same fingerprint.
  await waiting.getByRole('button', { name: 'Grant access' }).click();
  await expect(approve.getByTestId('approve-fingerprint')).toHaveText(colleagueKeys.encryption.fingerprintDisplay, { timeout: 30_000 });
  await approve.getByRole('button', { name: 'Grant access' }).click();
  await expect(toast(page, `Access approved for ${colleague.email}.`)).toBeVisible({ timeout: 30_000 });
  // Her mail says so in German, naming no room.
  const colleagueGranted = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(colleague.email)(m) && m.subject.includes('sicheren Raum wurde freigegeben'));
  expect(colleagueGranted.text).toContain('Entsperren Sie ihn mit Ihrer Passphrase.');
  expectNoRoomName(colleagueGranted, 'Merger documents');
  await page.getByRole('button', { name: 'Share' }).click();
  const colleagueRow = share.getByRole('row').filter({ hasText: colleague.email });
  await expect(colleagueRow).toContainText('Access approved');
  await expectNoSeriousA11yViolations(page, 'E2E share dialog');
  // Change of role and revoke: both asked first.
  await colleagueRow.getByRole('combobox', { name: `Role of ${colleague.email}` }).selectOption('VIEWER');
  const change = page.getByRole('alertdialog', { name: `Change the role of ${colleague.email}?` });
  await expect(change).toContainText(`${colleague.email} becomes Viewer of “Merger documents”.`);
  await change.getByRole('button', { name: 'Change role' }).click();
  await expect(toast(page, `${colleague.email} is now Viewer of “Merger documents”.`)).toBeVisible({ timeout: 30_000 });
  // The OWNER's change goes into the signed member list too (no "Role differs" flag for it).
  await expect.poll(() => signedRoleOf(roomUuid, colleague.email), { timeout: 30_000 }).toBe('VIEWER');
  await share.getByRole('button', { name: `Remove access of ${colleague.email}` }).click();
  const revoke = page.getByRole('alertdialog', { name: `Revoke the access of ${colleague.email}?` });
  await expectNoSeriousA11yViolations(page, 'E2E revoke confirmation');
  await revoke.getByRole('button', { name: 'Revoke access' }).click();
  await expect(toast(page, `${colleague.email} no longer has access to “Merger documents” here.`)).toBeVisible({ timeout: 30_000 });
  await expect(share.getByRole('row').filter({ hasText: colleague.email })).toHaveCount(0);
  await expect.poll(() => signedRoleOf(roomUuid, colleague.email), { timeout: 30_000 }).toBeNull();
  await share.getByRole('button', { name: 'Close' }).click();
  expect(await signedRoleOf(roomUuid, member.email)).toBe('VIEWER');
  await expect(page.getByTestId('member-list-flag')).toHaveCount(0);

  // The member activates end-to-end encryption afterwards.
  const memberPage = await (await browser.newContext({ acceptDownloads: true })).newPage();
  await signInToInbox(memberPage, server, member);
  await memberPage.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await expect(memberPage.getByText('Activate encryption')).toBeVisible({ timeout: 30_000 });
  await expectNoSeriousA11yViolations(memberPage, 'E2E room, encryption not activated');
  await secuPassFromNode(server, member, MEMBER_PASSPHRASE);
  // The owner is told by mail (English, her language) that the member waits; the room is not named.
  const waitingMail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(owner.email)(m) && m.subject.includes('is waiting for access to a Secure room'));
  expect(waitingMail.text).toContain(`(${member.email}) activated end-to-end encryption and is waiting for an owner to grant access`);
  expect(extractLink(waitingMail, `/secure-rooms/${roomUuid}`).pathname).toBe(`/secure-rooms/${roomUuid}`);
  expectNoRoomName(waitingMail, 'Merger documents');
  await memberPage.reload();
  await unlock(memberPage, MEMBER_PASSPHRASE);
  await expect(memberPage.getByText('Access is being granted')).toBeVisible({ timeout: 30_000 });

  // The owner sees the missing key and grants it.
  await page.reload();
  await unlock(page, OWNER_PASSPHRASE);
  const row = page.getByRole('row').filter({ hasText: member.email });
  await expect(row).toContainText('Waiting for access (missing file key)', { timeout: 30_000 });
  await row.getByRole('button', { name: 'Grant access' }).click();
  await page.getByRole('dialog', { name: `Grant access to ${member.email}?` }).getByRole('button', { name: 'Grant access' }).click();
  await expect(page.getByText(`Access approved for ${member.email}.`).first()).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('Access approved');
  // The grant and the sharing are in the room's activity (OWNERs), the room name decrypted.
  await page.getByRole('tab', { name: 'Activity' }).click();
  const log = page.getByRole('table', { name: 'Activity' });
  await expect(log.getByRole('row').filter({ hasText: 'Access key granted' }).first()).toContainText(`Merger documents (${member.email})`, { timeout: 30_000 });
  await expect(log.getByRole('row').filter({ hasText: 'Access revoked' }).first()).toContainText(`Merger documents (${colleague.email})`);
  await expectNoSeriousA11yViolations(page, 'E2E room activity');
  await page.getByRole('tab', { name: 'Members and access keys' }).click();

  // The member's mail (English) tells her, naming no room; she opens the room from its link.
  const granted = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(member.email)(m) && m.subject.includes('your access to a Secure room was granted'));
  expect(granted.text).toContain('granted you access to the files of a Secure room. Unlock it with your passphrase.');
  expectNoRoomName(granted, 'Merger documents');
  // The names decrypt and the signature checks; the download decrypts in the Worker.
  await memberPage.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'memory'));
  await memberPage.goto(extractLink(granted, `/secure-rooms/${roomUuid}`).toString());
  await unlock(memberPage, MEMBER_PASSPHRASE);
  await expect(memberPage.getByRole('heading', { level: 1, name: 'Merger documents' })).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([memberPage.waitForEvent('download'), e2eRowAction(memberPage, 'term-sheet.bin', ROW_ITEMS.download)]);
  expect(download.suggestedFilename()).toBe('term-sheet.bin');
  expect(sha256(await readFile((await download.path())!))).toBe(sha256(bytes));
  await expectNoSeriousA11yViolations(memberPage, 'E2E room, member');
  await memberPage.context().close();
});

test('a user without a licence sees no button to create an E2E room (the room list’s mayCreate)', async ({ page }) => {
  await signInToInbox(page, server, unlicensed);
  await page.goto(`${server.url}/secure-rooms`);
  await expect(page.getByRole('heading', { level: 1, name: 'Secure rooms' })).toBeVisible();
  await expect(page.getByText('You have no end-to-end encrypted data rooms yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create end-to-end encrypted room' })).toHaveCount(0);
});

test('a room without a signed member list: the owner sees the members its first list would confirm, with fingerprints; "Not now" signs nothing, "Sign the member list" writes version 1', async ({ page }) => {
  test.setTimeout(180_000);
  // A room made before lists were signed (as an older client made it): sealed name and the owner's
  // copy, no member list; the colleague shared through the API.
  const session = await apiSignIn(server, owner);
  const roomUuid = randomUUID();
  const { crypto, keys } = ownerNode;
  const { handle } = await crypto.generateRoomKey();
  const [sealed] = (await crypto.encryptRoomNames({ roomKey: handle, roomId: roomUuid, items: [{ kind: 'room', itemId: roomUuid, name: 'Legacy list' }] })).sealed;
  const wrappedKey = await crypto.wrapRoomKey({ roomKey: handle, roomId: roomUuid, recipientPublicKey: keys.encryption.publicKey });
  expect((await apiCall(server, session, 'POST', '/rooms/e2e', { uuid: roomUuid, name: sealed, recipientKeyId: wrappedKey.recipientKeyId, wrappedKey })).status).toBe(201);
  expect((await apiCall(server, session, 'PUT', `/rooms/${roomUuid}/access`, { user: colleague.email, role: 'EDITOR' })).status).toBe(200);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);

  const firstList = page.getByRole('dialog', { name: 'Sign the member list of this room' });
  const colleagueRow = firstList.getByRole('table', { name: 'Members the list will confirm' }).getByRole('row').filter({ hasText: colleague.email });
  const review = page.getByRole('button', { name: 'Review and sign the member list' });
  await unlock(page, OWNER_PASSPHRASE);
  // A notice, not a dialog in the way: the room stays usable until she reviews the members.
  await expect(page.getByText('This room has no member list signed by an owner yet', { exact: false })).toBeVisible({ timeout: 30_000 });
  await review.click();
  await expect(colleagueRow).toContainText('Editor', { timeout: 30_000 });
  await expect(colleagueRow.getByTestId('first-list-fingerprint')).toHaveText(colleagueKeys.encryption.fingerprintDisplay);
  await expect(firstList.getByRole('row').filter({ hasText: owner.email })).toContainText('Owner');
  await expectNoSeriousA11yViolations(page, 'E2E first member list confirmation');
  await firstList.getByRole('button', { name: 'Not now' }).click();
  await expect(firstList).toBeHidden();
  expect(await signedRoleOf(roomUuid, owner.email)).toBeNull();

  // Still offered; confirmed, the list holds both with their roles and the notice goes.
  await review.click();
  await firstList.getByRole('button', { name: 'Sign the member list' }).click();
  await expect.poll(() => signedRoleOf(roomUuid, colleague.email), { timeout: 30_000 }).toBe('EDITOR');
  expect(await signedRoleOf(roomUuid, owner.email)).toBe('OWNER');
  await expect(review).toBeHidden();
});
