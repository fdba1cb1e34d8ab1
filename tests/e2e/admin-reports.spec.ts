// Reports in Chromium against the real server (issue 17 §3): an administrator opens Reports from
// the main menu, sees the charts and tables of seeded deliveries, downloads a CSV (header and rows
// checked), sees the empty state for a quiet period and the range check; a user with
// config.group.reporting sees the entry too, a plain user neither the entry nor the page (the insufficient-rights message instead). axe clean.
import { readFile } from 'node:fs/promises';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { DAY_MS, reportDayOf } from '@shared/contract/reports';
import { seedSentDeliveries } from '@tests/support/seed-deliveries';
import { proveAddress } from '@tests/support/prove-address';
import { apiCall, apiSignIn, en, expect, expectNoSeriousA11yViolations, locale, screenshotsAtWidths, serverPerFile, signIn, test } from './fixtures';

const reportsText = locale<typeof import('@locales/en/reports.json')>('en', 'reports');
const holder = serverPerFile('file');
const PASSWORD = 'Good-Passw0rd-e2e';
const now = Date.now();
const today = reportDayOf(now);
const twoDaysAgo = reportDayOf(now - 2 * DAY_MS);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const { server } = holder;
  const admin = await server.app.users.findByLogin(server.admin.email);
  // Three level-1 deliveries two days ago (two recipients each), one level-3 delivery today.
  const sentAt = (i: number) => (i < 3 ? now - 2 * DAY_MS : now) - (now % DAY_MS) + 3_600_000 + i;
  await seedSentDeliveries(server.app.db, {
    count: 4,
    senderId: () => admin!.id,
    recipient: (i) => `partner${i}@example.test`,
    moreRecipients: (i) => (i < 3 ? [`cc${i}@example.test`] : []),
    sentAt,
    level: (i) => (i < 3 ? SECURITY_LEVELS.LEVEL_1 : SECURITY_LEVELS.LEVEL_3),
    subject: (i) => `Report seed ${i}`,
  });
  const session = await apiSignIn(server, server.admin);
  for (const [email, roleNames] of [
    ['reporter@example.test', ['ROLE_UI_USER', 'config.group.reporting']],
    ['plain@example.test', ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER']],
  ] as const) {
    const response = await apiCall(server, session, 'POST', '/admin/users', { email, password: PASSWORD, firstName: 'Test', lastName: 'User', language: 'en', roleNames });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, email, PASSWORD);
  }
});

test('an administrator opens Reports, sees the figures as chart and table, downloads the CSV', async ({ page }) => {
  const { server } = holder;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.getByRole('link', { name: en.shell.menu.reports }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: reportsText.title })).toBeVisible();

  const deliveries = page.getByRole('region', { name: reportsText.deliveries.title });
  // The chart: one bar stack per day of the range, the levels in the legend.
  await expect(deliveries.locator('svg').first()).toBeVisible();
  await expect(deliveries.getByText(reportsText.levels.level1).first()).toBeVisible();
  await expect(deliveries.getByText(reportsText.levels.level3).first()).toBeVisible();
  // The table beside it, with the seeded figures.
  const table = deliveries.getByRole('table', { name: reportsText.deliveries.title });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row', { name: new RegExp(`${twoDaysAgo} ${reportsText.levels.level1} 3 6`) })).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(`${today} ${reportsText.levels.level3} 1 1`) })).toBeVisible();
  await expect(deliveries.getByText('In total 4 deliveries sent to 7 recipients.')).toBeVisible();
  await expect(page.getByRole('region', { name: reportsText.downloads.title }).getByText(reportsText.downloads.empty)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'reports');
  await screenshotsAtWidths(page, 'admin-reports');

  const downloadPromise = page.waitForEvent('download');
  await deliveries.getByRole('link', { name: reportsText.downloadCsv.replace('{{report}}', reportsText.deliveries.title) }).click();
  const download = await downloadPromise;
  const from = reportDayOf(now - 29 * DAY_MS);
  expect(download.suggestedFilename()).toBe(`kuvert-deliveries-${from}-${today}.csv`);
  const csv = await readFile((await download.path())!, 'utf8');
  // UTF-8 with a byte order mark; an English-speaking administrator's separator is the comma.
  expect(csv).toBe(`\uFEFFdate,level,sent,received\r\n${twoDaysAgo},1,3,6\r\n${today},3,1,1\r\n`);
});

test('a quiet period shows the empty states; a reversed range is refused before asking the server', async ({ page }) => {
  const { server } = holder;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.goto(`${server.url}/reports`);
  await expect(page.getByRole('heading', { level: 1, name: reportsText.title })).toBeVisible();
  const from = page.getByRole('textbox', { name: reportsText.range.from, exact: true });
  const to = page.getByRole('textbox', { name: reportsText.range.to, exact: true });
  await from.fill('2020-02-10');
  await to.fill('2020-02-01');
  await expect(page.getByText(reportsText.range.fromAfterTo)).toBeVisible();
  await expect(page.getByRole('button', { name: reportsText.range.apply })).toBeDisabled();
  await to.fill('2020-02-29');
  await to.press('Enter'); // the keyboard submits the form
  await expect(page.getByRole('region', { name: reportsText.deliveries.title }).getByText(reportsText.deliveries.empty)).toBeVisible();
  await expect(page.getByRole('region', { name: reportsText.activeUsers.title }).getByText(reportsText.activeUsers.empty)).toBeVisible();
  await expect(page.getByRole('region', { name: reportsText.deliveries.title }).getByRole('link', { name: /CSV/ })).toHaveAttribute('href', '/api/2/reports/deliveries/csv?from=2020-02-10&to=2020-02-29');
  await expectNoSeriousA11yViolations(page, 'reports (empty)');
});

test('config.group.reporting sees Reports; a plain user sees no entry and reads the insufficient-rights message', async ({ page }) => {
  const { server } = holder;
  await signIn(page, server, { username: 'reporter@example.test', password: PASSWORD });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.getByRole('link', { name: en.shell.menu.reports }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: reportsText.title })).toBeVisible();
  await expect(page.getByRole('region', { name: reportsText.deliveries.title }).getByRole('table')).toBeVisible();

  await page.context().clearCookies();
  await signIn(page, server, { username: 'plain@example.test', password: PASSWORD });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await expect(page.getByRole('link', { name: en.shell.menu.reports })).toHaveCount(0);
  await page.goto(`${server.url}/reports`);
  await expect(page.getByText(en.shell.insufficientRights.text)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: reportsText.title })).toHaveCount(0);
});
