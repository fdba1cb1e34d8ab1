// A folder's files a page at a time in the web client against the real server (issue 15): 27 files
// (made through the API) in a folder with a sub-folder: page 1 shows the sub-folder and 25 files
// by name with "1 to 25 of 27, page 1 of 2", "Next page" the last 2 (no folders), "Previous page"
// page 1 again; the Size header sorts by size (descending on a second click, aria-sort tells);
// the breadcrumb menu's ZIP link points at the folder's ZIP, and a PREVIEWER's menu has none. axe.
import { expect } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiShareRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const ctx = serverPerFile();
let owner: TestUser;
let previewer: TestUser;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'paula', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  previewer = await createUserInRepository(ctx.server, { username: 'pete' });
});

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));
const name = (i: number) => `file-${String(i).padStart(2, '0')}.txt`;

test('a folder with more than one page of files pages, sorts and offers its ZIP', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Paging Room');
  const folder = await apiCreateFolder(server, session, room.uuid, 'Many');
  await apiCreateFolder(server, session, room.uuid, 'Inner', folder.uuid);
  // file-NN.txt has NN+1 bytes: by name and by size the same order, so both sorts are checkable.
  for (let i = 0; i < 27; i++) await apiUploadRoomFile(server, session, room.uuid, folder.uuid, name(i), new Uint8Array(i + 1).fill(65));
  await apiShareRoom(server, session, room.uuid, previewer.email, 'PREVIEWER');

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}/folders/${folder.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Many' })).toBeVisible();
  const files = page.getByRole('table', { name: rooms.files.title });
  const pager = page.getByRole('navigation', { name: rooms.files.paging.label });
  // The first cell is the row's selection checkbox (issue 32 §2); the name comes next.
  const firstCell = files.getByRole('row').nth(1).getByRole('cell').nth(1);

  await expect(pager).toContainText(fill(rooms.files.paging.range, { start: 1, end: 25, count: 27, page: 1, pages: 2 }));
  await expect(files.getByRole('row')).toHaveCount(26);
  await expect(firstCell).toHaveText(name(0));
  await expect(page.getByRole('link', { name: 'Inner' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'room files with paging');

  await pager.getByRole('button', { name: rooms.files.paging.next }).click();
  await expect(pager).toContainText(fill(rooms.files.paging.range, { start: 26, end: 27, count: 27, page: 2, pages: 2 }));
  await expect(files.getByRole('row')).toHaveCount(3);
  await expect(firstCell).toHaveText(name(25));
  await expect(page.getByRole('link', { name: 'Inner' })).toHaveCount(0);
  await expect(pager.getByRole('button', { name: rooms.files.paging.next })).toBeDisabled();

  await pager.getByRole('button', { name: rooms.files.paging.previous }).click();
  await expect(pager).toContainText(fill(rooms.files.paging.range, { start: 1, end: 25, count: 27, page: 1, pages: 2 }));
  await expect(firstCell).toHaveText(name(0));
  await expect(page.getByRole('link', { name: 'Inner' })).toBeVisible();

  // Size: ascending first (smallest first), then descending (the biggest, file-26, first); back on page 1.
  const sizeHeader = files.getByRole('columnheader', { name: rooms.files.columns.size });
  await sizeHeader.getByRole('button').click();
  await expect(sizeHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(firstCell).toHaveText(name(0));
  await sizeHeader.getByRole('button').click();
  await expect(sizeHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(firstCell).toHaveText(name(26));
  await expect(files.getByRole('columnheader', { name: rooms.files.columns.name })).toHaveAttribute('aria-sort', 'none');
  await pager.getByRole('button', { name: rooms.files.paging.next }).click();
  await expect(pager).toContainText(fill(rooms.files.paging.range, { start: 26, end: 27, count: 27, page: 2, pages: 2 }));
  await expect(firstCell).toHaveText(name(1));

  // The folder as ZIP: a link to the folder's ZIP route; the server answers it with a ZIP.
  await page.getByRole('button', { name: fill(rooms.crumbMenu.label, { name: 'Many' }) }).click();
  const zip = page.getByRole('menuitem', { name: rooms.files.zip });
  await expect(zip).toHaveAttribute('href', `/api/2/rooms/${room.uuid}/folders/${folder.uuid}/zip`);
  const download = page.waitForEvent('download');
  await zip.click();
  expect((await download).suggestedFilename()).toMatch(/\.zip$/);

  // A PREVIEWER may not download: no ZIP entry.
  const context = await browser.newContext();
  const other = await context.newPage();
  await signInToInbox(other, server, previewer);
  await other.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(other.getByRole('heading', { level: 1, name: 'Paging Room' })).toBeVisible();
  await other.getByRole('button', { name: fill(rooms.crumbMenu.label, { name: 'Paging Room' }) }).click();
  await expect(other.getByRole('menuitem', { name: rooms.files.zip })).toHaveCount(0);
  await expect(other.getByRole('menuitem').first()).toBeVisible();
  await context.close();
});
