// The storage quota view on the data rooms home (issue 15, SPEC §3 storage quota) against the real
// GET /rooms/quota: after the owner's 3 MiB file the donut and the figures show it under data
// rooms; no global quota is set, so "Total" reads "No limit set". axe on the home with the view.
import { expect } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiSignIn, en as enBase, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const en = { ...enBase, rooms };
const ctx = serverPerFile();
let owner: TestUser;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'quinn', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});

test('the quota view shows the data rooms’ bytes from the server', async ({ page }) => {
  test.setTimeout(90_000);
  const session = await apiSignIn(ctx.server, owner);
  const room = await apiCreateRoom(ctx.server, session, 'Quota Room');
  await apiUploadRoomFile(ctx.server, session, room.uuid, null, 'big.bin', new Uint8Array(3 * 1024 * 1024).fill(7));

  await signInToInbox(page, ctx.server, owner);
  const quotaCall = page.waitForResponse((response) => response.url().endsWith('/api/2/rooms/quota'));
  await page.getByRole('navigation', { name: en.shell.menu.label }).getByRole('link', { name: en.shell.menu.datarooms }).click();
  expect((await quotaCall).status()).toBe(200);
  const section = page.getByRole('region', { name: rooms.quota.title });
  await expect(section).toBeVisible();
  await expect(section).toContainText(`${rooms.quota.secureRooms}3\u00a0MB`);
  await expect(section).toContainText(`${rooms.quota.total}${rooms.quota.noLimit}`);
  await expect(section.getByText(rooms.quota.other).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'data rooms home with storage quota');
});
