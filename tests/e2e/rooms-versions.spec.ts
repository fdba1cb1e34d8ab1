// File versions in a plain data room through the web client against the real server (issue 15):
// uploading a name that is taken opens the version-conflict dialog. "Replace" makes the upload the
// file's next version (the file menu's "Versions" lists both with the uploader's display name;
// version 1 downloads its own bytes),
// "Keep both" uploads it as "report (1).txt", "Cancel" uploads nothing. axe on both dialogs. In a
// batch, Keep both gives every file a name of its own ("a (1).txt", "a (2).txt", "a (3).txt") and
// "Apply to all remaining conflicts" answers the batch's later conflicts without asking again.
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { readFile } from 'node:fs/promises';
import { apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const ctx = serverPerFile();
let owner: TestUser;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'vera', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  // A display name, so the versions list shows it with the address (issue 32).
  await ctx.server.app.db.updateTable('users').set({ first_name: 'Vera', last_name: 'Lindqvist' }).where('id', '=', owner.id).execute();
});

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

async function uploadAgain(page: Page, content: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: rooms.files.upload }).click();
  await (await chooser).setFiles({ name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from(content) });
  return page.getByRole('alertdialog', { name: fill(rooms.versions.conflictTitle, { name: 'report.txt' }) });
}

test('a taken name asks: replace makes a version, keep both numbers the upload, cancel uploads nothing', async ({ page }) => {
  test.setTimeout(90_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Version Room');
  await apiUploadRoomFile(server, session, room.uuid, null, 'report.txt', new TextEncoder().encode('first draft'), 'text/plain');

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Version Room' })).toBeVisible();
  const files = page.getByRole('table', { name: rooms.files.title });

  // Replace: the same file, now version 2.
  let conflict = await uploadAgain(page, 'second draft, longer');
  await expect(conflict).toContainText(fill(rooms.versions.conflictText, { name: 'report.txt' }));
  // A single file: nothing remains to apply the answer to.
  await expect(conflict.getByRole('checkbox', { name: rooms.versions.applyToAll })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'version conflict dialog');
  await conflict.getByRole('button', { name: rooms.versions.replace }).click();
  await expect(toast(page, fill(rooms.files.toast.uploaded, { title: 'report.txt' }))).toBeVisible();
  await expect(files.getByRole('row', { name: /report\.txt/ })).toContainText('20\u00a0B');
  await expect(files.getByRole('row')).toHaveCount(2);

  await page.getByRole('button', { name: 'Actions for file report.txt' }).click();
  await page.getByRole('menuitem', { name: rooms.versions.action }).click();
  const versions = page.getByRole('dialog', { name: fill(rooms.versions.title, { name: 'report.txt' }) });
  const list = versions.getByRole('table');
  await expect(list.getByRole('row')).toHaveCount(3);
  await expect(list.getByRole('row').nth(1)).toContainText(fill(rooms.versions.current, { version: 2 }));
  await expect(list.getByRole('row').nth(2)).toContainText('11\u00a0B');
  // The uploader by display name, the address below it (issue 32: names where addresses showed).
  await expect(list.getByRole('row').nth(2)).toContainText('Vera Lindqvist');
  await expect(list.getByRole('row').nth(2)).toContainText(owner.email);
  await expectNoSeriousA11yViolations(page, 'versions dialog');
  const download = page.waitForEvent('download');
  await versions.getByRole('link', { name: fill(rooms.versions.download, { version: 1 }) }).click();
  expect(await readFile((await (await download).path())!, 'utf8')).toBe('first draft');
  await versions.getByRole('button', { name: rooms.preview.close }).click();
  await expect(versions).toHaveCount(0);

  // Keep both: the upload becomes "report (1).txt".
  conflict = await uploadAgain(page, 'third');
  await conflict.getByRole('button', { name: rooms.versions.keepBoth }).click();
  await expect(files.getByRole('row', { name: /report \(1\)\.txt/ })).toBeVisible();
  await expect(files.getByRole('row')).toHaveCount(3);

  // Cancel: nothing uploaded.
  conflict = await uploadAgain(page, 'fourth');
  await conflict.getByRole('button', { name: 'Cancel' }).click();
  await expect(conflict).toHaveCount(0);
  await expect(files.getByRole('row', { name: /report \(2\)\.txt/ })).toHaveCount(0);
  await expect(files.getByRole('row')).toHaveCount(3);
});

test('keep both inside one batch: distinct numbers for files that meet the same name, and “apply to all” asks once', async ({ page }) => {
  test.setTimeout(90_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Batch Room');
  await apiUploadRoomFile(server, session, room.uuid, null, 'a.txt', new TextEncoder().encode('already here'), 'text/plain');

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Batch Room' })).toBeVisible();
  const files = page.getByRole('table', { name: rooms.files.title });

  // a.txt twice and "a (1).txt" — the name the first one's keep-both takes.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: rooms.files.upload }).click();
  await (
    await chooser
  ).setFiles([
    { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('first of the batch') },
    { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('second of the batch') },
    { name: 'a (1).txt', mimeType: 'text/plain', buffer: Buffer.from('third of the batch') },
  ]);
  const conflictOn = (name: string) => page.getByRole('alertdialog', { name: fill(rooms.versions.conflictTitle, { name }) });
  // First a.txt: keep both, this file only.
  let conflict = conflictOn('a.txt');
  const applyToAll = conflict.getByRole('checkbox', { name: rooms.versions.applyToAll });
  await expect(applyToAll).not.toBeChecked();
  await expectNoSeriousA11yViolations(page, 'version conflict dialog in a batch');
  await conflict.getByRole('button', { name: rooms.versions.keepBoth }).click();
  // Second a.txt: asked again (the box was not ticked); keep both for it and the rest.
  conflict = conflictOn('a.txt');
  await expect(conflict).toBeVisible();
  await expect(conflict.getByRole('checkbox', { name: rooms.versions.applyToAll })).not.toBeChecked();
  await conflict.getByRole('checkbox', { name: rooms.versions.applyToAll }).check();
  await conflict.getByRole('button', { name: rooms.versions.keepBoth }).click();

  // "a (1).txt" meets the first one's new name and is kept as well, without a dialog.
  await expect(toast(page, fill(rooms.files.toast.uploaded, { title: fill(rooms.files.uploadTitle_other, { count: 3, name: 'Batch Room' }) }))).toBeVisible();
  await expect(conflictOn('a (1).txt')).toHaveCount(0);
  await expect(files.getByRole('row')).toHaveCount(5);
  for (const [name, content] of [
    ['a.txt', 'already here'],
    ['a (1).txt', 'first of the batch'],
    ['a (2).txt', 'second of the batch'],
    ['a (3).txt', 'third of the batch'],
  ] as const) {
    // The row's name starts with its selection box ("Select “name”"): the quoted name is unique.
    await expect(files.getByRole('row', { name: new RegExp(`“${name.replace(/[().]/g, '\\$&')}”`) })).toHaveCount(1);
    const download = page.waitForEvent('download');
    await files.getByRole('link', { name: fill(rooms.files.downloadFile, { name }) }).click();
    expect(await readFile((await (await download).path())!, 'utf8')).toBe(content);
  }
});
