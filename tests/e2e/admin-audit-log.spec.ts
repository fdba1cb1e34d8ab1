// Administration › Audit log in Chromium against the real server (issue 34 §4): an administrator
// opens it from the administration page, filters by user and time, pages, and downloads the CSV of
// the filtered entries (UTF-8 with BOM); a user administrator reads the insufficient-rights message. axe clean.
import { readFile } from 'node:fs/promises';
import { createUser, en, expect, expectNoSeriousA11yViolations, locale, serverPerFile, signIn, test } from './fixtures';

const adminText = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const holder = serverPerFile('file');
const DAY = 86_400_000;
/** Noon UTC of 2026-03-10: the same calendar day in the browser's time zone. */
const T0 = Date.UTC(2026, 2, 10, 12);

test.beforeAll(async () => {
  const { server } = holder;
  const dora = await createUser(server, { username: 'dora' });
  const root = (await server.app.users.findByLogin(server.admin.email))!;
  // 30 entries about Dora on 2026-03-10 (two pages of 25), one about the administrator a day later.
  const rows = Array.from({ length: 30 }, (_, i) => ({ at: T0 + i * 1000, actor_user_id: root.id, action: 'user.updated', subject_user_id: dora.id, details: JSON.stringify({ n: i }) }));
  rows.push({ at: T0 + DAY, actor_user_id: root.id, action: 'secupass.reset', subject_user_id: root.id, details: JSON.stringify({ note: 'Zoë' }) });
  await server.app.db.insertInto('audit_log').values(rows).execute();
});

test('an administrator filters the audit log by user and time, pages, and downloads the filtered CSV', async ({ page }) => {
  const { server } = holder;
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.goto(`${server.url}/admin`);
  await page.getByRole('link', { name: en.shell.admin.items.auditLog }).click();
  await expect(page.getByRole('heading', { level: 1, name: adminText.audit.title })).toBeVisible();
  const table = page.getByRole('table', { name: adminText.audit.tableLabel });
  await expect(table.getByRole('row')).toHaveCount(26); // header + a page of 25

  await page.getByRole('textbox', { name: adminText.audit.user }).fill('DORA@');
  await page.getByLabel(adminText.audit.from).fill('2026-03-10');
  await page.getByLabel(adminText.audit.to).fill('2026-03-10');
  await page.getByRole('button', { name: adminText.audit.apply }).click();
  await expect(page.getByText(adminText.audit.pageOf.replace('{{page}}', '1').replace('{{pages}}', '2'))).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toContainText('{"n":29}');
  await expect(table.getByText('secupass.reset')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'audit log');
  await page.getByRole('button', { name: adminText.audit.next }).click();
  await expect(table.getByRole('row')).toHaveCount(6); // header + the last 5
  await expect(table.getByRole('row').nth(5)).toContainText('{"n":0}');

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('link', { name: adminText.audit.downloadCsv }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^kuvert-audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).split('\r\n');
  expect(lines[0]).toBe('time,action,actor,subject,details');
  expect(lines).toHaveLength(32); // header, 30 rows, the empty string after the last CRLF
  expect(lines[1]).toBe(`${new Date(T0 + 29_000).toISOString()},user.updated,${server.admin.email},dora@example.test,"{""n"":29}"`);
  expect(lines.join('\n')).not.toContain('secupass.reset');
});

test('a user administrator opening the audit log reads the insufficient-rights message', async ({ page }) => {
  const { server } = holder;
  const helper = await createUser(server, { username: 'helper', roles: ['ROLE_UI_USER', 'ROLE_USER_ADMIN'] });
  await signIn(page, server, { username: helper.email, password: helper.password });
  await expect(page).toHaveURL(/\/secumails\/inbox/);
  await page.goto(`${server.url}/admin`);
  await expect(page.getByRole('link', { name: en.shell.admin.items.auditLog })).toHaveCount(0);
  await page.goto(`${server.url}/admin/audit-log`);
  await expect(page.getByText(en.shell.insufficientRights.text)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: adminText.audit.title })).toHaveCount(0);
});
