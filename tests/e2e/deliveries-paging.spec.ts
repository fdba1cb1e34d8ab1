// Inbox paging by cursor in the web client, against the real server with 1 001 deliveries seeded
// into one inbox (more than the server counts): the capped footer, Next / Back by cursor, and a
// search or filter starting again at the first page.
import type { Page } from '@playwright/test';
import { LIST_TOTAL_CAP } from '@shared/contract/deliveries';
import { seedSentDeliveries } from '@tests/support/seed-deliveries';
import { createUser, expect, serverPerFile, test, type TestUser } from './fixtures';

const holder = serverPerFile('file');
let reader: TestUser;

test.beforeAll(async () => {
  const server = holder.server;
  reader = await createUser(server, { username: 'pager' });
  const sender = await createUser(server, { username: 'bulk.sender' });
  const start = Date.now() - 30 * 86_400_000;
  await seedSentDeliveries(server.app.db, {
    count: LIST_TOTAL_CAP + 1,
    senderId: () => sender.id,
    recipient: () => reader.email,
    sentAt: (i) => start + i * 60_000,
    subject: (i) => `Bulk ${i}`,
    downloaded: (i) => i % 2 === 0,
  });
});

const rowsOf = (page: Page) => page.getByRole('table', { name: 'Received deliveries' }).getByRole('row');
const subjectsOf = async (page: Page) => (await rowsOf(page).getByRole('link').allTextContents()).map((s) => s.trim());
const expectFirstSubject = (page: Page, subject: string) => expect(rowsOf(page).nth(1).getByRole('link')).toHaveText(subject);

test('pages through a big inbox by cursor; search and filter start again at page 1', async ({ page }) => {
  test.setTimeout(90_000);
  const listRequests: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('/deliveries/inbox')) listRequests.push(url);
  });
  await page.goto(`${holder.server.url}/auth/login`);
  await page.getByLabel('Username or email').fill(reader.email);
  await page.getByLabel(/^Password/).fill(reader.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/secumails\/inbox/);

  await expect(page.getByText('1 to 25 of 1,000+, page 1')).toBeVisible();
  await expect(rowsOf(page)).toHaveCount(26);
  await expectFirstSubject(page, 'Bulk 1000');
  expect((await subjectsOf(page)).at(-1)).toBe('Bulk 976');

  const next = page.getByRole('button', { name: 'Next page' });
  const previous = page.getByRole('button', { name: 'Previous page' });
  await expect(previous).toBeDisabled();
  await next.click();
  await expect(page.getByText('26 to 50 of 1,000+, page 2')).toBeVisible();
  await expectFirstSubject(page, 'Bulk 975');
  await next.click();
  await expect(page.getByText('51 to 75 of 1,000+, page 3')).toBeVisible();
  await expectFirstSubject(page, 'Bulk 950');
  // Next went by cursor, not by page number.
  expect(listRequests.at(-1)!.searchParams.get('cursor')).toBeTruthy();
  await previous.click();
  await expect(page.getByText('26 to 50 of 1,000+, page 2')).toBeVisible();
  await expectFirstSubject(page, 'Bulk 975');

  // A search is another list: page 1, exact below the cap ("Bulk 10", "Bulk 100" … "Bulk 109", "Bulk 1000").
  await page.getByRole('searchbox', { name: 'Search deliveries' }).fill('bulk 10');
  await expect(page.getByText('1 to 12 of 12, page 1 of 1')).toBeVisible();
  await expectFirstSubject(page, 'Bulk 1000');
  await expect(next).toBeDisabled();
  await page.getByRole('searchbox', { name: 'Search deliveries' }).fill('');
  await expect(page.getByText('1 to 25 of 1,000+, page 1')).toBeVisible();

  // The filter too: back at page 1 of the not-downloaded ones (the odd numbers, 500 of them).
  await next.click();
  await expect(page.getByText('26 to 50 of 1,000+, page 2')).toBeVisible();
  await page.getByRole('tab', { name: 'Not downloaded' }).click();
  await expect(page.getByText('1 to 25 of 500, page 1 of 20')).toBeVisible();
  await expectFirstSubject(page, 'Bulk 999');
  await next.click();
  await expect(page.getByText('26 to 50 of 500, page 2 of 20')).toBeVisible();
  await expectFirstSubject(page, 'Bulk 949');
});
