// Rename of the open folder from the E2E room's breadcrumb menu ("Actions for “<here>”" › Rename),
// in the browser against the real server: the new name is sealed in the browser like a row's
// rename, a name its parent already holds (another folder, compared case-insensitively on the
// decrypted names — the server cannot compare sealed ones) is refused, the new name shows
// decrypted after a reload, and the server's folder row holds a new sealed name, never the plain one.
// The room itself renamed from its root crumb's menu (OWNER) the same way: sealed in the browser,
// heading, breadcrumb and the Secure rooms list decrypt the new name, before and after a reload.
// (An EDITOR's root menu without Rename: the server's 403 in tests/integration/rooms-e2e.test.ts.)
import { expect, type Page } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server';
import { apiCreateAccount, apiSignIn, en, expectNoSeriousA11yViolations, locale, secuPassFromNode, signInToInbox, test } from './fixtures';
import { newE2eFolder, unlockRoomKeys } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const links = locale<typeof import('@locales/en/roomLinks.json')>('en', 'roomLinks');
const PASSWORD = 'Good-Passw0rd-rooms-crumb';
const PASSPHRASE = 'Owner-Room-Crumb-SecuPass-Flint-27';
const owner = { email: 'owner.rooms-e2e-crumb@example.test', password: PASSWORD };
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();
const crumbMenu = (page: Page, name: string) => page.getByRole('button', { name: fill(rooms.crumbMenu.label, { name }) });

let server: TestServer;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  await apiCreateAccount(server, admin, owner);
  await secuPassFromNode(server, owner, PASSPHRASE);
});
test.afterAll(async () => {
  await server?.close();
});

const unlock = (page: Page) => unlockRoomKeys(page, PASSPHRASE);


async function renameHere(page: Page, here: string, to: string) {
  await crumbMenu(page, here).click();
  await page.getByRole('menuitem', { name: rooms.rename.action, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: fill(rooms.rename.folderTitle, { name: here }) });
  await dialog.getByLabel(rooms.folder.nameLabel).fill(to);
  await dialog.getByRole('button', { name: rooms.rename.submit }).click();
  return dialog;
}

test('the breadcrumb menu renames the open E2E folder: a sibling name refused, the new name sealed and shown decrypted after a reload', async ({ page }) => {
  test.setTimeout(240_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms`);
  await unlock(page);
  await page.getByRole('button', { name: 'Create end-to-end encrypted room' }).click();
  const create = page.getByRole('dialog', { name: 'Create end-to-end encrypted room' });
  await create.getByLabel('Name of the data room').fill('Board papers');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Board papers' })).toBeVisible({ timeout: 30_000 });
  await newE2eFolder(page, 'Drafts');
  await newE2eFolder(page, 'Signed');
  const sealedBefore = await server.app.db.selectFrom('room_folders').select(['uuid', 'name']).execute();
  // No public folder or upload links in a Secure room (issue 32 §2): not in a folder's row menu; the
  // share dialog says why (the server cannot read or seal the room's files).
  await page.getByRole('button', { name: fill(rooms.room.actionsFor, { name: 'Drafts' }) }).click();
  await expect(page.getByRole('menuitem', { name: rooms.rename.action, exact: true })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: links.folderAction })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: links.dropAction })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: rooms.share.action, exact: true }).click();
  const share = page.getByRole('dialog', { name: fill(rooms.share.title, { name: 'Board papers' }) });
  await expect(share.getByText(links.secureRoomNote)).toBeVisible({ timeout: 30_000 });
  await share.getByRole('button', { name: rooms.share.close }).click();
  await expect(share).toBeHidden();

  await page.getByRole('link', { name: 'Drafts', exact: true }).click();
  await expect(page.getByText(rooms.e2e.folderEmpty)).toBeVisible({ timeout: 30_000 });
  const folderUrl = page.url();

  // A name the parent holds (decrypted, another case) is refused in the browser: nothing changes.
  const refused = await renameHere(page, 'Drafts', 'signed');
  // …with the reason at the name field, as the server's own "already exists" stands in plain rooms.
  await expect(refused.getByText(rooms.errors.folderExists)).toBeVisible({ timeout: 30_000 });
  await refused.getByRole('button', { name: en.common.actions.cancel }).click();
  await expect(refused).toBeHidden();
  expect(await server.app.db.selectFrom('room_folders').select(['uuid', 'name']).execute()).toEqual(sealedBefore);

  const dialog = await renameHere(page, 'Drafts', 'Minutes 2026');
  await expect(toast(page, fill(rooms.rename.folderDone, { name: 'Drafts', newName: 'Minutes 2026' }))).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toBeHidden();
  await expect(crumbMenu(page, 'Minutes 2026')).toBeVisible({ timeout: 30_000 });
  await expectNoSeriousA11yViolations(page, 'E2E folder renamed from the breadcrumb menu');

  // The server holds a new sealed name for the folder, no plain one.
  const drafts = sealedBefore.find((f) => f.uuid === folderUrl.split('/').at(-1))!;
  const after = await server.app.db.selectFrom('room_folders').select(['uuid', 'name']).execute();
  expect(after.find((f) => f.uuid === drafts.uuid)!.name).not.toBe(drafts.name);
  for (const { name } of after) expect(name).not.toMatch(/Minutes|Drafts|Signed/);

  // A reload forgets the keys: unlocked again, the name decrypts in the browser.
  await page.reload();
  await unlock(page);
  await expect(crumbMenu(page, 'Minutes 2026')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('link', { name: 'Board papers' }).click();
  await expect(page.getByRole('table', { name: rooms.e2e.contentsLabel }).getByRole('link', { name: 'Minutes 2026', exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('link', { name: 'Drafts', exact: true })).toHaveCount(0);
});

test('the root crumb menu renames the E2E room (OWNER): sealed in the browser, shown decrypted in the heading, breadcrumb and Secure rooms list', async ({ page }) => {
  test.setTimeout(240_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms`);
  await unlock(page);
  await page.getByRole('link', { name: 'Board papers', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Board papers' })).toBeVisible({ timeout: 60_000 });
  const roomUuid = page.url().split('/').at(-1)!;
  const storedName = async () => (await server.app.db.selectFrom('data_rooms').select('name').where('uuid', '=', roomUuid).executeTakeFirstOrThrow()).name;
  const before = await storedName();

  await crumbMenu(page, 'Board papers').click();
  await page.getByRole('menuitem', { name: rooms.rename.action, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: fill(rooms.rename.roomTitle, { name: 'Board papers' }) });
  await expect(dialog.getByLabel(rooms.create.nameLabel)).toHaveValue('Board papers');
  await dialog.getByLabel(rooms.create.nameLabel).fill('Board minutes 2026');
  await dialog.getByRole('button', { name: rooms.rename.submit }).click();
  await expect(toast(page, fill(rooms.rename.roomDone, { name: 'Board papers', newName: 'Board minutes 2026' }))).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Board minutes 2026' })).toBeVisible({ timeout: 30_000 });
  await expect(crumbMenu(page, 'Board minutes 2026')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'E2E room renamed from the root crumb menu');

  // The server holds a new sealed name for the room, never the plain one.
  const after = await storedName();
  expect(after).toMatch(/^r1\./);
  expect(after).not.toBe(before);
  expect(after).not.toMatch(/Board|minutes/);

  // The Secure rooms list (the rooms list refreshed, no reload) decrypts the new name.
  await page.getByRole('navigation', { name: rooms.e2e.breadcrumb }).getByRole('link', { name: rooms.e2e.title }).click();
  await expect(page.getByRole('link', { name: 'Board minutes 2026', exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('link', { name: 'Board papers', exact: true })).toHaveCount(0);

  // A reload forgets the keys: unlocked again, list, heading and a folder's breadcrumb decrypt the new name.
  await page.reload();
  await unlock(page);
  await page.getByRole('link', { name: 'Board minutes 2026', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Board minutes 2026' })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('table', { name: rooms.e2e.contentsLabel }).getByRole('link', { name: 'Signed', exact: true }).click();
  await expect(page.getByRole('navigation', { name: rooms.e2e.breadcrumb }).getByRole('link', { name: 'Board minutes 2026', exact: true })).toBeVisible({ timeout: 60_000 });
});
