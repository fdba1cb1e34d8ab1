// The administrators' trash bin against the real server (issue 15): an owner's deleted folder (set up
// through the API) is found by search, restored after a confirmation, and its file downloads again
// with the very bytes; empty and no-result states; Secure rooms › General saves a setting. axe on each.
import { expect } from '@playwright/test';
import { ROOM_SETTING_KEYS } from '@shared/contract/room-admin';
import { ROOM_PATHS, type Room, type RoomFolder } from '@shared/contract/rooms';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { signIn as apiSessionOf } from '@tests/integration/core-helpers';
import { e2eActor, giveSecuPass } from '@tests/integration/e2e-helpers';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { createE2eRoom, req } from '@tests/integration/rooms-e2e-helpers';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, en as enBase, expectInbox, expectNoSeriousA11yViolations, locale, openAdminItem, signIn, signInToInbox, type ApiSession, test } from './fixtures';

const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const en = { ...enBase, admin, rooms };
const trash = admin.roomsAdmin.trash;
const ctx = {} as { server: TestServer };
let owner: TestUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ctx.server = await startTestServer();
  owner = await createUserInRepository(ctx.server, { username: 'olga', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});

test.afterAll(async () => {
  await ctx.server?.close();
});

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

/** A room with folder "Contracts" holding lease.bin, the folder then deleted by the owner. */
async function seedDeletedFolder(session: ApiSession, bytes: Buffer): Promise<Room> {
  const { server } = ctx;
  const room = await json<Room>(await apiCall(server, session, 'POST', ROOM_PATHS.rooms, { name: 'Harbour Deal' }), 201);
  const folder = await json<RoomFolder>(await apiCall(server, session, 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Contracts' }), 201);
  const file = await json<RoomUploadFile>(
    await apiCall(server, session, 'POST', ROOM_PATHS.files(room.uuid), { name: 'lease.bin', size: bytes.length, mimeType: 'application/octet-stream', folderUuid: folder.uuid }),
    201,
  );
  for (let i = 0; i < file.partCount; i++) {
    const part = bytes.subarray(i * file.partSize, Math.min(bytes.length, (i + 1) * file.partSize));
    const hash = createHash('sha256').update(part).digest('hex');
    await json(await apiCall(server, session, 'PUT', ROOM_PATHS.filePart(room.uuid, file.uuid, i), new Blob([Uint8Array.from(part)]), { 'content-type': 'application/octet-stream', 'x-content-sha256': hash }), 200);
  }
  await json(await apiCall(server, session, 'POST', ROOM_PATHS.fileCommit(room.uuid, file.uuid)), 200);
  await json(await apiCall(server, session, 'DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid)), 204);
  return room;
}

test('an admin finds the deleted folder, restores it after confirming, and its file downloads again', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);

  // Nothing deleted yet: the empty state.
  await openAdminItem(page, ctx.server, en.shell.admin.items.trashBin);
  await expect(page.getByRole('heading', { level: 1, name: trash.title })).toBeVisible();
  await expect(page.getByText(trash.empty)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'trash bin (empty)');

  const bytes = Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 17 + 3) % 256));
  const session = await apiSignIn(server, owner);
  const room = await seedDeletedFolder(session, bytes);
  await page.reload();
  const table = page.getByRole('table', { name: trash.tableLabel });
  const row = table.getByRole('row', { name: /Contracts/ });
  await expect(row).toContainText(trash.types.folder);
  await expect(row).toContainText('Harbour Deal');
  await expect(row).toContainText(owner.email);
  await expectNoSeriousA11yViolations(page, 'trash bin (one entry)');

  // Search: no result, then the entry.
  const search = page.getByRole('searchbox', { name: trash.search });
  await search.fill('nothing like this');
  await expect(page.getByText('No deleted entry matches “nothing like this”.')).toBeVisible();
  await search.fill('contr');
  await expect(row).toBeVisible();

  // Restore asks first; Cancel keeps the entry.
  await page.getByRole('button', { name: 'Restore Contracts' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Restore “Contracts”?' });
  await expect(confirm).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'restore confirmation');
  await confirm.getByRole('button', { name: trash.cancel }).click();
  await expect(row).toBeVisible();
  await page.getByRole('button', { name: 'Restore Contracts' }).click();
  await confirm.getByRole('button', { name: trash.restore }).click();
  await expect(page.getByText('“Contracts” was restored.').first()).toBeVisible();
  await expect(row).toHaveCount(0);

  // The owner finds the folder where it was and downloads the very bytes.
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await signInToInbox(ownerPage, server, owner);
  await ownerPage.goto(`${server.url}/datarooms/${room.uuid}`);
  await ownerPage.getByRole('link', { name: 'Contracts' }).click();
  await expect(ownerPage.getByRole('heading', { level: 1, name: 'Contracts' })).toBeVisible();
  const download = ownerPage.waitForEvent('download');
  await ownerPage.getByRole('table', { name: rooms.files.title }).getByRole('link', { name: 'Download lease.bin' }).click();
  expect(Buffer.compare(await readFile(await (await download).path()), bytes)).toBe(0);
  await ownerContext.close();
});

test('a deleted E2E room shows as an encrypted item (no sealed name) and comes back after confirming', async ({ page }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  // Made with the real crypto (CryptoService, the Worker's code): the name is sealed on the server.
  const actor = await e2eActor(server, await apiSessionOf(server, owner.email, owner.password));
  await giveSecuPass(actor, 'Olga-Trash-SecuPass-Cedar-41');
  const { room } = await createE2eRoom(server, actor, 'Sealed merger');
  expect((await req(server, actor, 'DELETE', ROOM_PATHS.room(room.uuid))).status).toBe(204);

  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await openAdminItem(page, ctx.server, en.shell.admin.items.trashBin);
  const table = page.getByRole('table', { name: trash.tableLabel });
  const row = table.getByRole('row', { name: new RegExp(trash.encryptedItem) });
  await expect(row).toContainText(trash.types.dataroom);
  await expect(row).toContainText(trash.encryptedRoom);
  await expect(page.getByText(room.name)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'trash bin with an E2E entry');
  await row.getByRole('button', { name: trash.restoreLabel.replace('{{name}}', trash.encryptedItem) }).click();
  const confirm = page.getByRole('alertdialog', { name: trash.confirmTitle.replace('{{name}}', trash.encryptedItem) });
  await confirm.getByRole('button', { name: trash.restore }).click();
  await expect(page.getByText(`“${trash.encryptedItem}” was restored.`).first()).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await req(server, actor, 'GET', ROOM_PATHS.room(room.uuid))).status).toBe(200);
});

test('Secure rooms › General saves the trash retention', async ({ page }) => {
  const { server } = ctx;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  // Two "General" links (secure mails, secure rooms): the one in the secure rooms group.
  await page.goto(`${server.url}/admin`);
  await page.getByRole('navigation', { name: en.shell.admin.menuLabel }).getByRole('link', { name: en.shell.admin.items.general }).nth(1).click();
  await expect(page).toHaveURL(/\/admin\/secure-rooms$/);
  await expect(page.getByRole('heading', { level: 1, name: admin.roomsAdmin.settings.title })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'secure rooms general');
  const retention = page.locator(`[data-setting="${ROOM_SETTING_KEYS.trashRetentionDays}"]`);
  await retention.fill('0');
  await page.getByRole('button', { name: admin.settingsForm.save }).click();
  await expect(page.getByText('Enter a whole number from 1 to 3650.')).toBeVisible();
  await retention.fill('14');
  await page.locator(`[data-setting="${ROOM_SETTING_KEYS.creation}"]`).selectOption('permissionOnly');
  await page.getByRole('button', { name: admin.settingsForm.save }).click();
  await expect(page.getByText(admin.settingsForm.saved).first()).toBeVisible();
  const stored = await server.app.db.selectFrom('settings').select(['key', 'value']).where('key', 'in', [ROOM_SETTING_KEYS.trashRetentionDays, ROOM_SETTING_KEYS.creation]).orderBy('key').execute();
  expect(stored.map((r) => [r.key, JSON.parse(r.value)])).toEqual([
    [ROOM_SETTING_KEYS.creation, 'permissionOnly'],
    [ROOM_SETTING_KEYS.trashRetentionDays, 14],
  ]);
});
