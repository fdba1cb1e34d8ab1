// Multi-select in a plain room's tables and the "Shared and recent" page (issue 32 §2): the owner
// picks two files (one by mouse, one with Space) and a folder, the toolbar counts them and its
// Download as ZIP saves an archive whose entries are SHA-256 equal to the uploads; two files move
// to one target; a file and a folder are deleted after one confirmation naming the count and come
// back from the room's trash. A member sees the room under "Shared with me" and the file another
// member uploaded among the recent files, and opens it. In a Secure room three chosen items download
// as one ZIP built in the browser, SHA-256 equal; two chosen files move into a folder (verified
// there) and a chosen file is deleted to the room's trash. axe on each screen.
import { expect, type Download, type Page } from '@playwright/test';
import AdmZip from 'adm-zip';
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { apiCreateAccount, apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiShareRoom, apiUploadRoomFile, unlockRoomKeys } from './rooms-fixtures';
import type { RoomFolder } from '@shared/contract/rooms';
import { signIn as apiSessionOf } from '@tests/integration/core-helpers';
import { e2eActor, giveSecuPass } from '@tests/integration/e2e-helpers';
import { createUser as createUserInRepository } from '@tests/integration/escalation-helpers';
import { createE2eFolder, createE2eRoom, json, openRoomKey, uploadE2eFile } from '@tests/integration/rooms-e2e-helpers';
import { testFileBytes } from '@tests/support/files';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const select = locale<typeof import('@locales/en/roomSelect.json')>('en', 'roomSelect');
const ctx = serverPerFile();
const PASSWORD = 'Good-Passw0rd-rooms-select';
const owner = { email: 'owner.rooms-select@example.test', password: PASSWORD };
const editor = { email: 'editor.rooms-select@example.test', password: PASSWORD };
const viewer = { email: 'viewer.rooms-select@example.test', password: PASSWORD };
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();
const checkbox = (page: Page, name: string) => page.getByRole('checkbox', { name: fill(select.selectRow, { name }) });

test.beforeAll(async () => {
  const admin = await apiSignIn(ctx.server, ctx.server.admin);
  for (const account of [owner, editor, viewer]) await apiCreateAccount(ctx.server, admin, account);
});

test('select three items → one ZIP, SHA-256 equal; move two to one folder; delete two and restore them from the trash', async ({ page }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Select Room');
  const alpha = await apiCreateFolder(server, session, room.uuid, 'Alpha');
  await apiCreateFolder(server, session, room.uuid, 'Target');
  await apiCreateFolder(server, session, room.uuid, 'Old folder');
  const bytes: Record<string, Uint8Array> = {};
  for (const name of ['one.bin', 'two.bin', 'three.bin', 'four.bin', 'five.bin', 'left.bin']) {
    bytes[name] = new Uint8Array(testFileBytes(2000));
    await apiUploadRoomFile(server, session, room.uuid, null, name, bytes[name]);
  }
  bytes['Alpha/inner.bin'] = new Uint8Array(testFileBytes(3000));
  await apiUploadRoomFile(server, session, room.uuid, alpha.uuid, 'inner.bin', bytes['Alpha/inner.bin']);

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Select Room' })).toBeVisible();
  const bar = page.getByRole('toolbar', { name: select.toolbar });
  await expect(bar).toHaveCount(0);

  // Mouse, keyboard (Space on the focused checkbox) and a folder row.
  await checkbox(page, 'one.bin').click();
  await checkbox(page, 'two.bin').focus();
  await page.keyboard.press('Space');
  await checkbox(page, 'Alpha').check();
  await expect(bar.getByText(fill(select.count_other, { count: 3 }))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'room with a selection');

  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), bar.getByRole('link', { name: rooms.files.zip }).click()]);
  expect(download.suggestedFilename()).toBe('Select Room.zip');
  const zip = new AdmZip(await readFile((await download.path())!));
  const entries = new Map(zip.getEntries().filter((e) => !e.isDirectory).map((e) => [e.entryName, e.getData()]));
  expect([...entries.keys()].sort()).toEqual(['Alpha/inner.bin', 'one.bin', 'two.bin']);
  for (const [name, data] of entries) expect(sha256(data), name).toBe(sha256(bytes[name]!));

  // Move two files to "Target": one dialog for both.
  await bar.getByRole('button', { name: select.clearSelection }).click();
  await expect(bar).toHaveCount(0);
  await checkbox(page, 'three.bin').check();
  await checkbox(page, 'four.bin').check();
  await bar.getByRole('button', { name: rooms.move.action }).click();
  const dialog = page.getByRole('dialog', { name: fill(select.move.title_other, { count: 2 }) });
  await dialog.getByRole('tree').getByRole('treeitem', { name: 'Target' }).getByRole('radio').check();
  await expectNoSeriousA11yViolations(page, 'move dialog of a selection');
  await dialog.getByRole('button', { name: rooms.move.submit }).click();
  await expect(toast(page, fill(select.move.done_other, { count: 2, target: 'Target' }))).toBeVisible({ timeout: 30_000 });
  const files = page.getByRole('table', { name: rooms.files.title });
  await expect(files.getByRole('row', { name: /three\.bin|four\.bin/ })).toHaveCount(0);
  const moved = await server.app.db.selectFrom('room_files').innerJoin('room_folders', 'room_folders.id', 'room_files.folder_id').select(['room_files.name', 'room_folders.name as folder']).where('room_files.name', 'in', ['three.bin', 'four.bin']).execute();
  expect(moved.map((m) => m.folder)).toEqual(['Target', 'Target']);

  // Delete a file and a folder: one confirmation naming the count; both go to the room's trash.
  await checkbox(page, 'five.bin').check();
  await checkbox(page, 'Old folder').check();
  await bar.getByRole('button', { name: rooms.delete.action }).click();
  const confirm = page.getByRole('alertdialog', { name: fill(select.delete.title_other, { count: 2 }) });
  await expect(confirm).toContainText(fill(select.delete.text_other, { count: 2 }));
  await confirm.getByRole('button', { name: rooms.delete.confirm }).click();
  await expect(toast(page, fill(select.delete.done_other, { count: 2 }))).toBeVisible({ timeout: 30_000 });
  await expect(files.getByRole('row', { name: /five\.bin/ })).toHaveCount(0);
  await page.getByRole('toolbar', { name: rooms.room.toolbar }).getByRole('button', { name: rooms.trash.open, exact: true }).click();
  for (const name of ['five.bin', 'Old folder']) {
    await page.getByRole('button', { name: fill(rooms.trash.restoreLabel, { name }) }).click();
    await expect(toast(page, fill(rooms.trash.restored, { name }))).toBeVisible({ timeout: 30_000 });
  }
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(files.getByRole('row', { name: /five\.bin/ })).toBeVisible();
  await expect(page.getByRole('table', { name: rooms.room.folders }).getByRole('row', { name: /Old folder/ })).toBeVisible();
});

test('a member finds the room under "Shared with me" and the file another member uploaded among the recent files', async ({ page }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Recent Room');
  await apiShareRoom(server, session, room.uuid, editor.email, 'EDITOR');
  await apiShareRoom(server, session, room.uuid, viewer.email, 'VIEWER');
  const folder = await apiCreateFolder(server, session, room.uuid, 'Minutes');
  const upload = await apiUploadRoomFile(server, await apiSignIn(server, editor), room.uuid, folder.uuid, 'from-editor.txt', new Uint8Array(testFileBytes(100)));

  await signInToInbox(page, server, viewer);
  await page.goto(`${server.url}/datarooms`);
  await page.getByRole('link', { name: select.recent.nav }).click();
  await expect(page.getByRole('heading', { level: 1, name: select.recent.title })).toBeVisible();
  const shared = page.getByRole('table', { name: select.recent.sharedHeading });
  await expect(shared.getByRole('row', { name: /Recent Room/ })).toContainText(owner.email);
  const recent = page.getByRole('table', { name: select.recent.filesHeading });
  const row = recent.getByRole('row', { name: /from-editor\.txt/ });
  await expect(row).toContainText('Recent Room › Minutes');
  await expect(row).toContainText(editor.email);
  await expectNoSeriousA11yViolations(page, 'shared and recent');
  await row.getByRole('link', { name: 'from-editor.txt' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Minutes' })).toBeVisible();
  await expect(page.getByRole('table', { name: rooms.files.title }).locator('[data-highlighted="true"]')).toContainText(upload.name);
});

test('in a Secure room three chosen items download as one ZIP built in the browser, SHA-256 equal; two move into a folder, one is deleted to the trash', async ({ page }) => {
  test.setTimeout(240_000);
  const { server } = ctx;
  const passphrase = 'Select-Vault-SecuPass-Basalt-58';
  const user = await createUserInRepository(server, { username: 'vera-select', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  const actor = await e2eActor(server, await apiSessionOf(server, user.email, user.password));
  await giveSecuPass(actor, passphrase);
  const { room } = await createE2eRoom(server, actor, 'Select vault');
  const { handle: roomKey } = await openRoomKey(server, actor, room.uuid);
  const folderUuid = (await json<RoomFolder>(await createE2eFolder(server, actor, room.uuid, roomKey, 'Drafts'), 201)).uuid;
  const contents: Record<string, Uint8Array> = {
    'alpha.txt': new Uint8Array(randomBytes(1500)),
    'beta.txt': new Uint8Array(randomBytes(700)),
    'gamma.txt': new Uint8Array(randomBytes(300)),
    'Drafts/inner.txt': new Uint8Array(randomBytes(900)),
  };
  for (const [path, data] of Object.entries(contents)) {
    const [folder, name] = path.includes('/') ? [folderUuid, path.split('/')[1]!] : [undefined, path];
    await uploadE2eFile(server, actor, room.uuid, roomKey, { name, bytes: data, partSize: 1_048_576, ...(folder ? { folderUuid: folder } : {}) });
  }

  await signInToInbox(page, server, user);
  await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'serviceWorker'));
  await page.goto(`${server.url}/secure-rooms/${room.uuid}`);
  await unlockRoomKeys(page, passphrase);
  await checkbox(page, 'alpha.txt').check({ timeout: 60_000 });
  await checkbox(page, 'beta.txt').focus();
  await page.keyboard.press('Space');
  await checkbox(page, 'Drafts').check();
  const bar = page.getByRole('toolbar', { name: select.toolbar });
  await expect(bar.getByText(fill(select.count_other, { count: 3 }))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'Secure room with a selection');
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), bar.getByRole('button', { name: rooms.files.zip }).click()]);
  expect(download.suggestedFilename()).toBe('Select vault.zip');
  const zip = new AdmZip(await readFile((await download.path())!));
  const entries = new Map(zip.getEntries().filter((e) => !e.isDirectory).map((e) => [e.entryName, sha256(e.getData())]));
  expect(entries).toEqual(new Map(['alpha.txt', 'beta.txt', 'Drafts/inner.txt'].map((name) => [name, sha256(contents[name]!)])));

  // Move the two files into "Drafts": one dialog with the decrypted folder names; the selection is cleared after.
  const table = page.getByRole('table', { name: rooms.e2e.contentsLabel });
  await checkbox(page, 'Drafts').uncheck();
  await bar.getByRole('button', { name: rooms.move.action }).click();
  const dialog = page.getByRole('dialog', { name: fill(select.move.title_other, { count: 2 }) });
  await dialog.getByRole('tree').getByRole('treeitem', { name: 'Drafts' }).getByRole('radio').check({ timeout: 30_000 });
  await dialog.getByRole('button', { name: rooms.move.submit }).click();
  await expect(toast(page, fill(select.move.done_other, { count: 2, target: 'Drafts' }))).toBeVisible({ timeout: 30_000 });
  await expect(bar).toHaveCount(0);
  await expect(table.getByRole('row', { name: /alpha\.txt|beta\.txt/ })).toHaveCount(0, { timeout: 30_000 });
  await table.getByRole('link', { name: 'Drafts', exact: true }).click();
  // Listed with their signer: the names decrypt and the signatures verify where they went.
  for (const name of ['alpha.txt', 'beta.txt', 'inner.txt']) await expect(table.getByRole('row').filter({ hasText: name }).filter({ hasText: user.email })).toBeVisible({ timeout: 60_000 });

  // Delete one chosen file: one confirmation, gone from the folder, in the room's trash under its decrypted name.
  await checkbox(page, 'inner.txt').check();
  await bar.getByRole('button', { name: rooms.delete.action }).click();
  const confirm = page.getByRole('alertdialog', { name: fill(select.delete.title_one, { count: 1 }) });
  await confirm.getByRole('button', { name: rooms.delete.confirm }).click();
  await expect(toast(page, fill(select.delete.done_one, { count: 1 }))).toBeVisible({ timeout: 30_000 });
  await expect(table.getByRole('row').filter({ hasText: 'inner.txt' })).toHaveCount(0, { timeout: 30_000 });
  await expect(bar).toHaveCount(0);
  await page.getByRole('button', { name: rooms.trash.open, exact: true }).click();
  await expect(page.getByRole('table', { name: rooms.trash.tableLabel }).getByRole('row', { name: /inner\.txt/ })).toBeVisible({ timeout: 30_000 });
});
