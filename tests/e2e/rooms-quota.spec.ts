// The storage quota view on the data rooms home (issue 15, SPEC §3 storage quota) is behind a
// feature check: against this server, which has no GET /rooms/quota yet, the home shows no Storage
// section and no error. The view itself is then rendered from figures in the quota contract's
// shape (the route answered by the test, as no server part exists for it here): donut and figures, axe.
import { expect, test } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { en as enBase, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox } from './fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const en = { ...enBase, rooms };
const ctx = serverPerFile();
let owner: TestUser;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'quinn', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});

test('no quota route: no Storage section; with figures: the chart and the figures', async ({ page }) => {
  test.setTimeout(90_000);
  await signInToInbox(page, ctx.server, owner);
  const quotaCall = page.waitForResponse((response) => response.url().endsWith('/api/2/rooms/quota'));
  await page.getByRole('navigation', { name: en.shell.menu.label }).getByRole('link', { name: en.shell.menu.datarooms }).click();
  expect((await quotaCall).status()).toBe(400);
  await expect(page.getByRole('heading', { level: 1, name: rooms.list.title })).toBeVisible();
  await expect(page.getByText(rooms.list.empty)).toBeVisible();
  await expect(page.getByRole('heading', { name: rooms.quota.title })).toHaveCount(0);

  const MiB = 1024 * 1024;
  await page.route('**/api/2/rooms/quota', (route) =>
    route.fulfill({ json: { used: 300 * MiB, total: 1024 * MiB, other: 100 * MiB, secureRooms: 200 * MiB, free: 724 * MiB } }),
  );
  await page.reload();
  const section = page.getByRole('region', { name: rooms.quota.title });
  await expect(section).toBeVisible();
  await expect(section).toContainText(`${rooms.quota.used}300\u00a0MB`);
  await expect(section).toContainText(`${rooms.quota.total}1\u00a0GB`);
  await expect(section).toContainText(`${rooms.quota.secureRooms}200\u00a0MB`);
  await expect(section).toContainText(`${rooms.quota.free}724\u00a0MB`);
  await expect(section.getByText(rooms.quota.other).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'data rooms home with storage quota');
});
