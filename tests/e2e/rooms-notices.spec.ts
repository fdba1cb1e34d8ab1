// Room notices and the share dialog (issue 32): the owner adds a registered person from the share
// dialog; the person's mail, in their language and naming the plain room, is read from the mailbox
// and its link opens the room for them. Changing that member's role asks first in a dialog on top
// of the share dialog, which stays open (with a half-typed name kept) through Cancel and Confirm.
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { addressedTo, extractLink, readMailbox, waitForMailboxMail } from '../support/mailbox';
import { ROOM_PATHS } from '@shared/contract/rooms';
import { apiCall, apiSignIn, dropFiles, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiShareRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const ctx = serverPerFile();
let owner: TestUser;
let member: TestUser;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'nora', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  member = await createUserInRepository(ctx.server, { username: 'malte', language: 'de' });
});

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test('a person added from the share dialog is mailed in their language and opens the room from the mail; a role change keeps the share dialog open', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  const room = await apiCreateRoom(server, await apiSignIn(server, owner), 'Notice Room Ü');
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await page.getByRole('button', { name: rooms.share.action, exact: true }).click();
  const share = page.getByRole('dialog', { name: 'Share “Notice Room Ü”' });
  await share.getByRole('textbox', { name: rooms.share.user }).fill(member.email);
  await share.getByRole('combobox', { name: rooms.share.role, exact: true }).selectOption('VIEWER');
  await share.getByRole('button', { name: rooms.share.add }).click();
  await expect(toast(page, `${member.email} is now Viewer of “Notice Room Ü”.`)).toBeVisible({ timeout: 30_000 });

  // The mail to the new member: German (his language), the room's name, a link to the room.
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(member.email)(m) && m.subject.includes('Datenraum'));
  expect(mail.text).toContain('„Notice Room Ü“');
  const link = extractLink(mail, `/datarooms/${room.uuid}`);
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signInToInbox(memberPage, server, member);
  await memberPage.goto(link.toString());
  await expect(memberPage.getByRole('heading', { level: 1, name: 'Notice Room Ü' })).toBeVisible();
  await memberContext.close();

  // A role change asks on top of the share dialog: Cancel and Confirm both leave it open, the typed name kept.
  await share.getByRole('textbox', { name: rooms.share.user }).fill('half-typed');
  const roleOf = share.getByRole('combobox', { name: `Role of ${member.email}` });
  await roleOf.selectOption('EDITOR');
  const confirm = page.getByRole('alertdialog', { name: `Change the role of ${member.email}?` });
  await expect(confirm).toBeVisible();
  // Under the modal question the share dialog is hidden from assistive technology (aria-hidden), not closed.
  await expect(page.getByRole('dialog', { name: 'Share “Notice Room Ü”', includeHidden: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'role change over the share dialog');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(share).toBeVisible();
  await expect(roleOf).toHaveValue('VIEWER');
  await roleOf.selectOption('EDITOR');
  await confirm.getByRole('button', { name: rooms.details.changeConfirm }).click();
  await expect(toast(page, `${member.email} is now Editor of “Notice Room Ü”.`)).toBeVisible({ timeout: 30_000 });
  await expect(share).toBeVisible();
  await expect(roleOf).toHaveValue('EDITOR');
  await expect(share.getByRole('textbox', { name: rooms.share.user })).toHaveValue('half-typed');
  // A role change is no new access: still exactly one mail to the member.
  expect((await readMailbox(server.mailboxDir)).filter((m) => addressedTo(member.email)(m) && m.subject.includes('Datenraum'))).toHaveLength(1);
});

test('"Uploaded by", "Created by", activity and the trash show the name, the address beneath it', async ({ page }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  await server.app.db.updateTable('users').set({ first_name: 'Nora', last_name: 'Neumann' }).where('id', '=', owner.id).execute();
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Names Room');
  await apiUploadRoomFile(server, session, room.uuid, null, 'named.bin', new Uint8Array(2048).fill(7));
  const folder = await apiCreateFolder(server, session, room.uuid, 'Gone folder');
  expect((await apiCall(server, session, 'DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid))).status).toBe(204);

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  const fileRow = page.getByRole('row', { name: /named\.bin/ });
  await expect(fileRow).toContainText(`Nora Neumann${owner.email}`);
  await fileRow.getByRole('button', { name: rooms.files.actionsFor.replace('{{name}}', 'named.bin') }).click();
  await page.getByRole('menuitem', { name: rooms.details.action }).click();
  const panel = page.getByRole('dialog', { name: rooms.details.title.replace('{{name}}', 'named.bin') });
  await expect(panel.getByRole('tabpanel')).toContainText(`${rooms.details.uploadedBy}Nora Neumann${owner.email}`);
  await panel.getByRole('tab', { name: rooms.details.activity }).click();
  await expect(panel.getByRole('table', { name: rooms.activity.title }).getByRole('row', { name: /named\.bin/ }).first()).toContainText(`Nora Neumann${owner.email}`);

  await page.goto(`${server.url}/datarooms/${room.uuid}/trash`);
  const trashRow = page.getByRole('table', { name: rooms.trash.tableLabel }).getByRole('row', { name: /Gone folder/ });
  await expect(trashRow).toContainText(`Nora Neumann${owner.email}`);
  await expectNoSeriousA11yViolations(page, 'room trash with names');
});

test("a VIEWER's drop of files says why nothing is uploaded", async ({ page }) => {
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Viewer Drop Room');
  await apiShareRoom(server, session, room.uuid, member.email, 'VIEWER');
  await signInToInbox(page, server, member);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Viewer Drop Room' })).toBeVisible();
  await dropFiles(page, [{ name: 'refused.txt', bytes: new Uint8Array([1, 2, 3]) }], 'room-drop-zone');
  await expect(page.getByText(rooms.drop.refusedNoUpload).first()).toBeVisible({ timeout: 30_000 });
  // Nothing was uploaded.
  const files = await server.app.db.selectFrom('room_files').innerJoin('data_rooms', 'data_rooms.id', 'room_files.room_id').select('room_files.name').where('data_rooms.uuid', '=', room.uuid).execute();
  expect(files).toEqual([]);
});

test('the bell counts an unread notice; opening it marks it read and opens the room', async ({ browser }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  const reader = await createUserInRepository(server, { username: 'bella' });
  const room = await apiCreateRoom(server, await apiSignIn(server, owner), 'Bell Room');
  await apiShareRoom(server, await apiSignIn(server, owner), room.uuid, reader.email, 'EDITOR');
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInToInbox(page, server, reader);
  const bell = page.getByRole('button', { name: 'Notices, 1 unread' });
  await expect(bell).toBeVisible({ timeout: 30_000 });
  await bell.click();
  const drawer = page.getByRole('dialog', { name: 'Notices' });
  const notice = drawer.getByRole('link', { name: /gave you access to the data room “Bell Room” \(Editor\)\./ });
  await expect(notice).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'notices drawer');
  await notice.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Bell Room' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Notices', exact: true })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Notices', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Notices' }).getByText('Bell Room', { exact: false })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Notices' }).getByText(/· unread/)).toHaveCount(0);
  await context.close();
});
