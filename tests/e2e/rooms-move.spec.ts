// Moving in a plain data room through the web client against the real server (issue 15): the file
// menu's and folder menu's "Move" open the move-to dialog, a folder tree of the same room only
// (the moved folder is not offered as its own target); success and failure toasts name the item
// and the target; a move into another room (forced by rewriting the request) shows the server's
// refusal. axe on the dialog.
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const ctx = serverPerFile();
let owner: TestUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'mona', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');

test('files and folders move to a folder of the same room; the tree offers no other room and not the folder itself', async ({ page }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Move Room');
  const other = await apiCreateRoom(server, session, 'Other Room');
  await apiCreateFolder(server, session, other.uuid, 'Elsewhere');
  const drafts = await apiCreateFolder(server, session, room.uuid, 'Drafts');
  await apiCreateFolder(server, session, room.uuid, 'Old', drafts.uuid);
  await apiCreateFolder(server, session, room.uuid, 'Final');
  const bytes = new TextEncoder().encode('the notes');
  await apiUploadRoomFile(server, session, room.uuid, drafts.uuid, 'notes.txt', bytes);
  await apiUploadRoomFile(server, session, room.uuid, drafts.uuid, 'plan.txt', bytes);

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}/folders/${drafts.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Drafts' })).toBeVisible();
  const files = page.getByRole('table', { name: rooms.files.title });

  // File menu › Move: the room's tree, the other room is not there.
  await page.getByRole('button', { name: 'Actions for file notes.txt' }).click();
  await page.getByRole('menuitem', { name: rooms.move.action }).click();
  const dialog = page.getByRole('dialog', { name: fill(rooms.move.fileTitle, { name: 'notes.txt' }) });
  const tree = dialog.getByRole('tree', { name: fill(rooms.move.treeLabel, { name: 'Move Room' }) });
  await expect(tree.getByRole('treeitem', { name: 'Final' })).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: 'Drafts' })).toBeVisible();
  await expect(dialog.getByText('Other Room')).toHaveCount(0);
  await expect(dialog.getByText('Elsewhere')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: rooms.move.submit })).toBeDisabled();
  // Where it is already: nothing to move.
  await tree.getByRole('treeitem', { name: 'Drafts' }).getByRole('radio').check();
  await expect(dialog.getByText(fill(rooms.move.alreadyThere, { name: 'notes.txt', target: 'Drafts' }))).toBeVisible();
  await expect(dialog.getByRole('button', { name: rooms.move.submit })).toBeDisabled();
  // A nested folder, opened in the tree (loaded when opened).
  await tree.getByRole('treeitem', { name: 'Drafts' }).click();
  await expect(tree.getByRole('treeitem', { name: 'Old' })).toBeVisible();
  await tree.getByRole('treeitem', { name: 'Old' }).getByRole('radio').check();
  await expect(dialog.getByText(fill(rooms.move.target, { target: 'Old' }))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'move-to dialog');
  await dialog.getByRole('button', { name: rooms.move.submit }).click();
  await expect(toast(page, fill(rooms.move.done, { name: 'notes.txt', target: 'Old' }))).toBeVisible();
  await expect(files.getByRole('row', { name: /notes\.txt/ })).toHaveCount(0);
  const moved = await server.app.db.selectFrom('room_files').innerJoin('room_folders', 'room_folders.id', 'room_files.folder_id').select('room_folders.name').where('room_files.name', '=', 'notes.txt').executeTakeFirstOrThrow();
  expect(moved.name).toBe('Old');

  // A folder: it is not offered as its own target (nor what is below it); to the top level.
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await page.getByRole('button', { name: 'Actions for folder Drafts' }).click();
  await page.getByRole('menuitem', { name: rooms.move.action }).click();
  const folderDialog = page.getByRole('dialog', { name: fill(rooms.move.folderTitle, { name: 'Drafts' }) });
  const folderTree = folderDialog.getByRole('tree');
  await expect(folderTree.getByRole('treeitem', { name: 'Final' })).toBeVisible();
  await expect(folderTree.getByRole('treeitem', { name: 'Drafts' })).toHaveCount(0);
  await folderTree.getByRole('treeitem', { name: 'Final' }).getByRole('radio').check();
  await folderDialog.getByRole('button', { name: rooms.move.submit }).click();
  await expect(toast(page, fill(rooms.move.done, { name: 'Drafts', target: 'Final' }))).toBeVisible();
  const folders = page.getByRole('table', { name: rooms.room.folders });
  await expect(folders.getByRole('row', { name: /Drafts/ })).toHaveCount(0);
  await folders.getByRole('link', { name: 'Final' }).click();
  await expect(page.getByRole('table', { name: rooms.room.folders }).getByRole('link', { name: 'Drafts' })).toBeVisible();

  // Into another room: the dialog never offers it; forced onto the wire, the server's refusal shows.
  await page.getByRole('link', { name: 'Drafts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Drafts' })).toBeVisible();
  await page.route(`**/api/2/rooms/${room.uuid}/files/*`, async (route) => {
    if (route.request().method() !== 'PATCH') return route.continue();
    await route.continue({ postData: JSON.stringify({ ...(route.request().postDataJSON() as object), roomUuid: other.uuid }) });
  });
  await page.getByRole('button', { name: 'Actions for file plan.txt' }).click();
  await page.getByRole('menuitem', { name: rooms.move.action }).click();
  const refused = page.getByRole('dialog', { name: fill(rooms.move.fileTitle, { name: 'plan.txt' }) });
  await refused.getByRole('tree').getByRole('treeitem', { name: 'Move Room' }).getByRole('radio').first().check();
  await refused.getByRole('button', { name: rooms.move.submit }).click();
  await expect(toast(page, fill(rooms.move.failed, { name: 'plan.txt', target: 'Move Room' }))).toBeVisible();
  await expect(toast(page, rooms.errors.moveToOtherRoom)).toBeVisible();
  // The dialog stays for another choice; the file stays where it was.
  await page.unroute(`**/api/2/rooms/${room.uuid}/files/*`);
  await refused.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('table', { name: rooms.files.title }).getByRole('row', { name: /plan\.txt/ })).toBeVisible();
  const stays = await server.app.db.selectFrom('room_files').select('folder_id').where('name', '=', 'plan.txt').executeTakeFirstOrThrow();
  expect(stays.folder_id).not.toBeNull();
});
