// Files in a plain data room through the web client against the real server (issue 15): the owner
// uploads a file into a folder (progress, toast, the row with size and uploader), the same name again opens the version-conflict dialog (Cancel), renames it; a
// VIEWER downloads it (the bytes equal those uploaded) and has no upload, rename or delete; the
// owner's delete asks first (Cancel keeps the file). The viewer's file menu holds Open preview and Details only. axe on the file screens and dialogs.
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { readFile } from 'node:fs/promises';
import { startTestServer, type TestServer } from '../support/server';
import { en as enBase, expectNoSeriousA11yViolations, locale, signInToInbox, test } from './fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const en = { ...enBase, rooms };
// Small parts, so the 70,000-byte file goes up as five parts through the pipeline.
const PART_SIZE = 16 * 1024;
const ctx = {} as { server: TestServer };

let owner: TestUser;
let viewer: TestUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ctx.server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  owner = await createUserInRepository(ctx.server, { username: 'fiona', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  viewer = await createUserInRepository(ctx.server, { username: 'walter' });
});

test.afterAll(async () => {
  await ctx.server?.close();
});

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

async function openDatarooms(page: Page) {
  await page.getByRole('navigation', { name: en.shell.menu.label }).getByRole('link', { name: en.shell.menu.datarooms }).click();
  await expect(page.getByRole('heading', { level: 1, name: rooms.list.title })).toBeVisible();
}

test('the owner uploads into a folder; a viewer downloads the same bytes and may not change anything; delete asks first', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  await signInToInbox(page, server, owner);

  // A room with a folder, shared with the viewer as VIEWER.
  await openDatarooms(page);
  await page.getByRole('button', { name: rooms.create.action }).click();
  await page.getByRole('textbox', { name: rooms.create.nameLabel }).fill('Deal Room');
  await page.getByRole('button', { name: rooms.create.submit, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Deal Room' })).toBeVisible();
  await page.getByRole('button', { name: rooms.folder.createAction }).click();
  await page.getByRole('textbox', { name: rooms.folder.nameLabel }).fill('Contracts');
  await page.getByRole('button', { name: rooms.folder.create, exact: true }).click();
  await expect(toast(page, 'Folder “Contracts” created.')).toBeVisible();
  await page.getByRole('button', { name: rooms.share.action, exact: true }).click();
  const share = page.getByRole('dialog', { name: 'Share “Deal Room”' });
  await share.getByRole('textbox', { name: rooms.share.user }).fill(viewer.email);
  await share.getByRole('combobox', { name: rooms.share.role, exact: true }).selectOption('VIEWER');
  await share.getByRole('button', { name: rooms.share.add }).click();
  await expect(toast(page, `${viewer.email} is now Viewer of “Deal Room”.`)).toBeVisible();
  await share.getByRole('button', { name: rooms.share.close }).click();

  // The folder: no files yet (the editor's hint), then an upload through the transfer pipeline.
  await page.getByRole('link', { name: 'Contracts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Contracts' })).toBeVisible();
  await expect(page.getByText(rooms.files.emptyEditor)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'folder without files (owner)');
  // Five parts; odd bytes (not text), so a part out of place or a mangled download shows.
  const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31 + 7) % 256));
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: rooms.files.upload }).click();
  await (await chooser).setFiles({ name: 'term-sheet.bin', mimeType: 'application/octet-stream', buffer: bytes });
  // The transfer centre's toast, in the rooms' wording (not a delivery's "was sent").
  await expect(toast(page, rooms.files.toast.uploaded.replace('{{title}}', 'term-sheet.bin'))).toBeVisible();
  const files = page.getByRole('table', { name: rooms.files.title });
  const row = files.getByRole('row', { name: /term-sheet\.bin/ });
  await expect(row).toContainText('68.4\u00a0KB');
  await expect(row).toContainText(owner.email);
  const stored = await ctx.server.app.db.selectFrom('room_files').select(['part_count']).where('name', '=', 'term-sheet.bin').executeTakeFirstOrThrow();
  expect(stored.part_count).toBe(5);
  await expectNoSeriousA11yViolations(page, 'folder with a file (owner)');

  // The same name again: the server's 409 opens the version-conflict dialog; Cancel uploads nothing
  // (rooms-versions.spec.ts covers Replace and Keep both).
  const again = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: rooms.files.upload }).click();
  await (await again).setFiles({ name: 'term-sheet.bin', mimeType: 'application/octet-stream', buffer: bytes });
  const conflict = page.getByRole('alertdialog', { name: rooms.versions.conflictTitle.replace('{{name}}', 'term-sheet.bin') });
  await conflict.getByRole('button', { name: 'Cancel' }).click();
  await expect(conflict).toHaveCount(0);
  await expect(files.getByRole('row')).toHaveCount(2);

  // Rename from the row menu.
  await page.getByRole('button', { name: 'Actions for file term-sheet.bin' }).click();
  await page.getByRole('menuitem', { name: rooms.rename.action }).click();
  const renameDialog = page.getByRole('dialog', { name: 'Rename file “term-sheet.bin”' });
  await renameDialog.getByRole('textbox', { name: rooms.files.nameLabel }).fill('terms.bin');
  await expectNoSeriousA11yViolations(page, 'rename file dialog');
  await renameDialog.getByRole('button', { name: rooms.rename.submit }).click();
  await expect(toast(page, 'File “term-sheet.bin” renamed to “terms.bin”.')).toBeVisible();
  await expect(files.getByRole('row', { name: /terms\.bin/ })).toBeVisible();

  // The viewer: sees the file, downloads the very bytes, and has no upload, rename or delete.
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await signInToInbox(viewerPage, server, viewer);
  await openDatarooms(viewerPage);
  await viewerPage.getByRole('link', { name: 'Deal Room' }).click();
  await viewerPage.getByRole('link', { name: 'Contracts' }).click();
  await expect(viewerPage.getByRole('heading', { level: 1, name: 'Contracts' })).toBeVisible();
  const viewerFiles = viewerPage.getByRole('table', { name: rooms.files.title });
  await expect(viewerFiles.getByRole('row', { name: /terms\.bin/ })).toBeVisible();
  await expect(viewerPage.getByRole('button', { name: rooms.files.upload })).toHaveCount(0);
  await viewerPage.getByRole('button', { name: 'Actions for file terms.bin' }).click();
  await expect(viewerPage.getByRole('menuitem')).toHaveText([rooms.preview.action, rooms.details.action]);
  await viewerPage.keyboard.press('Escape');
  await expectNoSeriousA11yViolations(viewerPage, 'folder with a file (viewer)');
  const download = viewerPage.waitForEvent('download');
  await viewerFiles.getByRole('link', { name: 'Download terms.bin' }).click();
  const saved = await (await download).path();
  expect(Buffer.compare(await readFile(saved), bytes)).toBe(0);
  expect((await download).suggestedFilename()).toBe('terms.bin');

  // The owner's activity list of the folder: the upload and the viewer's download, newest first.
  await expect(page.getByRole('button', { name: rooms.activity.show })).toBeVisible();
  await expect(viewerPage.getByRole('button', { name: rooms.activity.show })).toHaveCount(0);
  await page.getByRole('button', { name: rooms.activity.show }).click();
  const activity = page.getByRole('table', { name: rooms.activity.title });
  await expect(activity.getByRole('row').nth(1)).toContainText(rooms.activity.kinds.download);
  await expect(activity.getByRole('row').nth(1)).toContainText(viewer.email);
  await expect(activity.getByRole('row', { name: new RegExp(rooms.activity.kinds.upload) }).first()).toContainText(owner.email);
  await expectNoSeriousA11yViolations(page, 'folder activity (owner)');

  // The owner deletes: asked first; Cancel keeps the file, Delete removes it for the viewer too.
  await page.getByRole('button', { name: 'Actions for file terms.bin' }).click();
  await page.getByRole('menuitem', { name: rooms.delete.action }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete file “terms.bin”?' });
  await expect(confirm).toContainText('moves to the trash');
  await expectNoSeriousA11yViolations(page, 'delete file confirmation');
  await confirm.getByRole('button', { name: en.common.actions.cancel }).click();
  await expect(files.getByRole('row', { name: /terms\.bin/ })).toBeVisible();
  await page.getByRole('button', { name: 'Actions for file terms.bin' }).click();
  await page.getByRole('menuitem', { name: rooms.delete.action }).click();
  await confirm.getByRole('button', { name: rooms.delete.confirm }).click();
  await expect(toast(page, 'File “terms.bin” deleted.')).toBeVisible();
  await expect(page.getByText(rooms.files.emptyEditor)).toBeVisible();
  await viewerPage.reload();
  await expect(viewerPage.getByText(rooms.files.empty)).toBeVisible();
  await viewerContext.close();
});
