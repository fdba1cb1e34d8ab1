// Expected answers are no red console errors (issue 32 §1): the sign-in page's first load (no GET
// /user without a session: shared/contract/auth.ts SIGNED_IN_HINT_COOKIE) and a walk through the
// rooms pages of a signed-in owner (rooms list, a room, a folder, recent, Secure rooms) and a
// visitor's link landing page leave Chromium's console without an error and without a 4xx answer.
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { ROOM_LINK_PATHS, type CreatedRoomLink } from '@shared/contract/room-links';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiCall, apiSignIn, en, serverPerFile, signInToInbox } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiUploadRoomFile } from './rooms-fixtures';

const ctx = serverPerFile();
let owner: TestUser;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'quiet', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});

/** Console errors and the failed answers behind them ("Failed to load resource" names no URL). */
function consoleErrors(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push(`console: ${message.text()} @ ${message.location().url}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) seen.push(`answer ${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  return seen;
}

test('the sign-in page and a rooms walk leave the console without errors', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  const seen = consoleErrors(page);
  // The sign-in page's first load, signed out: nothing asked that answers 401.
  await page.goto(`${server.url}/auth/login`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(seen, 'sign-in page').toEqual([]);
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Quiet room');
  const folder = await apiCreateFolder(server, session, room.uuid, 'Quiet folder');
  const file = await apiUploadRoomFile(server, session, room.uuid, folder.uuid, 'quiet.bin', new Uint8Array(randomBytes(500)));
  const link = (await (await apiCall(server, session, 'POST', ROOM_LINK_PATHS.links(room.uuid, file.uuid), { maxDownloads: 1 })).json()) as CreatedRoomLink;

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms`);
  await expect(page.getByRole('link', { name: 'Quiet room' })).toBeVisible();
  await page.getByRole('link', { name: 'Quiet room' }).click();
  await expect(page.getByRole('heading', { name: 'Quiet room' })).toBeVisible();
  await page.getByRole('link', { name: 'Quiet folder' }).click();
  await expect(page.getByText('quiet.bin').first()).toBeVisible();
  await page.goto(`${server.url}/datarooms/recent`);
  await expect(page.getByText('quiet.bin').first()).toBeVisible();
  await page.goto(`${server.url}/secure-rooms`);
  await page.waitForLoadState('networkidle');

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  const visitorSeen = consoleErrors(visitorPage);
  await visitorPage.goto(link.url);
  await expect(visitorPage.getByText('quiet.bin').first()).toBeVisible();
  await visitorPage.waitForLoadState('networkidle');
  await visitor.close();
  expect({ seen, visitorSeen }).toEqual({ seen: [], visitorSeen: [] });
});
