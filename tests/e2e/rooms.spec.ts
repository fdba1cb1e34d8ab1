// Data rooms in the web client against the real server (issue 15, plain rooms): an owner creates a
// room and nested folders (the server's name answers at the field), shares the room with a second
// user as VIEWER (an unregistered address and the last owner stepping down are refused with the
// server's message), the viewer (who may not create rooms) sees the room without any edit or create
// button and an empty state that does not invite to create; rename and delete behind
// their confirmation, from the room page and from the list. axe on every screen and dialog; the
// main actions are reached with Tab and used with the keyboard.
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { en as enBase, expectNoSeriousA11yViolations, locale, screenshotsAtWidths, serverPerFile, signInToInbox, test } from './fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const en = { ...enBase, rooms };
const ctx = serverPerFile();

let owner: TestUser;
let viewer: TestUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'olivia', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  viewer = await createUserInRepository(ctx.server, { username: 'victor' });
  // Without the licence and ROLE_SECUROOMS_CREATOR: may be invited, may not create rooms (SPEC §6).
  await ctx.server.app.users.update(viewer.id, { licensed: 0 });
});

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

/** Presses Tab until the focused element is the one named `name` (at most 60 steps): it is keyboard reachable. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let step = 0; step < 60; step++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return element ? (element.getAttribute('aria-label') ?? element.innerText ?? '').trim() : '';
    });
    if (focused === name) return;
  }
  throw new Error(`"${name}" was not reached with Tab`);
}

async function openDatarooms(page: Page) {
  await page.getByRole('navigation', { name: en.shell.menu.label }).getByRole('link', { name: en.shell.menu.datarooms }).click();
  await expect(page).toHaveURL(/\/datarooms$/);
  await expect(page.getByRole('heading', { level: 1, name: rooms.list.title })).toBeVisible();
}

test('an owner creates a room and nested folders and shares it; a viewer sees it without edit buttons; rename and delete', async ({ page, browser }) => {
  // Two people, a dozen axe scans and every dialog in one story.
  test.setTimeout(180_000);
  const { server } = ctx;
  await signInToInbox(page, server, owner);

  // The menu entry opens the list: empty state.
  await openDatarooms(page);
  await expect(page.getByText(rooms.list.empty)).toBeVisible();
  await expect(page.getByText(rooms.list.emptyHint)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'data rooms (empty)');

  // Create: empty name → the field says so; an invalid name → the shared name rule's text at the field.
  await page.getByRole('button', { name: rooms.create.action }).click();
  const createDialog = page.getByRole('dialog', { name: rooms.create.title });
  const roomName = createDialog.getByRole('textbox', { name: rooms.create.nameLabel });
  await createDialog.getByRole('button', { name: rooms.create.submit }).click();
  await expect(roomName).toHaveAttribute('aria-invalid', 'true');
  await expect(createDialog.getByText(en.common.validation.required)).toBeVisible();
  await roomName.fill('Plans: 2026');
  await createDialog.getByRole('button', { name: rooms.create.submit }).click();
  await expect(createDialog.getByText(rooms.errors.name.invalidCharacters)).toBeVisible();
  // Issue 28: the one name rule in the browser — a bidi control is refused with its own text.
  await roomName.fill('invoice\u202Efdp.exe');
  await createDialog.getByRole('button', { name: rooms.create.submit }).click();
  await expect(createDialog.getByText(rooms.errors.name.bidiControl)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'create data room dialog');
  await roomName.fill('Project Alpha');
  await roomName.press('Enter');
  await expect(toast(page, 'Data room “Project Alpha” created.')).toBeVisible();
  await expect(page).toHaveURL(/\/datarooms\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Project Alpha' })).toBeVisible();
  const roomUrl = page.url();
  await expect(page.getByText(rooms.room.noFoldersEditor)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'data room (empty)');

  // A folder, created with the keyboard only.
  await page.getByRole('heading', { level: 1, name: 'Project Alpha' }).focus();
  await tabTo(page, rooms.folder.createAction);
  await page.keyboard.press('Enter');
  const folderDialog = page.getByRole('dialog', { name: 'New folder in “Project Alpha”' });
  await expect(folderDialog.getByRole('textbox', { name: rooms.folder.nameLabel })).toBeFocused();
  await page.keyboard.type('Contracts');
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Folder “Contracts” created.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Contracts' })).toBeVisible();

  // Open it: breadcrumb; a nested folder; a duplicate name is the server's "already exists" at the field.
  await page.getByRole('link', { name: 'Contracts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Contracts' })).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: rooms.room.breadcrumb });
  await expect(crumbs.getByRole('listitem')).toHaveText([rooms.list.title, '› Project Alpha', '› Contracts']);
  await page.getByRole('button', { name: rooms.folder.createAction }).click();
  await page.getByRole('textbox', { name: rooms.folder.nameLabel }).fill('2026');
  await page.getByRole('button', { name: rooms.folder.create, exact: true }).click();
  await expect(toast(page, 'Folder “2026” created.')).toBeVisible();
  await page.getByRole('button', { name: rooms.folder.createAction }).click();
  await page.getByRole('textbox', { name: rooms.folder.nameLabel }).fill('2026');
  await page.getByRole('button', { name: rooms.folder.create, exact: true }).click();
  await expect(page.getByRole('dialog').getByText(rooms.errors.folderExists)).toBeVisible();
  await page.getByRole('button', { name: en.common.actions.cancel }).click();
  await page.getByRole('link', { name: '2026' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '2026' })).toBeVisible();
  await expect(crumbs.getByRole('listitem')).toHaveText([rooms.list.title, '› Project Alpha', '› Contracts', '› 2026']);
  await expect(crumbs.getByText('2026')).toHaveAttribute('aria-current', 'page');
  await expectNoSeriousA11yViolations(page, 'nested folder');
  await screenshotsAtWidths(page, 'rooms-folder');
  await crumbs.getByRole('link', { name: 'Project Alpha' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Project Alpha' })).toBeVisible();

  // Share: a name that is neither an account nor an address is refused at the field (an address
  // without an account is invited: rooms-invite.spec.ts); the viewer is added.
  await page.getByRole('button', { name: rooms.share.action, exact: true }).click();
  const share = page.getByRole('dialog', { name: 'Share “Project Alpha”' });
  await expect(share.getByRole('table', { name: 'Who has access to “Project Alpha”' })).toContainText(owner.email);
  await share.getByRole('textbox', { name: rooms.share.user }).fill('nobody-at-all');
  await share.getByRole('button', { name: rooms.share.add }).click();
  await expect(share.getByText(rooms.errors.notRegistered)).toBeVisible();
  await share.getByRole('textbox', { name: rooms.share.user }).fill(viewer.email);
  await share.getByRole('combobox', { name: rooms.share.role, exact: true }).selectOption('VIEWER');
  await share.getByRole('button', { name: rooms.share.add }).click();
  await expect(toast(page, `${viewer.email} is now Viewer of “Project Alpha”.`)).toBeVisible();
  await expect(share.getByRole('combobox', { name: `Role of ${viewer.email}` })).toHaveValue('VIEWER');
  await expectNoSeriousA11yViolations(page, 'share dialog');

  // The owner steps down: asked first (irreversible), then the server refuses the last owner.
  await share.getByRole('combobox', { name: `Role of ${owner.email}` }).selectOption('EDITOR');
  const own = page.getByRole('alertdialog', { name: rooms.share.ownTitle });
  await expect(own).toContainText('You cannot undo this yourself');
  await expectNoSeriousA11yViolations(page, 'change own access dialog');
  await own.getByRole('button', { name: rooms.share.ownConfirm }).click();
  await expect(page.getByText(rooms.errors.lastOwner).first()).toBeVisible();
  await expect(share.getByRole('combobox', { name: `Role of ${owner.email}` })).toHaveValue('OWNER');
  await share.getByRole('button', { name: rooms.share.close }).click();

  // The viewer: the room in the list with their role, no actions; inside, no edit buttons.
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await signInToInbox(viewerPage, server, viewer);
  await openDatarooms(viewerPage);
  const viewerList = viewerPage.getByRole('table', { name: rooms.list.tableLabel });
  await expect(viewerList.getByRole('row', { name: /Project Alpha/ })).toContainText(rooms.roles.VIEWER);
  await expect(viewerList.getByRole('button')).toHaveCount(0);
  await expectNoSeriousA11yViolations(viewerPage, 'data rooms (viewer)');
  await screenshotsAtWidths(viewerPage, 'rooms-list-viewer');
  // This unlicensed account may not create rooms (the list's mayCreate.plain): no action that can only fail.
  await expect(viewerPage.getByRole('button', { name: rooms.create.action })).toHaveCount(0);
  await expect(viewerList.getByRole('row')).toHaveCount(2);
  await viewerList.getByRole('link', { name: 'Project Alpha' }).click();
  await expect(viewerPage.getByRole('heading', { level: 1, name: 'Project Alpha' })).toBeVisible();
  await expect(viewerPage.getByRole('link', { name: 'Contracts' })).toBeVisible();
  for (const name of [rooms.folder.createAction, rooms.share.action, rooms.rename.roomAction, rooms.delete.roomAction]) {
    await expect(viewerPage.getByRole('button', { name })).toHaveCount(0);
  }
  // The folder's menu holds only Details for a viewer.
  await viewerPage.getByRole('button', { name: 'Actions for folder Contracts' }).click();
  await expect(viewerPage.getByRole('menuitem')).toHaveText([rooms.details.action]);
  await viewerPage.keyboard.press('Escape');
  await viewerPage.getByRole('link', { name: 'Contracts' }).click();
  await expect(viewerPage.getByRole('heading', { level: 1, name: 'Contracts' })).toBeVisible();
  await expect(viewerPage.getByRole('button', { name: rooms.rename.folderAction })).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: rooms.delete.folderAction })).toHaveCount(0);
  await expectNoSeriousA11yViolations(viewerPage, 'data room folder (viewer)');

  // A role set on a folder: the owner makes the viewer EDITOR of Contracts only.
  await page.goto(roomUrl);
  await page.getByRole('link', { name: 'Contracts' }).click();
  await page.getByRole('button', { name: rooms.share.action, exact: true }).click();
  const folderShare = page.getByRole('dialog', { name: 'Share “Contracts”' });
  const victorRow = folderShare.getByRole('row', { name: new RegExp(viewer.email) });
  await expect(victorRow).toContainText(rooms.share.inheritedRoom);
  await expect(victorRow.getByRole('button', { name: `Remove access of ${viewer.email}` })).toHaveCount(0);
  await victorRow.getByRole('combobox', { name: `Role of ${viewer.email}` }).selectOption('EDITOR');
  // Asked first, with the details sidebar's texts.
  const confirmRole = page.getByRole('alertdialog', { name: `Change the role of ${viewer.email}?` });
  await expect(confirmRole).toContainText(`${viewer.email} becomes Editor of “Contracts”.`);
  await confirmRole.getByRole('button', { name: rooms.details.changeConfirm }).click();
  await expect(toast(page, `${viewer.email} is now Editor of “Contracts”.`)).toBeVisible();
  await expect(victorRow).toContainText(rooms.share.setHere);
  await screenshotsAtWidths(page, 'rooms-share-folder');
  await folderShare.getByRole('button', { name: rooms.share.close }).click();
  await viewerPage.reload();
  await expect(viewerPage.getByRole('heading', { level: 1, name: 'Contracts' })).toBeVisible();
  await expect(viewerPage.getByRole('button', { name: rooms.folder.createAction })).toBeVisible();
  await expect(viewerPage.getByRole('button', { name: rooms.share.action, exact: true })).toHaveCount(0);
  await viewerPage.getByRole('navigation', { name: rooms.room.breadcrumb }).getByRole('link', { name: 'Project Alpha' }).click();
  await expect(viewerPage.getByRole('heading', { level: 1, name: 'Project Alpha' })).toBeVisible();
  await expect(viewerPage.getByRole('button', { name: rooms.folder.createAction })).toHaveCount(0);
  await viewerPage.getByRole('link', { name: 'Contracts' }).click();
  await expect(viewerPage.getByRole('heading', { level: 1, name: 'Contracts' })).toBeVisible();

  // The owner renames the folder from its row menu (keyboard), then deletes it: Cancel keeps it.
  await page.goto(roomUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Project Alpha' })).toBeVisible();
  await page.getByRole('heading', { level: 1, name: 'Project Alpha' }).focus();
  await tabTo(page, 'Actions for folder Contracts');
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: rooms.rename.action }).press('Enter');
  const renameDialog = page.getByRole('dialog', { name: 'Rename folder “Contracts”' });
  await renameDialog.getByRole('textbox', { name: rooms.folder.nameLabel }).fill('Agreements');
  await renameDialog.getByRole('button', { name: rooms.rename.submit }).click();
  await expect(toast(page, 'Folder “Contracts” renamed to “Agreements”.')).toBeVisible();
  await page.getByRole('button', { name: 'Actions for folder Agreements' }).click();
  await page.getByRole('menuitem', { name: rooms.delete.action }).click();
  const confirmFolder = page.getByRole('alertdialog', { name: 'Delete folder “Agreements”?' });
  await expect(confirmFolder).toContainText('moves to the trash');
  await expectNoSeriousA11yViolations(page, 'delete folder confirmation');
  await confirmFolder.getByRole('button', { name: en.common.actions.cancel }).click();
  await expect(page.getByRole('link', { name: 'Agreements' })).toBeVisible();
  await page.getByRole('button', { name: 'Actions for folder Agreements' }).click();
  await page.getByRole('menuitem', { name: rooms.delete.action }).click();
  await confirmFolder.getByRole('button', { name: rooms.delete.confirm }).click();
  await expect(toast(page, 'Folder “Agreements” deleted.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Agreements' })).toHaveCount(0);

  // The viewer's open folder is gone for them too.
  await viewerPage.reload();
  await expect(viewerPage.getByText(rooms.room.notFound)).toBeVisible();

  // Rename the room on its page, then delete it from the list.
  await page.getByRole('button', { name: rooms.rename.roomAction }).click();
  const renameRoomDialog = page.getByRole('dialog', { name: 'Rename data room “Project Alpha”' });
  await renameRoomDialog.getByRole('textbox', { name: rooms.create.nameLabel }).fill('Project Beta');
  await renameRoomDialog.getByRole('button', { name: rooms.rename.submit }).click();
  await expect(toast(page, 'Data room “Project Alpha” renamed to “Project Beta”.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Project Beta' })).toBeVisible();
  await openDatarooms(page);
  await page.getByRole('button', { name: 'Actions for Project Beta' }).click();
  await page.getByRole('menuitem', { name: rooms.delete.action }).click();
  const confirmRoom = page.getByRole('alertdialog', { name: 'Delete data room “Project Beta”?' });
  await confirmRoom.getByRole('button', { name: rooms.delete.confirm }).click();
  await expect(toast(page, 'Data room “Project Beta” deleted.')).toBeVisible();
  await expect(page.getByText(rooms.list.empty)).toBeVisible();

  // Gone for the viewer as well: their empty state waits for an invitation instead of inviting to create.
  await openDatarooms(viewerPage);
  await expect(viewerPage.getByText(rooms.list.empty)).toBeVisible();
  await expect(viewerPage.getByText(rooms.list.emptyHintInvited)).toBeVisible();
  await expect(viewerPage.getByText(rooms.list.emptyHint, { exact: true })).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: rooms.create.action })).toHaveCount(0);
  await viewerContext.close();
});

test('Secure rooms lists the end-to-end encrypted rooms (rooms-e2e.spec.ts has the whole flow)', async ({ page }) => {
  await signInToInbox(page, ctx.server, owner);
  await page.getByRole('navigation', { name: en.shell.menu.label }).getByRole('link', { name: en.shell.menu.secureRooms }).click();
  await expect(page).toHaveURL(/\/secure-rooms$/);
  await expect(page.getByRole('heading', { level: 1, name: en.shell.menu.secureRooms })).toBeVisible();
  await expect(page.getByText(en.shell.comingSoon.text)).toHaveCount(0);
});
