// The activity log of a plain data room beyond its first page (issue 15) against the real server:
// more than two pages of activity made through the API (an upload, then renames), the details
// sidebar's Activity tab shows the newest 50, "Load more" adds the next older page with the focus
// kept on it, a page that fails shows an error bar whose retry loads it, the last page removes the
// button and the focus lands on the line saying all is shown, the oldest entry there by its name.
// An EDITOR has no Activity tab. An E2E room's Activity tab pages the same way, the sealed names of
// the older pages decrypted too. axe on the opened tab.
import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { proveAddress } from '@tests/support/prove-address';
import { ROOM_PATHS } from '@shared/contract/rooms';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiCall, apiSignIn, en, expectNoSeriousA11yViolations, locale, secuPassFromNode, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateRoom, apiShareRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const ctx = serverPerFile();
let owner: TestUser;
let editor: TestUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'olga', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  editor = await createUserInRepository(ctx.server, { username: 'emil' });
});

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));
const crumbMenu = (page: Page, name: string) => page.getByRole('navigation', { name: rooms.room.breadcrumb }).getByRole('button', { name: fill(rooms.crumbMenu.label, { name }) });

async function openDetails(page: Page, roomName: string) {
  await crumbMenu(page, roomName).click();
  await page.getByRole('menuitem', { name: rooms.details.action }).click();
  return page.getByRole('dialog', { name: fill(rooms.details.title, { name: roomName }) });
}

test('Load more pages the activity tab to its oldest entry; a failed page is retried; an EDITOR has no Activity tab', async ({ page, browser }) => {
  test.setTimeout(150_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Busy Room');
  // 108 entries, oldest first: the upload of oldest.txt, the upload of work-0.txt, 105 renames of it, the share.
  await apiUploadRoomFile(server, session, room.uuid, null, 'oldest.txt', new TextEncoder().encode('old'));
  const work = await apiUploadRoomFile(server, session, room.uuid, null, 'work-0.txt', new TextEncoder().encode('work'));
  for (let i = 1; i <= 105; i++) {
    const response = await apiCall(server, session, 'PATCH', ROOM_PATHS.file(room.uuid, work.uuid), { name: `work-${i}.txt` });
    expect(response.status, await response.text()).toBe(200);
  }
  await apiShareRoom(server, session, room.uuid, editor.email, 'EDITOR');
  const total = 108;

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Busy Room' })).toBeVisible();
  const panel = await openDetails(page, 'Busy Room');
  await panel.getByRole('tab', { name: rooms.details.activity }).click();
  const table = panel.getByRole('table', { name: rooms.activity.title });
  const rows = table.getByRole('rowgroup').nth(1).getByRole('row');
  const more = panel.getByRole('button', { name: rooms.activity.loadMore });
  const status = panel.getByRole('status').filter({ hasText: /./ });

  // The newest 50: the share on top, the 57th rename at the bottom; nothing older yet.
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText(rooms.activity.kinds.access_changed);
  await expect(rows.nth(1)).toContainText(fill(rooms.activity.renamed, { from: 'work-104.txt', to: 'work-105.txt' }));
  await expect(rows.last()).toContainText(fill(rooms.activity.renamed, { from: 'work-56.txt', to: 'work-57.txt' }));
  await expect(table.getByRole('row', { name: /oldest\.txt/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'activity tab (first page, Load more)');

  // The next page; the button keeps the focus for the page after it.
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(rows).toHaveCount(100);
  await expect(rows.last()).toContainText(fill(rooms.activity.renamed, { from: 'work-6.txt', to: 'work-7.txt' }));
  await expect(status).toHaveText(fill(rooms.activity.shown_other, { count: 100 }));
  await expect(more).toBeFocused();

  // The last page fails once on the way (the network drops it): an error bar with retry; the list stays.
  let dropped = false;
  await page.route(
    (url) => url.pathname.endsWith(`/rooms/${room.uuid}/activity`) && url.searchParams.has('cursor'),
    async (route) => {
      if (dropped) return route.fallback();
      dropped = true;
      return route.abort('connectionfailed');
    },
  );
  await page.keyboard.press('Enter');
  const failure = panel.getByRole('alert').filter({ hasText: rooms.activity.moreError });
  await expect(failure).toBeVisible();
  await expect(rows).toHaveCount(100);
  await expect(more).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'activity tab (a page failed)');
  await failure.getByRole('button', { name: rooms.activity.retry }).click();

  // The oldest entries: the button is gone, the focus on the line that says so.
  await expect(rows).toHaveCount(total);
  await expect(failure).toHaveCount(0);
  await expect(rows.last()).toContainText('oldest.txt');
  await expect(rows.last()).toContainText(rooms.activity.kinds.upload);
  await expect(rows.nth(total - 2)).toContainText('work-0.txt');
  await expect(more).toHaveCount(0);
  await expect(status).toHaveText(fill(rooms.activity.allShown_other, { count: total }));
  await expect(status).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'activity tab (all pages)');
  await page.unrouteAll();

  // An EDITOR: details without the Activity tab.
  const context = await browser.newContext();
  const other = await context.newPage();
  await signInToInbox(other, server, editor);
  await other.goto(`${server.url}/datarooms/${room.uuid}`);
  const editorPanel = await openDetails(other, 'Busy Room');
  await expect(editorPanel.getByRole('tab', { name: rooms.details.access })).toBeVisible();
  await expect(editorPanel.getByRole('tab', { name: rooms.details.activity })).toHaveCount(0);
  await context.close();
});

test('an E2E room: Load more adds the older page, its sealed names decrypted', async ({ page }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  const passphrase = 'Activity-Room-SecuPass-Birch-41';
  const account = { email: 'owner.rooms-activity@example.test', password: 'Good-Passw0rd-activity' };
  const admin = await apiSignIn(server, server.admin);
  expect((await apiCall(server, admin, 'POST', '/admin/users', { ...account, language: 'en' })).status).toBe(201);
  await proveAddress(server, account.email, account.password);
  const { keys, crypto } = await secuPassFromNode(server, account, passphrase);
  const session = await apiSignIn(server, account);
  const roomUuid = randomUUID();
  const { handle } = await crypto.generateRoomKey();
  const seal = async (name: string) => (await crypto.encryptRoomNames({ roomKey: handle, roomId: roomUuid, items: [{ kind: 'room', itemId: roomUuid, name }] })).sealed[0]!;
  const wrappedKey = await crypto.wrapRoomKey({ roomKey: handle, roomId: roomUuid, recipientPublicKey: keys.encryption.publicKey });
  expect((await apiCall(server, session, 'POST', '/rooms/e2e', { uuid: roomUuid, name: await seal('Board v0'), recipientKeyId: wrappedKey.recipientKeyId, wrappedKey })).status).toBe(201);
  // 55 renames of the room, each name sealed: 50 on the first page, the oldest five behind Load more.
  for (let i = 1; i <= 55; i++) {
    const response = await apiCall(server, session, 'PATCH', `/rooms/${roomUuid}/e2e/items/${roomUuid}`, { name: await seal(`Board v${i}`) });
    expect(response.status, await response.text()).toBe(204);
  }

  await signInToInbox(page, server, account);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await page.getByRole('button', { name: 'Enter passphrase' }).first().click();
  const dialog = page.getByRole('dialog', { name: en.secupass.unlock.title.decrypt });
  await dialog.getByLabel(/^Passphrase/).fill(passphrase);
  await dialog.getByRole('button', { name: en.secupass.unlock.submit.decrypt }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Board v55' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('tab', { name: rooms.activity.title }).click();
  const rows = page.getByRole('table', { name: rooms.activity.title }).getByRole('rowgroup').nth(1).getByRole('row');
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText('Board v55', { timeout: 30_000 });
  await expect(rows.last()).toContainText('Board v6', { timeout: 30_000 });
  await page.getByRole('button', { name: rooms.activity.loadMore }).click();
  await expect(page.getByRole('button', { name: rooms.activity.loadMore })).toHaveCount(0);
  // The renames only (creating the room is not logged).
  const count = 55;
  await expect(rows).toHaveCount(count);
  // The older page's names decrypt like the first page's.
  for (const i of [5, 4, 3, 2, 1]) await expect(rows.filter({ hasText: new RegExp(`Board v${i}$`) })).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: fill(rooms.activity.allShown_other, { count }) })).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'E2E room activity (all pages)');
});
