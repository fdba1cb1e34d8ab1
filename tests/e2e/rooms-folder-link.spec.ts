// Links to a folder of a plain room (issue 32 §2; server/README "Public links to room folders"),
// opened by an anonymous browser: a folder link with a password lists the folder, downloads a file
// bit-exact (SHA-256) and counts the download; a drop link takes a visitor's file into the folder
// without showing anything of it, and the owner finds the file there. axe on both landing pages.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { ROOM_FOLDER_LINK_PATHS, type CreatedRoomFolderLink } from '@shared/contract/room-folder-links';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiUploadRoomFile } from './rooms-fixtures';

const links = locale<typeof import('@locales/en/roomLinks.json')>('en', 'roomLinks');
const ctx = serverPerFile();
let owner: TestUser;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'folka', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});

async function folderWithLink(kind: 'folder' | 'drop', body: Record<string, unknown> = {}) {
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, `Folder link room ${kind}`);
  const folder = await apiCreateFolder(server, session, room.uuid, 'Handouts');
  const made = await apiCall(server, session, 'POST', ROOM_FOLDER_LINK_PATHS.links(room.uuid, folder.uuid), { kind, ...body });
  expect(made.status).toBe(201);
  return { session, room, folder, link: (await made.json()) as CreatedRoomFolderLink };
}

test('a folder link with a password lists the folder and downloads a file bit-exact', async ({ browser }) => {
  test.setTimeout(90_000);
  const { server } = ctx;
  const { session, room, folder, link } = await folderWithLink('folder', { password: 'Folder-Link-Pass-9', maxDownloads: 5 });
  const bytes = new Uint8Array(randomBytes(150_000));
  await apiUploadRoomFile(server, session, room.uuid, folder.uuid, 'agenda.bin', bytes);

  const visitor = await browser.newContext({ acceptDownloads: true });
  const page = await visitor.newPage();
  await page.goto(link.url);
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

test('a drop link takes a visitor’s file into the folder and shows nothing of it; the owner finds the file', async ({ browser, page }) => {
  test.setTimeout(90_000);
  const { server } = ctx;
  const { session, room, folder, link } = await folderWithLink('drop');
  await apiUploadRoomFile(server, session, room.uuid, folder.uuid, 'secret-plan.bin', new Uint8Array(randomBytes(1000)));

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(link.url);
  await expect(visitorPage.getByRole('heading', { name: fill(links.folderPage.dropTitle, { name: 'Handouts' }) })).toBeVisible();
  await expect(visitorPage.getByText('secret-plan.bin')).toHaveCount(0);
  await expectNoSeriousA11yViolations(visitorPage, 'drop link page');
  await visitorPage.getByTestId('folder-link-drop-input').setInputFiles({ name: 'invoice-42.pdf', mimeType: 'application/pdf', buffer: Buffer.from(randomBytes(70_000)) });
  await expect(visitorPage.getByRole('status').filter({ hasText: fill(links.folderPage.dropped_one, { count: 1, names: 'invoice-42.pdf' }) })).toBeVisible({ timeout: 30_000 });
  await expect(visitorPage.getByText('secret-plan.bin')).toHaveCount(0);
  await visitor.close();

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}/folders/${folder.uuid}`);
  await expect(page.getByText('invoice-42.pdf', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
});
