// Comments, classification and file status in a plain data room against the real server (issue 31
// §1): an EDITOR adds, edits and deletes her comment in the details sidebar's Comments tab; a VIEWER
// sees the comments without any button; the OWNER sets a file's classification and status through
// their dialogs, the badges show in the room table and the filter above it keeps only the matching
// rows. axe on each screen.
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiShareRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const rc = locale<typeof import('@locales/en/roomComments.json')>('en', 'roomComments');
const ctx = serverPerFile();
let owner: TestUser;
let editor: TestUser;
let viewer: TestUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'olga', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  editor = await createUserInRepository(ctx.server, { username: 'emil' });
  viewer = await createUserInRepository(ctx.server, { username: 'vera' });
});

const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

async function openFileComments(page: Page, fileName: string) {
  await page.getByRole('button', { name: `Actions for file ${fileName}` }).click();
  await page.getByRole('menuitem', { name: rooms.details.action }).click();
  const panel = page.getByRole('dialog', { name: fill(rooms.details.title, { name: fileName }) });
  await panel.getByRole('tab', { name: rc.comments.tab }).click();
  return panel;
}

test('comments: an EDITOR adds, edits and deletes her own; a VIEWER reads them without buttons', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Tender Room');
  await apiUploadRoomFile(server, session, room.uuid, null, 'offer.txt', new TextEncoder().encode('the offer'), 'text/plain');
  await apiShareRoom(server, session, room.uuid, editor.email, 'EDITOR');
  await apiShareRoom(server, session, room.uuid, viewer.email, 'VIEWER');

  await signInToInbox(page, server, editor);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  const panel = await openFileComments(page, 'offer.txt');
  await expect(panel.getByText(rc.comments.empty)).toBeVisible();
  // Blank: the field says so, nothing is sent.
  await panel.getByRole('button', { name: rc.comments.add }).click();
  await expect(panel.getByText('Field is required')).toBeVisible();
  await panel.getByRole('textbox', { name: rc.comments.newLabel }).fill('Please check the price.');
  await panel.getByRole('button', { name: rc.comments.add }).click();
  await expect(toast(page, rc.comments.added)).toBeVisible({ timeout: 30_000 });
  const list = panel.getByRole('listitem');
  await expect(list).toHaveCount(1);
  await expect(list.first()).toContainText('Please check the price.');
  await expect(list.first()).toContainText(editor.email);
  await expectNoSeriousA11yViolations(page, 'details sidebar (comments tab)');

  await panel.getByRole('button', { name: /^Edit the comment of / }).click();
  await panel.getByRole('textbox', { name: rc.comments.editLabel, exact: true }).fill('Price checked twice.');
  await panel.getByRole('button', { name: rc.comments.save }).click();
  await expect(list.first()).toContainText('Price checked twice.');
  await expect(list.first()).toContainText(rc.comments.editedMark);
  await panel.getByRole('textbox', { name: rc.comments.newLabel }).fill('A second remark.');
  await panel.getByRole('button', { name: rc.comments.add }).click();
  await expect(list).toHaveCount(2);
  await panel.getByRole('button', { name: /^Delete the comment of / }).last().click();
  const confirm = page.getByRole('alertdialog', { name: rc.comments.deleteTitle });
  await expectNoSeriousA11yViolations(page, 'delete comment confirmation');
  await confirm.getByRole('button', { name: rc.comments.delete }).click();
  await expect(toast(page, rc.comments.deleted)).toBeVisible({ timeout: 30_000 }); // toasts queue, one at a time, 5 s each
  await expect(list).toHaveCount(1);

  // The VIEWER reads, without add, edit or delete.
  const context = await browser.newContext();
  const viewerPage = await context.newPage();
  await signInToInbox(viewerPage, server, viewer);
  await viewerPage.goto(`${server.url}/datarooms/${room.uuid}`);
  const viewerPanel = await openFileComments(viewerPage, 'offer.txt');
  await expect(viewerPanel.getByRole('listitem').first()).toContainText('Price checked twice.');
  await expect(viewerPanel.getByRole('button', { name: rc.comments.add })).toHaveCount(0);
  await expect(viewerPanel.getByRole('button', { name: /comment of/ })).toHaveCount(0);
  await expect(viewerPanel.getByRole('textbox')).toHaveCount(0);
  await expectNoSeriousA11yViolations(viewerPage, 'details sidebar (comments tab, viewer)');
  await context.close();
});

test('classification and status: set through their dialogs, shown as badges, the filter keeps the matching rows', async ({ page }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Labels Room');
  await apiCreateFolder(server, session, room.uuid, 'Drafts');
  await apiUploadRoomFile(server, session, room.uuid, null, 'secret.txt', new TextEncoder().encode('s'), 'text/plain');
  await apiUploadRoomFile(server, session, room.uuid, null, 'open.txt', new TextEncoder().encode('o'), 'text/plain');

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await page.getByRole('button', { name: 'Actions for file secret.txt' }).click();
  await page.getByRole('menuitem', { name: rc.classification.action }).click();
  const dialog = page.getByRole('dialog', { name: fill(rc.classification.title, { name: 'secret.txt' }) });
  await dialog.getByRole('combobox', { name: rc.classification.label }).selectOption('confidential');
  await expectNoSeriousA11yViolations(page, 'classification dialog');
  await dialog.getByRole('button', { name: rc.save }).click();
  await expect(toast(page, fill(rc.classification.saved, { name: 'secret.txt' }))).toBeVisible({ timeout: 30_000 });

  await page.getByRole('button', { name: 'Actions for file secret.txt' }).click();
  await page.getByRole('menuitem', { name: rc.status.action }).click();
  const statusDialog = page.getByRole('dialog', { name: fill(rc.status.title, { name: 'secret.txt' }) });
  await statusDialog.getByRole('combobox', { name: rc.status.label }).selectOption('inProgress');
  await statusDialog.getByRole('button', { name: rc.save }).click();

  const secretRow = page.getByRole('row', { name: /secret\.txt/ });
  await expect(secretRow).toContainText(rc.classification.values.confidential);
  await expect(secretRow).toContainText(rc.status.values.inProgress);

  const filter = page.getByRole('group', { name: rc.filter.label });
  await filter.getByRole('combobox', { name: rc.filter.classification }).selectOption('confidential');
  await expect(page.getByRole('row', { name: /open\.txt/ })).toHaveCount(0);
  await expect(secretRow).toBeVisible();
  await expect(page.getByRole('link', { name: 'Drafts' })).toHaveCount(0);
  await expect(page.getByText(rc.filter.noMatch)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'room with classification filter');
  await filter.getByRole('combobox', { name: rc.filter.status }).selectOption('done');
  await expect(secretRow).toHaveCount(0);
  await filter.getByRole('combobox', { name: rc.filter.classification }).selectOption('all');
  await filter.getByRole('combobox', { name: rc.filter.status }).selectOption('all');
  await expect(page.getByRole('row', { name: /open\.txt/ })).toBeVisible();

  // The log has the SPEC §4 types.
  const kinds = await server.app.db.selectFrom('room_activity').select('kind').where('item_name', '=', 'secret.txt').orderBy('id').execute();
  expect(kinds.map((k) => k.kind)).toEqual(['upload', 'classification_set', 'status_set']);
});
