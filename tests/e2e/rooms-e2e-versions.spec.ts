// The versions of a file in an end-to-end encrypted room in the browser against the real server:
// version 1, then version 2 of the same name ("Replace (new version)"); "Versions" lists both, each
// verified in the crypto Worker (signed name, size, signer with the uploader's name), version 1 decrypts to its own SHA-256;
// a row whose sealed metadata was changed on the way shows "not trusted" and offers no download;
// a download of a file deleted meanwhile says so; the browser's versions chain (counter, previous
// hash: shared/crypto/README.md section 7 "Version chain"), and a list whose version 1 the server
// swapped for another state the owner signed says the chain is broken. axe on the dialog.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { ROOM_E2E_PATHS } from '@shared/contract/rooms-e2e';
import type { CryptoApi, UnlockedKeys } from '@shared/crypto/service';
import { startTestServer, type TestServer } from '../support/server';
import { proveAddress } from '@tests/support/prove-address';
import { apiCall, apiSignIn, en, expectNoSeriousA11yViolations, locale, secuPassFromNode, signInToInbox, test } from './fixtures';
import { e2eRowAction, ROW_ITEMS } from './e2e-row-menu';

const PASSWORD = 'Good-Passw0rd-rooms-versions';
const PASSPHRASE = 'Owner-Room-Versions-SecuPass-Basalt-31';
const owner = { email: 'owner.rooms-e2e-versions@example.test', password: PASSWORD };
const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let server: TestServer;
/** The owner's keys in Node (another device of hers: what she signed at some time). */
let ownerDevice: { keys: UnlockedKeys; crypto: CryptoApi };
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  const response = await apiCall(server, admin, 'POST', '/admin/users', { email: owner.email, password: owner.password, language: 'en', firstName: 'Olga', lastName: 'Owner' });
  expect(response.status, await response.clone().text()).toBe(201);
  await proveAddress(server, owner.email, owner.password);
  ownerDevice = await secuPassFromNode(server, owner, PASSPHRASE);
});
test.afterAll(async () => {
  await server?.close();
});

async function roomWithTwoVersions(page: Page, name: string, first: Uint8Array, second: Uint8Array): Promise<void> {
  await signInToInbox(page, server, owner);
  await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'memory'));
  await page.goto(`${server.url}/secure-rooms`);
  await page.getByRole('button', { name: 'Enter passphrase' }).first().click();
  const unlock = page.getByRole('dialog', { name: en.secupass.unlock.title.decrypt });
  await unlock.getByLabel(/^Passphrase/).fill(PASSPHRASE);
  await unlock.getByRole('button', { name: en.secupass.unlock.submit.decrypt }).click();
  await expect(unlock).toBeHidden({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Create end-to-end encrypted room' }).click();
  const create = page.getByRole('dialog', { name: 'Create end-to-end encrypted room' });
  await create.getByLabel('Name of the data room').fill(name);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 30_000 });
  const input = page.getByLabel('Upload files', { exact: true });
  await input.setInputFiles({ name: 'offer.pdf', mimeType: 'application/pdf', buffer: Buffer.from(first) });
  await expect(page.getByRole('row').filter({ hasText: 'offer.pdf' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 60_000 });
  await input.setInputFiles({ name: 'offer.pdf', mimeType: 'application/pdf', buffer: Buffer.from(second) });
  const conflict = page.getByRole('alertdialog', { name: '“offer.pdf” already exists' });
  await conflict.getByRole('button', { name: 'Replace (new version)' }).click();
  await expect(page.getByText('Upload finished: offer.pdf').first()).toBeVisible({ timeout: 60_000 });
}

test('Versions lists both versions verified; version 1 downloads its own bytes; axe clean', async ({ page }) => {
  test.setTimeout(180_000);
  const first = new Uint8Array(randomBytes(30_000));
  const second = new Uint8Array(randomBytes(45_000));
  await roomWithTwoVersions(page, 'Offer papers', first, second);
  await e2eRowAction(page, 'offer.pdf', ROW_ITEMS.versions);
  const dialog = page.getByRole('dialog', { name: 'Versions of “offer.pdf”' });
  // Version 1's row: its signed name, size and signer, verified in the Worker.
  const v1 = dialog.getByRole('row').filter({ has: page.getByRole('button', { name: 'Download version 1' }) });
  await expect(v1).toContainText('offer.pdf', { timeout: 30_000 });
  await expect(v1).toContainText(owner.email);
  await expect(dialog.getByRole('row').filter({ hasText: '2 (current)' })).toContainText(owner.email);
  // Issue 32: the uploader's name (the server's answer) above the signed address, in both rows.
  await expect(v1.getByTitle(owner.email)).toContainText('Olga Owner');
  await expect(dialog.getByRole('row').filter({ hasText: '2 (current)' }).getByTitle(owner.email)).toContainText('Olga Owner');
  // The browser signed version 2 as the successor of version 1: the chain holds.
  await expect(dialog.getByText(rooms.e2e.versionChainBroken)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'E2E versions dialog');
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download version 1' }).click()]);
  expect(download.suggestedFilename()).toBe('offer.pdf');
  expect(sha256(await readFile((await download.path())!))).toBe(sha256(first));
  const [current] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download version 2' }).click()]);
  expect(sha256(await readFile((await current.path())!))).toBe(sha256(second));
});

test('a version whose sealed metadata was changed shows “not trusted” and has no download', async ({ page }) => {
  test.setTimeout(180_000);
  await roomWithTwoVersions(page, 'Tampered papers', new Uint8Array(randomBytes(10_000)), new Uint8Array(randomBytes(12_000)));
  // The server's answer changed on the way: one character of version 1's sealed metadata.
  await page.route(/\/api\/2\/rooms\/[0-9a-f-]{36}\/e2e\/files\/[0-9a-f-]{36}\/versions$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { versions: { metadata: string }[] };
    const m = body.versions[0]!.metadata;
    body.versions[0]!.metadata = m.slice(0, 20) + (m[20] === 'A' ? 'B' : 'A') + m.slice(21);
    await route.fulfill({ response, json: body });
  });
  await e2eRowAction(page, 'offer.pdf', ROW_ITEMS.versions);
  const dialog = page.getByRole('dialog', { name: 'Versions of “offer.pdf”' });
  await expect(dialog.getByRole('row').filter({ hasText: '2 (current)' })).toContainText(owner.email, { timeout: 30_000 });
  // The same words the folder shows for a file that does not verify.
  await expect(dialog.getByRole('row').filter({ hasText: /^1/ })).toContainText('– not trusted', { timeout: 30_000 });
  await expect(dialog.getByRole('button', { name: 'Download version 1' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Download version 2' })).toBeVisible();
});

test('a list whose version 1 the server swapped for another state the owner signed (an older name) warns that the chain is broken', async ({ page }) => {
  test.setTimeout(180_000);
  await roomWithTwoVersions(page, 'Swapped papers', new Uint8Array(randomBytes(7_000)), new Uint8Array(randomBytes(7_500)));
  const roomUuid = /secure-rooms\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const db = server.app.db;
  const stored = await db
    .selectFrom('room_e2e_versions')
    .innerJoin('room_file_versions', 'room_file_versions.id', 'room_e2e_versions.version_id')
    .innerJoin('room_files', 'room_files.id', 'room_file_versions.file_id')
    .select(['room_e2e_versions.version_id', 'room_e2e_versions.metadata', 'room_files.uuid'])
    .where('room_e2e_versions.version', '=', 1)
    .orderBy('room_e2e_versions.version_id', 'desc')
    .executeTakeFirstOrThrow();
  // Version 1 as the owner signed it under another name (as before a rename): genuine, but not the state version 2 follows.
  const { crypto, keys } = ownerDevice;
  const state = (await (await apiCall(server, await apiSignIn(server, owner), 'GET', ROOM_E2E_PATHS.state(roomUuid))).json()) as { roomKey: { wrappedKey: Parameters<CryptoApi['unwrapRoomKey']>[0]['wrapped'] } };
  const roomKey = (await crypto.unwrapRoomKey({ privateKey: keys.encryption.handle, roomId: roomUuid, wrapped: state.roomKey.wrappedKey })).handle;
  const { metadata: v1 } = await crypto.openRoomFileMetadata({ roomKey, file: { roomId: roomUuid, fileId: stored.uuid, version: 1 }, sealed: stored.metadata });
  const { signerKeyId: _key, format: _format, ...rest } = v1;
  const { sealed } = await crypto.sealRoomFileMetadata({ roomKey, signingKey: keys.signing.handle, metadata: { ...rest, name: 'offer-draft.pdf' } });
  await db.updateTable('room_e2e_versions').set({ metadata: sealed }).where('version_id', '=', stored.version_id).execute();

  await e2eRowAction(page, 'offer.pdf', ROW_ITEMS.versions);
  const dialog = page.getByRole('dialog', { name: 'Versions of “offer.pdf”' });
  // Each state verifies on its own (signed by the owner) — only the chain tells.
  await expect(dialog.getByRole('row').filter({ hasText: 'offer-draft.pdf' })).toContainText(owner.email, { timeout: 30_000 });
  await expect(dialog.getByText(rooms.e2e.versionChainBroken)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'E2E versions dialog with a broken chain');
});

test('a download of a file deleted meanwhile says so (no silence) and the list reloads', async ({ page }) => {
  test.setTimeout(180_000);
  await roomWithTwoVersions(page, 'Gone papers', new Uint8Array(randomBytes(8_000)), new Uint8Array(randomBytes(9_000)));
  await expect(page.getByRole('row').filter({ hasText: 'offer.pdf' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 30_000 });
  // Deleted by another session while this page still lists it.
  const roomUuid = page.url().split('/').at(-1)!;
  const api = await apiSignIn(server, owner);
  const contents = (await (await apiCall(server, api, 'GET', `/rooms/${roomUuid}`)).json()) as { files: { uuid: string }[] };
  expect((await apiCall(server, api, 'DELETE', `/rooms/${roomUuid}/files/${contents.files[0]!.uuid}`)).status).toBeLessThan(300);
  await e2eRowAction(page, 'offer.pdf', ROW_ITEMS.download);
  await expect(page.getByText('“offer.pdf” is no longer here. The list is reloaded.').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('row').filter({ hasText: 'offer.pdf' })).toHaveCount(0, { timeout: 30_000 });
});
