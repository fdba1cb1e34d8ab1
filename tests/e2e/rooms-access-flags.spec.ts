// SPEC §3 access entry flags in the browser against the real server: in an E2E room the owner's
// share dialog and the details sidebar's Access tab show "Encryption not activated" for a member
// without a SecuPass and "Missing file key" for one with keys but no room-key copy yet; the owner
// (granted) carries no badge. axe on both.
import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiCreateAccount, apiSignIn, expectNoSeriousA11yViolations, locale, secuPassFromNode, signInToInbox, test } from './fixtures';
import { unlockRoomKeys } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const PASSWORD = 'Good-Passw0rd-access-flags';
const PASSPHRASE = 'Flags-Room-SecuPass-Quartz-41';
const owner = { email: 'owner.access-flags@example.test', password: PASSWORD };
const late = { email: 'late.access-flags@example.test', password: PASSWORD };
const keyed = { email: 'keyed.access-flags@example.test', password: PASSWORD };
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');

let server: TestServer;
let roomUuid: string;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const account of [owner, late, keyed]) {
    await apiCreateAccount(server, admin, account);
  }
  const { keys, crypto } = await secuPassFromNode(server, owner, PASSPHRASE);
  await secuPassFromNode(server, keyed, 'Keyed-Room-SecuPass-Basalt-42');
  // The room as the browser creates it: sealed name, the owner's copy of the room key.
  const session = await apiSignIn(server, owner);
  roomUuid = randomUUID();
  const { handle } = await crypto.generateRoomKey();
  const [sealed] = (await crypto.encryptRoomNames({ roomKey: handle, roomId: roomUuid, items: [{ kind: 'room', itemId: roomUuid, name: 'Flag room' }] })).sealed;
  const wrappedKey = await crypto.wrapRoomKey({ roomKey: handle, roomId: roomUuid, recipientPublicKey: keys.encryption.publicKey });
  expect((await apiCall(server, session, 'POST', '/rooms/e2e', { uuid: roomUuid, name: sealed, recipientKeyId: wrappedKey.recipientKeyId, wrappedKey })).status).toBe(201);
  // Shared through the API: nobody's browser granted the keyed member yet.
  for (const [account, role] of [[late, 'VIEWER'], [keyed, 'EDITOR']] as const) {
    expect((await apiCall(server, session, 'PUT', `/rooms/${roomUuid}/access`, { user: account.email, role })).status).toBe(200);
  }
});
test.afterAll(async () => {
  await server?.close();
});

const unlock = (page: Page) => unlockRoomKeys(page, PASSPHRASE);

test('share dialog and Access tab: badges for encryption not activated and missing file key', async ({ page }) => {
  test.setTimeout(180_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlock(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Flag room' })).toBeVisible({ timeout: 30_000 });

  await page.getByRole('button', { name: rooms.share.action, exact: true }).click();
  const share = page.getByRole('dialog', { name: fill(rooms.share.title, { name: 'Flag room' }) });
  const flagsOf = (scope: ReturnType<Page['getByRole']>, email: string) => scope.getByRole('row').filter({ hasText: email }).getByTestId('access-flags');
  await expect(flagsOf(share, late.email)).toHaveText(rooms.e2e.members.states.noSecuPass, { timeout: 30_000 });
  await expect(flagsOf(share, keyed.email)).toHaveText(rooms.accessFlags.missingFileKey);
  await expect(flagsOf(share, owner.email)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'E2E share dialog with access flags');
  await share.getByRole('button', { name: rooms.share.close }).click();

  await page.getByRole('button', { name: fill(rooms.crumbMenu.label, { name: 'Flag room' }) }).click();
  await page.getByRole('menuitem', { name: rooms.details.action }).click();
  const panel = page.getByRole('dialog', { name: fill(rooms.details.title, { name: 'Flag room' }) });
  await panel.getByRole('tab', { name: rooms.details.access }).click();
  await expect(flagsOf(panel, late.email)).toHaveText(rooms.e2e.members.states.noSecuPass, { timeout: 30_000 });
  await expect(flagsOf(panel, keyed.email)).toHaveText(rooms.accessFlags.missingFileKey);
  await expect(flagsOf(panel, owner.email)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'details Access tab with access flags');
});
