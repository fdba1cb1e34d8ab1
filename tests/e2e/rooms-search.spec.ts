// Search across all data rooms through the web client against the real server (issue 15): the
// search box on the data rooms home opens the results page (/datarooms/search?q=), which lists
// rooms, folders and files with where they lie; a hit opens its folder with the item marked
// (aria-current). A room the user is not in is never found. Empty and no-result states; axe.
import { expect } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiSignIn, en as enBase, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiShareRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const en = { ...enBase, rooms };
const ctx = serverPerFile();
let owner: TestUser;
let member: TestUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'sam', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  member = await createUserInRepository(ctx.server, { username: 'rita' });
});

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));

test('search on the home opens the results; a hit opens its folder with the item marked; empty and no-result states', async ({ page }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const tender = await apiCreateRoom(server, session, 'Tender 2026');
  const legal = await apiCreateFolder(server, session, tender.uuid, 'Legal');
  const offers = await apiCreateFolder(server, session, tender.uuid, 'Offers', legal.uuid);
  const bytes = new TextEncoder().encode('offer');
  for (const name of ['a.txt', 'b.txt', 'offer-acme.pdf', 'z.txt']) await apiUploadRoomFile(server, session, tender.uuid, offers.uuid, name, bytes);
  await apiShareRoom(server, session, tender.uuid, member.email, 'VIEWER');
  // A room of the owner alone: the member never finds it.
  const hidden = await apiCreateRoom(server, session, 'Board offers');
  await apiUploadRoomFile(server, session, hidden.uuid, null, 'board-offer.pdf', bytes);

  await signInToInbox(page, server, member);
  await page.getByRole('navigation', { name: en.shell.menu.label }).getByRole('link', { name: en.shell.menu.datarooms }).click();
  const form = page.getByRole('search', { name: rooms.search.label });
  await form.getByRole('searchbox', { name: rooms.search.label }).fill('offer');
  await form.getByRole('button', { name: rooms.search.submit }).click();
  await expect(page).toHaveURL(/\/datarooms\/search\?q=offer$/);
  await expect(page.getByRole('heading', { level: 1, name: fill(rooms.search.titleFor, { q: 'offer' }) })).toBeVisible();
  await expect(page.getByText(fill(rooms.search.count_other, { count: 2, q: 'offer' }))).toBeVisible();
  const folders = page.getByRole('table', { name: rooms.search.folders });
  await expect(folders.getByRole('row', { name: /Offers/ })).toContainText('Tender 2026 › Legal');
  const files = page.getByRole('table', { name: rooms.search.files });
  await expect(files.getByRole('row', { name: /offer-acme\.pdf/ })).toContainText('Tender 2026 › Legal › Offers');
  await expect(page.getByText('Board offers')).toHaveCount(0);
  await expect(page.getByText('board-offer.pdf')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'data room search results');

  // The file hit: its folder, the row marked.
  await files.getByRole('link', { name: 'offer-acme.pdf' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Offers' })).toBeVisible();
  const marked = page.getByRole('table', { name: rooms.files.title }).locator('[aria-current="true"]');
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText('offer-acme.pdf');
  await expectNoSeriousA11yViolations(page, 'folder with a search hit marked');

  // Back, the folder hit: its parent with the folder marked.
  await page.goBack();
  await page.getByRole('table', { name: rooms.search.folders }).getByRole('link', { name: 'Offers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Legal' })).toBeVisible();
  await expect(page.getByRole('table', { name: rooms.room.folders }).locator('[aria-current="true"]')).toContainText('Offers');

  // No result; then no term at all.
  await page.goto(`${server.url}/datarooms/search?q=${encodeURIComponent('nothing-like-this')}`);
  await expect(page.getByText(fill(rooms.search.noResults, { q: 'nothing-like-this' }))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'data room search without hits');
  await page.getByRole('searchbox', { name: rooms.search.label }).fill('');
  await page.getByRole('button', { name: rooms.search.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: rooms.search.title })).toBeVisible();
  await expect(page.getByText(rooms.search.empty)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'data room search without a term');
});
