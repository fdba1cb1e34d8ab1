// Storage quotas per room (issue 32) against the real server: an administrator sets a room's quota in
// Administration › Secure rooms › Storage quotas; a member then sees the room's figures with the
// warning bar (past 90 %), and an upload past the quota shows the SPEC §8 message with available and
// required space; a user past 90 % of their own quota sees the warning on the send page and in the
// quota view. axe on each page.
import { expect } from '@playwright/test';
import type { RoleName } from '@shared/contract/constants';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiCall, apiSignIn, en as enBase, expectInbox, expectNoSeriousA11yViolations, locale, openAdminItem, openSendPage, serverPerFile, signIn, signInToInbox, test } from './fixtures';
import { apiCreateRoom, apiShareRoom, apiUploadRoomFile } from './rooms-fixtures';

const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const common = locale<typeof import('@locales/en/common.json')>('en', 'common');
const en = { ...enBase, admin, rooms };
const ctx = serverPerFile();
let owner: TestUser;
let member: TestUser;

const ROLES: RoleName[] = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'];
const before = (text: string) => text.split('{{')[0]!;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'quentin', roles: ROLES });
  member = await createUserInRepository(ctx.server, { username: 'quirin', roles: ROLES });
});

test('an admin sets a room quota; the member sees the warning and an upload past it gets the §8 message', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Harbour Quota');
  await apiShareRoom(server, session, room.uuid, member.email, 'EDITOR');
  await apiUploadRoomFile(server, session, room.uuid, null, 'one.bin', new Uint8Array(1024 * 1024).fill(3));

  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await openAdminItem(page, ctx.server, en.shell.admin.items.storageQuotas);
  await expect(page.getByRole('heading', { level: 1, name: admin.quotas.title })).toBeVisible();
  const table = page.getByRole('table', { name: admin.quotas.tableLabel });
  const row = table.getByRole('row', { name: /Harbour Quota/ });
  await expect(row).toContainText(owner.email);
  // 1.1 MiB: the room's 1 MiB is past 90 % of it.
  await row.getByRole('textbox', { name: admin.quotas.roomLabel.replace('{{name}}', 'Harbour Quota') }).fill('1.1');
  const saved = page.waitForResponse((response) => response.url().endsWith(`/api/2/admin/rooms/${room.uuid}/storage-quota`));
  await row.getByRole('button', { name: admin.quotas.save }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText(admin.quotas.saved).first()).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('1\u00a0MB of 1.1\u00a0MB');
  // Bad input stays in the page with its message, nothing is sent.
  await row.getByRole('textbox').fill('-3');
  await row.getByRole('button', { name: admin.quotas.save }).click();
  await expect(row.getByText(admin.quotas.invalid)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'storage quotas (admin)');

  const context = await browser.newContext();
  const memberPage = await context.newPage();
  await signInToInbox(memberPage, server, member);
  await memberPage.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(memberPage.getByRole('heading', { level: 1, name: 'Harbour Quota' })).toBeVisible();
  await expect(memberPage.getByTestId('room-quota')).toContainText(before(rooms.quota.room));
  await expect(memberPage.getByText(before(common.storage.roomNearlyFull))).toBeVisible();
  await expectNoSeriousA11yViolations(memberPage, 'room page with the storage warning');

  const chooser = memberPage.waitForEvent('filechooser');
  await memberPage.getByRole('button', { name: rooms.files.upload }).click();
  await (await chooser).setFiles({ name: 'too-big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(200 * 1024, 5) });
  await expect(memberPage.getByText(before(rooms.errors.storageFullFigures)).first()).toBeVisible({ timeout: 30_000 });
  await expect(memberPage.getByText(/200\u00a0KB required/).first()).toBeVisible({ timeout: 30_000 });
  await context.close();
});

test("a user past 90 % of their own quota sees the warning on the send page and in the quota view", async ({ page }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  // The owner created the room above: its 1 MiB counts against the owner's quota (server/README "Storage quotas").
  const adminSession = await apiSignIn(server, { email: server.admin.email, password: server.admin.password });
  const ownerUuid = (await (await apiCall(server, await apiSignIn(server, owner), 'GET', '/user')).json()) as { user: { uuid: string } };
  const set = await apiCall(server, adminSession, 'PUT', `/admin/users/${ownerUuid.user.uuid}/storage-quota`, { quota: Math.round(1.1 * 1024 * 1024) });
  expect(set.status, await set.clone().text()).toBe(200);

  await signInToInbox(page, server, owner);
  await openSendPage(page, server);
  await expect(page.getByText(before(common.storage.userNearlyFull))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'send page with the storage warning');
  await page.getByRole('navigation', { name: en.shell.menu.label }).getByRole('link', { name: en.shell.menu.datarooms }).click();
  const section = page.getByRole('region', { name: rooms.quota.title });
  await expect(section.getByTestId('quota-mine')).toContainText('1\u00a0MB of 1.1\u00a0MB');
  await expect(section.getByText(before(common.storage.userNearlyFull))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'data rooms home with the storage warning');
});
