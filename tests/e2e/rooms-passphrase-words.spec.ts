// The passphrase screens as an owner about to create a first Secure room meets them (issue 32 §1):
// the secure-rooms list asks to create a passphrase (no "Enter passphrase" before one exists, no
// "you were given access"), the create page and its success speak of creating rooms (nobody has to
// grant anything), and after a reload the list says the keys are locked because of the reload.
import { expect } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server';
import { apiCreateAccount, apiSignIn, expectNoSeriousA11yViolations, locale, signInToInbox, test } from './fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const secupass = locale<typeof import('@locales/en/secupass.json')>('en', 'secupass');
const owner = { email: 'first.secure-room@example.test', password: 'Good-Passw0rd-first-room' };
const PASSPHRASE = 'First-Secure-Room-SecuPass-Quartz-58';

let server: TestServer;
test.beforeAll(async () => {
  server = await startTestServer();
  await apiCreateAccount(server, await apiSignIn(server, server.admin), owner);
});
test.afterAll(async () => {
  await server?.close();
});

test('a first Secure room: create a passphrase, nothing to wait for; after a reload the keys are locked and the page says why', async ({ page }) => {
  test.setTimeout(180_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms`);
  await expect(page.getByText(rooms.e2e.activation.textFirst)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(rooms.e2e.activation.text)).toHaveCount(0);
  await expect(page.getByRole('button', { name: rooms.e2e.unlock })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'secure rooms without a passphrase');

  await page.getByRole('link', { name: rooms.e2e.activation.action }).click();
  await expect(page.getByText(secupass.room.createIntroFirst)).toBeVisible();
  await expect(page.getByText(secupass.room.createIntro)).toHaveCount(0);
  await page.getByLabel(/^Passphrase/).fill(PASSPHRASE);
  await page.getByLabel(/^Confirm passphrase/).fill(PASSPHRASE);
  await page.getByRole('button', { name: secupass.set.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: secupass.create.successTitle })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(secupass.room.readyText)).toBeVisible();
  await expect(page.getByText(secupass.room.approvalText)).toHaveCount(0);
  await page.getByRole('link', { name: secupass.room.toRooms }).click();
  await expect(page.getByRole('heading', { level: 1, name: rooms.e2e.title })).toBeVisible();
  // Unlocked now: neither the activation bar nor the locked notice.
  await expect(page.getByText(rooms.e2e.activation.title)).toHaveCount(0);
  await expect(page.getByText(rooms.e2e.lockedTitle)).toHaveCount(0);

  await page.reload();
  await expect(page.getByText(rooms.e2e.lockedText)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: rooms.e2e.unlock })).toBeVisible();
  await expect(page.getByText(rooms.e2e.activation.title)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'secure rooms, keys locked after a reload');
});
