// Trust networks, slice 1 (issue 30) in the browser against two real servers: the administrator of A
// creates a connection, copies the own key (the administrator of B enters it through B's API), enters
// B's key, tests the connection and sees it connected; a partner that cannot be reached shows the
// step that failed; leaving with unsaved changes warns; delete after confirming. axe on each page.
import { expect, type Page } from '@playwright/test';
import type { TrustConnection } from '@shared/contract/trust-networks';
import { call, signInAdmin } from '@tests/integration/core-helpers';
import { startTestServer, type TestServer } from '../support/server';
import { en as enBase, expectInbox, expectNoSeriousA11yViolations, locale, signIn, test } from './fixtures';

const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
const en = { ...enBase, admin };
const trust = admin.trust;
const ctx = {} as { a: TestServer; b: TestServer };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // Loopback partners: allow-listed, plain http allowed (README "Configuration").
  const config = { outboundAllow: ['127.0.0.1'], outboundAllowHttp: true };
  ctx.a = await startTestServer({ config });
  ctx.b = await startTestServer({ config });
});

test.afterAll(async () => {
  await ctx.a?.close();
  await ctx.b?.close();
});

async function openTrustNetworks(page: Page) {
  await page.goto(`${ctx.a.url}/admin`);
  await page.getByRole('navigation', { name: en.shell.admin.menuLabel }).getByRole('link', { name: en.shell.admin.items.trustNetworks, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: trust.title })).toBeVisible();
}

test('an administrator connects two servers, tests, sees a failed step, and deletes the connection', async ({ page, context }) => {
  test.setTimeout(180_000);
  const { a, b } = ctx;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: a.url });
  await signIn(page, a, { username: a.admin.email, password: a.admin.password });
  await expectInbox(page, a);

  await openTrustNetworks(page);
  await expect(page.getByText(trust.empty)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'trust networks (empty)');

  await page.getByRole('link', { name: trust.create }).click();
  await expect(page.getByRole('heading', { level: 1, name: trust.createTitle })).toBeVisible();
  // SPEC §5: the form refuses a bad URL and no domain before anything is sent.
  await page.getByRole('textbox', { name: trust.fields.partnerUrl }).fill('not a url');
  await page.getByRole('button', { name: trust.save }).click();
  await expect(page.getByText(trust.errors.invalidUrl)).toBeVisible();
  await expect(page.getByText(trust.errors.noDomain)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'trust connection form (errors)');

  await page.getByRole('textbox', { name: trust.fields.partnerUrl }).fill(b.url);
  await page.getByRole('textbox', { name: trust.fields.domains }).fill('partner-b.example');
  await page.getByRole('button', { name: trust.save }).click();
  await expect(page.getByRole('heading', { level: 1, name: trust.editTitle })).toBeVisible();
  await expect(page.getByTestId('trust-status')).toContainText(trust.states.pending);

  // The own key, copied as the administrator would, goes to B's administrator; B's key comes back.
  await page.getByRole('button', { name: trust.copyKey }).click();
  const ownKey = await page.evaluate(() => navigator.clipboard.readText());
  await expect(page.getByTestId('own-key')).toHaveText(ownKey);
  const adminB = await signInAdmin(b);
  const onB = (await (await call(b, adminB, 'POST', '/api/2/admin/trust-networks', { partnerUrl: a.url, partnerDomains: ['partner-a.example'], partnerPublicKey: ownKey })).json()) as TrustConnection;
  expect(onB.status).toBe('testable');

  await page.getByRole('textbox', { name: trust.fields.partnerKey }).fill(onB.ownPublicKey);
  await page.getByRole('button', { name: trust.save }).click();
  await expect(page.getByTestId('trust-status')).toContainText(trust.states.testable);
  // The partner fingerprint as B's administrator sees it as their own.
  await expect(page.getByText(onB.ownKeyFingerprint.toUpperCase().match(/.{4}/g)!.join(' '))).toBeVisible();
  await page.getByRole('button', { name: trust.test }).click();
  await expect(page.getByTestId('trust-status')).toContainText(trust.states.established);
  await expectNoSeriousA11yViolations(page, 'trust connection (established)');

  // Unsaved changes warn before leaving.
  await page.getByRole('textbox', { name: trust.fields.partnerUrl }).fill('http://127.0.0.1:1');
  await page.getByRole('button', { name: trust.back }).click();
  await expect(page.getByText(trust.leaveText)).toBeVisible();
  await page.getByRole('button', { name: en.admin.settingsForm.stay }).click();
  await page.getByRole('button', { name: trust.save }).click();
  await expect(page.getByTestId('trust-status')).toContainText(trust.states.testable);
  await page.getByRole('button', { name: trust.test }).click();
  await expect(page.getByTestId('trust-status')).toContainText(trust.states.error);
  await expect(page.getByTestId('trust-status')).toContainText(trust.steps.unreachable);

  // The list shows the same, and deletes after confirming.
  await page.getByRole('button', { name: trust.back }).click();
  const row = page.getByRole('row').filter({ hasText: 'http://127.0.0.1:1' });
  await expect(row.getByTestId('trust-status')).toContainText(trust.steps.unreachable);
  await expectNoSeriousA11yViolations(page, 'trust networks (list)');
  await row.getByRole('button', { name: trust.deleteLabel.replace('{{url}}', 'http://127.0.0.1:1') }).click();
  await expect(page.getByRole('alertdialog')).toContainText(trust.confirmTitle);
  await page.getByRole('alertdialog').getByRole('button', { name: trust.delete }).click();
  await expect(page.getByText(trust.empty)).toBeVisible();
});
