// A room's trash in the browser (issue 32 §1): an EDITOR who deleted a file and a folder opens the
// room's trash from the room page, restores the file with the keyboard (toast, back in the room),
// deletes the folder for good after a confirmation (Cancel keeps it) and sees the empty state; a
// VIEWER has no way there. In a Secure room the owner sees the deleted folder's decrypted name in
// the trash and restores it. Search ignores case and accents (plain: server; Secure: browser).
// axe on the trash screens, at 1280 and 390 px. A data-room-only account lands in Datarooms.
import { expect, type Page } from '@playwright/test';
import { ROOM_PATHS } from '@shared/contract/rooms';
import { startTestServer, type TestServer } from '../support/server';
import { createUser as createUserInRepository } from '@tests/integration/escalation-helpers';
import { apiCall, apiCreateAccount, apiSignIn, expectNoSeriousA11yViolations, locale, secuPassFromNode, signIn, signInToInbox, test } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiShareRoom, apiUploadRoomFile, newE2eFolder, newE2eRoom, unlockRoomKeys } from './rooms-fixtures';
import { e2eRowAction, ROW_ITEMS } from './e2e-row-menu';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const PASSWORD = 'Good-Passw0rd-rooms-trash';
const PASSPHRASE = 'Owner-Room-Trash-SecuPass-Basalt-47';
const owner = { email: 'owner.rooms-trash@example.test', password: PASSWORD };
const editor = { email: 'editor.rooms-trash@example.test', password: PASSWORD };
const viewer = { email: 'viewer.rooms-trash@example.test', password: PASSWORD };
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

let server: TestServer;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const account of [owner, editor, viewer]) await apiCreateAccount(server, admin, account);
  await secuPassFromNode(server, owner, PASSPHRASE);
});
test.afterAll(async () => {
  await server?.close();
});

test('an EDITOR restores a deleted file and deletes a folder for good from the room’s trash; a VIEWER has no trash', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Harbour project');
  await apiShareRoom(server, session, room.uuid, editor.email, 'EDITOR');
  await apiShareRoom(server, session, room.uuid, viewer.email, 'VIEWER');
  const folder = await apiCreateFolder(server, session, room.uuid, 'Old drafts');
  const file = await apiUploadRoomFile(server, session, room.uuid, null, 'Überblick.pdf', new Uint8Array([1, 2, 3, 4]));
  const editorApi = await apiSignIn(server, editor);
  expect((await apiCall(server, editorApi, 'DELETE', ROOM_PATHS.file(room.uuid, file.uuid))).status).toBe(204);
  expect((await apiCall(server, editorApi, 'DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid))).status).toBe(204);

  await signInToInbox(page, server, editor);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Harbour project' })).toBeVisible();
  await expect(page.getByText(rooms.files.emptyEditor)).toBeVisible();
  await page.getByRole('toolbar', { name: rooms.room.toolbar }).getByRole('button', { name: rooms.trash.open, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: fill(rooms.trash.titleOf, { name: 'Harbour project' }) })).toBeVisible();
  const table = page.getByRole('table', { name: rooms.trash.tableLabel });
  await expect(table.getByRole('row', { name: /Überblick\.pdf/ })).toContainText(rooms.trash.types.file);
  await expect(table.getByRole('row', { name: /Old drafts/ })).toContainText(editor.email);
  await expectNoSeriousA11yViolations(page, 'room trash (editor)');

  // Restore by keyboard: the button is reached and pressed without a mouse.
  const restore = page.getByRole('button', { name: fill(rooms.trash.restoreLabel, { name: 'Überblick.pdf' }) });
  await restore.focus();
  await page.keyboard.press('Enter');
  await expect(toast(page, fill(rooms.trash.restored, { name: 'Überblick.pdf' }))).toBeVisible();
  await expect(table.getByRole('row', { name: /Überblick\.pdf/ })).toHaveCount(0);

  // Delete for good asks first; Cancel keeps the folder.
  const purge = page.getByRole('button', { name: fill(rooms.trash.purgeLabel, { name: 'Old drafts' }) });
  await purge.click();
  const confirm = page.getByRole('alertdialog', { name: fill(rooms.trash.purgeTitle, { name: 'Old drafts' }) });
  await expect(confirm).toContainText(rooms.trash.purgeFolderText);
  await expectNoSeriousA11yViolations(page, 'delete for good confirmation');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(table.getByRole('row', { name: /Old drafts/ })).toBeVisible();
  await purge.click();
  await confirm.getByRole('button', { name: rooms.trash.purge }).click();
  await expect(toast(page, fill(rooms.trash.purged, { name: 'Old drafts' }))).toBeVisible();
  await expect(page.getByText(rooms.trash.empty)).toBeVisible();

  // At phone width the screen still offers the way back and the empty state.
  await page.setViewportSize({ width: 390, height: 800 });
  await expectNoSeriousA11yViolations(page, 'empty room trash at 390 px');
  await page.getByRole('link', { name: fill(rooms.trash.backTo, { name: 'Harbour project' }) }).click();
  await expect(page.getByRole('table', { name: rooms.files.title }).getByRole('row', { name: /Überblick\.pdf/ })).toBeVisible();
  const after = await apiCall(server, session, 'GET', ROOM_PATHS.trash(room.uuid));
  expect(((await after.json()) as { entries: unknown[] }).entries).toEqual([]);
  // The search ignores case and accents (issue 32 §1): "uberblick" finds "Überblick.pdf".
  await page.goto(`${server.url}/datarooms/search?q=uberblick`);
  await expect(page.getByRole('link', { name: 'Überblick.pdf' }).first()).toBeVisible();

  // A VIEWER may not delete, so the room page offers no trash and the server refuses it.
  const context = await browser.newContext();
  const other = await context.newPage();
  await signInToInbox(other, server, viewer);
  await other.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(other.getByRole('heading', { level: 1, name: 'Harbour project' })).toBeVisible();
  await expect(other.getByText(rooms.roles.VIEWER, { exact: true })).toBeVisible();
  await expect(other.getByRole('button', { name: rooms.trash.open, exact: true })).toHaveCount(0);
  await other.goto(`${server.url}/datarooms/${room.uuid}/trash`);
  await expect(other.getByText(rooms.errors.forbidden)).toBeVisible();
  await context.close();
});

test('in a Secure room the trash shows the decrypted name and restores the folder', async ({ page }) => {
  test.setTimeout(240_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms`);
  await unlockRoomKeys(page, PASSPHRASE);
  await newE2eRoom(page, 'Sealed harbour');
  await newE2eFolder(page, 'Projekt Ä');
  await e2eRowAction(page, 'Projekt Ä', ROW_ITEMS.delete, 'folder');
  await page.getByRole('alertdialog').getByRole('button', { name: rooms.delete.confirm }).click();
  await expect(page.getByRole('link', { name: 'Projekt Ä', exact: true })).toHaveCount(0, { timeout: 30_000 });

  await page.getByRole('button', { name: rooms.trash.open, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: rooms.trash.title })).toBeVisible();
  const row = page.getByRole('table', { name: rooms.trash.tableLabel }).getByRole('row', { name: /Projekt Ä/ });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expectNoSeriousA11yViolations(page, 'Secure room trash');
  await page.setViewportSize({ width: 390, height: 800 });
  await expectNoSeriousA11yViolations(page, 'Secure room trash at 390 px');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: fill(rooms.trash.restoreLabel, { name: 'Projekt Ä' }) }).click();
  // One toast at a time (5 s each): this one follows the delete's.
  await expect(toast(page, fill(rooms.trash.restored, { name: 'Projekt Ä' }))).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(rooms.trash.empty)).toBeVisible();
  await page.getByRole('link', { name: rooms.trash.back }).click();
  await expect(page.getByRole('link', { name: 'Projekt Ä', exact: true })).toBeVisible({ timeout: 30_000 });
  // The browser's search over the decrypted names ignores case and accents too.
  await page.getByRole('searchbox', { name: rooms.e2e.search }).fill('projekt a');
  await expect(page.getByRole('table', { name: rooms.e2e.contentsLabel }).getByRole('link', { name: 'Projekt Ä', exact: true })).toBeVisible();
  // The Secure room page (decrypted, filtered) at phone width.
  await page.setViewportSize({ width: 390, height: 800 });
  await expectNoSeriousA11yViolations(page, 'Secure room at 390 px');
});

test('a data-room-only account (no sending role, a room shared with it) lands in Datarooms after sign-in', async ({ page }) => {
  const roomOnly = await createUserInRepository(server, { username: 'room-only-trash', roles: ['ROLE_UI_USER', 'ROLE_RECEIVER'] });
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Shared with a guest');
  await apiShareRoom(server, session, room.uuid, roomOnly.email, 'VIEWER');
  await signIn(page, server, roomOnly);
  await expect(page).toHaveURL(/\/datarooms$/);
  await expect(page.getByRole('heading', { level: 1, name: rooms.list.title })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Shared with a guest' })).toBeVisible();
});
