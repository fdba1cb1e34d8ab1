// Links to a folder of a plain room (issue 32 §2; server/README "Public links to room folders"),
// made by the owner in the folder's link dialog (toolbar and row menu) and opened by an anonymous
// browser: a folder link with a password and a limit lists the folder, downloads a file bit-exact
// (SHA-256) and counts the download; a drop link takes a visitor's file into the folder without
// showing anything of it, the owner finds the file there and revokes the link from the links table
// (Kind column), after which the visitor's page says so. axe on both landing pages and the dialog.
// The room's links overview (issue 32): every link of the room with its target and maker's name,
// one revoked from there after its confirmation.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { ROOM_FOLDER_LINK_PATHS, type RoomFolderLinkList } from '@shared/contract/room-folder-links';
import { ROOM_LINK_PATHS } from '@shared/contract/room-links';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiUploadRoomFile } from './rooms-fixtures';
import { testFileBytes } from '@tests/support/files';

const links = locale<typeof import('@locales/en/roomLinks.json')>('en', 'roomLinks');
const ctx = serverPerFile();
let owner: TestUser;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'folka', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  // A display name: the links tables show it instead of the address ("names instead of addresses").
  await ctx.server.app.db.updateTable('users').set({ first_name: 'Folka', last_name: 'Linden' }).where('id', '=', owner.id).execute();
});

async function roomWithFolder(kind: 'folder' | 'drop') {
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, `Folder link room ${kind}`);
  const folder = await apiCreateFolder(server, session, room.uuid, 'Handouts');
  return { session, room, folder };
}

/** The open link dialog's "Create link" (options filled before), and the URL it shows once. */
async function createInDialog(page: Page, title: string): Promise<string> {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog.getByText(links.folderEmpty)).toBeVisible();
  await dialog.getByRole('button', { name: links.create }).click();
  const urlField = dialog.getByRole('textbox', { name: links.url });
  await expect(urlField).toHaveValue(/\/room-folder-link#token=/);
  return urlField.inputValue();
}

test('a folder link made in the folder’s dialog with a password lists the folder and downloads a file bit-exact', async ({ browser, page: ownerPage }) => {
  test.setTimeout(90_000);
  const { server } = ctx;
  const { session, room, folder } = await roomWithFolder('folder');
  const bytes = new Uint8Array(testFileBytes(150_000));
  await apiUploadRoomFile(server, session, room.uuid, folder.uuid, 'agenda.bin', bytes);

  // The folder's toolbar: "Share folder by link" with a password and a download limit.
  await signInToInbox(ownerPage, server, owner);
  await ownerPage.goto(`${server.url}/datarooms/${room.uuid}/folders/${folder.uuid}`);
  await ownerPage.getByRole('button', { name: links.folderAction, exact: true }).click();
  const title = fill(links.folderTitle, { name: 'Handouts' });
  const dialog = ownerPage.getByRole('dialog', { name: title });
  await dialog.getByLabel(links.password).fill('Folder-Link-Pass-9');
  await dialog.getByLabel(links.limit).fill('5');
  const url = await createInDialog(ownerPage, title);
  const row = dialog.getByRole('table').getByRole('row').nth(1);
  await expect(row).toContainText(links.kinds.folder);
  await expect(row).toContainText(fill(links.downloadsOfLimit, { done: 0, limit: 5 }));
  await expectNoSeriousA11yViolations(ownerPage, 'folder link dialog');
  const listed = (await (await apiCall(server, session, 'GET', ROOM_FOLDER_LINK_PATHS.links(room.uuid, folder.uuid))).json()) as RoomFolderLinkList;
  expect(listed.links).toMatchObject([{ kind: 'folder', passwordProtected: true, maxDownloads: 5 }]);

  const visitor = await browser.newContext({ acceptDownloads: true });
  const page = await visitor.newPage();
  await page.goto(url);
  await page.getByTestId('folder-link-password').fill('wrong-password-1');
  await page.getByRole('button', { name: links.page.unlock }).click();
  await expect(page.getByText(links.page.errors.passwordWrong)).toBeVisible();
  await page.getByTestId('folder-link-password').fill('Folder-Link-Pass-9');
  await page.getByRole('button', { name: links.page.unlock }).click();
  await expect(page.getByRole('heading', { name: fill(links.folderPage.title, { name: 'Handouts' }) })).toBeVisible();
  await expect(page.getByTestId('folder-link-file')).toHaveCount(1);
  await expectNoSeriousA11yViolations(page, 'folder link page');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: fill(links.folderPage.downloadFile, { name: 'agenda.bin' }) }).click()]);
  expect(download.suggestedFilename()).toBe('agenda.bin');
  expect(sha256(new Uint8Array(await readFile((await download.path())!)))).toBe(sha256(bytes));
  await expect(page.getByText(fill(links.folderPage.downloadsLeft_other, { count: 4 }))).toBeVisible({ timeout: 30_000 });
  await visitor.close();
});

test('a drop link made from the folder’s row menu takes a visitor’s file and shows nothing; the owner finds the file and revokes the link', async ({ browser, page }) => {
  test.setTimeout(90_000);
  const { server } = ctx;
  const { session, room, folder } = await roomWithFolder('drop');
  await apiUploadRoomFile(server, session, room.uuid, folder.uuid, 'secret-plan.bin', new Uint8Array(testFileBytes(1000)));

  // The room's folder table: the row menu's "Create upload link" (no download limit for a drop link).
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await page.getByRole('button', { name: 'Actions for folder Handouts' }).click();
  await page.getByRole('menuitem', { name: links.dropAction }).click();
  const title = fill(links.dropTitle, { name: 'Handouts' });
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog.getByLabel(links.limit)).toHaveCount(0);
  const url = await createInDialog(page, title);
  await expect(dialog.getByRole('table').getByRole('row').nth(1)).toContainText(links.kinds.drop);
  await dialog.getByRole('button', { name: links.close }).click();

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(url);
  await expect(visitorPage.getByRole('heading', { name: fill(links.folderPage.dropTitle, { name: 'Handouts' }) })).toBeVisible();
  await expect(visitorPage.getByText('secret-plan.bin')).toHaveCount(0);
  await expectNoSeriousA11yViolations(visitorPage, 'drop link page');
  await visitorPage.getByTestId('folder-link-drop-input').setInputFiles({ name: 'invoice-42.pdf', mimeType: 'application/pdf', buffer: Buffer.from(testFileBytes(70_000)) });
  await expect(visitorPage.getByRole('status').filter({ hasText: fill(links.folderPage.dropped_one, { count: 1, names: 'invoice-42.pdf' }) })).toBeVisible({ timeout: 30_000 });
  await expect(visitorPage.getByText('secret-plan.bin')).toHaveCount(0);

  await page.goto(`${server.url}/datarooms/${room.uuid}/folders/${folder.uuid}`);
  await expect(page.getByText('invoice-42.pdf', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  // The links table in the folder's dialog: the drop link with its upload; revoked after the confirmation.
  await page.getByRole('button', { name: links.dropAction, exact: true }).click();
  const row = page.getByRole('dialog', { name: title }).getByRole('table').getByRole('row').nth(1);
  await expect(row).toContainText(links.kinds.drop);
  await expect(row).toContainText(fill(links.uploadsCount_one, { count: 1 }));
  await row.getByRole('button', { name: links.revoke }).click();
  const confirm = page.getByRole('alertdialog', { name: links.confirmTitle });
  await expect(confirm).toContainText(fill(links.confirmTextDrop, { name: 'Handouts' }));
  await confirm.getByRole('button', { name: links.revoke }).click();
  await expect(page.getByText(fill(links.revoked, { name: 'Handouts' }), { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('dialog', { name: title }).getByRole('table').getByRole('row').nth(1)).toContainText(links.states.revoked);

  await visitorPage.reload();
  await expect(visitorPage.getByText(links.page.errors.linkRevoked)).toBeVisible();
  await visitor.close();
});

test('the room’s links overview lists its file and upload links with target and maker’s name; one is revoked from there', async ({ page }) => {
  test.setTimeout(90_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Links overview room');
  const folder = await apiCreateFolder(server, session, room.uuid, 'Reports');
  const file = await apiUploadRoomFile(server, session, room.uuid, folder.uuid, 'q3-report.bin', new Uint8Array(testFileBytes(2000)));
  expect((await apiCall(server, session, 'POST', ROOM_LINK_PATHS.links(room.uuid, file.uuid), { password: 'Overview-Pass-1', maxDownloads: 3 })).status).toBe(201);
  expect((await apiCall(server, session, 'POST', ROOM_FOLDER_LINK_PATHS.links(room.uuid, folder.uuid), { kind: 'drop' })).status).toBe(201);

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await page.getByRole('button', { name: links.overview.show, exact: true }).click();
  const table = page.getByRole('table', { name: links.overview.title });
  const fileRow = table.getByRole('row').filter({ hasText: 'q3-report.bin' });
  await expect(fileRow).toContainText(`Links overview room › Reports`);
  await expect(fileRow).toContainText(links.kinds.file);
  await expect(fileRow).toContainText('Folka Linden');
  await expect(fileRow).toContainText(fill(links.downloadsOfLimit, { done: 0, limit: 3 }));
  await expect(fileRow.getByRole('cell', { name: links.passwordYes, exact: true })).toBeVisible();
  const dropRow = table.getByRole('row').filter({ hasText: links.kinds.drop });
  await expect(dropRow).toContainText('Reports');
  await expect(dropRow).toContainText(fill(links.uploadsCount_other, { count: 0 }));
  await expectNoSeriousA11yViolations(page, 'room links overview');

  await fileRow.getByRole('button', { name: links.revoke }).click();
  const confirm = page.getByRole('alertdialog', { name: links.confirmTitle });
  await expect(confirm).toContainText(fill(links.confirmText, { name: 'q3-report.bin' }));
  await confirm.getByRole('button', { name: links.revoke, exact: true }).click();
  await expect(fileRow).toContainText(links.states.revoked);
  await expect(fileRow.getByRole('button', { name: links.revoke })).toHaveCount(0);
  await expect(dropRow).toContainText(links.states.active);
});
