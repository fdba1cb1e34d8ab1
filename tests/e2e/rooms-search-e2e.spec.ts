// The E2E half of the search across data rooms (issue 15: "for E2E rooms, search runs in the browser
// over decrypted names"), in the browser against the real server: below the plain hits the results
// page has "Secure rooms". Locked, it offers "Unlock to search secure rooms"; unlocked, it walks the
// user's E2E room (sealed names decrypted in the crypto Worker) and lists the folder and files whose
// names contain the term with their decrypted path; a file hit opens its folder. A name that does
// not decrypt is counted, never shown; a room whose key was not granted yet is "not searchable yet";
// a term matching nothing shows both empty states; past 500 hits the walk stops and asks to refine.
// axe on each state.
import { randomUUID } from 'node:crypto';
import { expect, type Locator } from '@playwright/test';
import type { CryptoApi, KeyHandle } from '@shared/crypto/service';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { seedE2eRoomFiles } from '../support/seed-e2e-room-files';
import { apiCall, apiSignIn, en as enBase, expectNoSeriousA11yViolations, locale, secuPassFromNode, serverPerFile, signInToInbox, type ApiSession, test } from './fixtures';
import { apiCreateRoom, apiShareRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const secupass = locale<typeof import('@locales/en/secupass.json')>('en', 'secupass');
const en = { ...enBase, rooms, secupass };
const secure = rooms.search.secure;
const PASSPHRASE = 'Search-Rooms-SecuPass-Larch-61';
const ROOM = 'Tender vault';
/** E2E_CROSS_SEARCH_MAX (web/features/rooms/e2e/e2e-cross-search-walk.ts: a web module, not loaded in Node). */
const E2E_CROSS_SEARCH_MAX = 500;
const ctx = serverPerFile();
let owner: TestUser;
let offersUuid: string;

test.describe.configure({ mode: 'serial' });

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));

/** The row of the hit named `name`: its type and location cells. */
async function expectHit(table: Locator, name: string, kind: string, where: string) {
  const row = table.getByRole('row').filter({ has: table.page().getByRole('link', { name, exact: true }) });
  await expect(row.getByRole('cell')).toHaveText([name, kind, where]);
}

async function createE2eRoom(session: ApiSession, crypto: CryptoApi, roomKey: KeyHandle, recipientPublicKey: string, name: string): Promise<string> {
  const { server } = ctx;
  const roomUuid = randomUUID();
  const [sealed] = (await crypto.encryptRoomNames({ roomKey, roomId: roomUuid, items: [{ kind: 'room', itemId: roomUuid, name }] })).sealed;
  const wrappedKey = await crypto.wrapRoomKey({ roomKey, roomId: roomUuid, recipientPublicKey });
  const response = await apiCall(server, session, 'POST', '/rooms/e2e', { uuid: roomUuid, name: sealed, recipientKeyId: wrappedKey.recipientKeyId, wrappedKey });
  expect(response.status, await response.clone().text()).toBe(201);
  return roomUuid;
}

async function createE2eFolder(session: ApiSession, crypto: CryptoApi, roomKey: KeyHandle, roomUuid: string, name: string, parentUuid: string | null): Promise<string> {
  const uuid = randomUUID();
  const [sealed] = (await crypto.encryptRoomNames({ roomKey, roomId: roomUuid, items: [{ kind: 'folder', itemId: uuid, name }] })).sealed;
  const response = await apiCall(ctx.server, session, 'POST', `/rooms/${roomUuid}/e2e/folders`, { uuid, name: sealed, parentUuid });
  expect(response.status, await response.clone().text()).toBe(201);
  return uuid;
}

test.beforeAll(async () => {
  const { server } = ctx;
  const creator = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] as const;
  owner = await createUserInRepository(server, { username: 'sina', roles: [...creator] });
  const other = await createUserInRepository(server, { username: 'otto', roles: [...creator] });
  const { keys, crypto } = await secuPassFromNode(server, owner, PASSPHRASE);
  const otherKeys = await secuPassFromNode(server, other, 'Other-Search-SecuPass-Spruce-62', crypto);
  const session = await apiSignIn(server, owner);
  const me = (await (await apiCall(server, session, 'GET', '/user')).json()) as { user: { uuid: string } };

  // A plain room: its hit comes from the server, above the secure ones.
  const plain = await apiCreateRoom(server, session, 'Plain tender');
  await apiUploadRoomFile(server, session, plain.uuid, null, 'offer-plain.pdf', new TextEncoder().encode('plain'));

  // The E2E room: Tender vault › Legal › Offers, the marker "offer" in a folder name and in two files.
  const { handle: roomKey } = await crypto.generateRoomKey();
  const roomUuid = await createE2eRoom(session, crypto, roomKey, keys.encryption.publicKey, ROOM);
  const legal = await createE2eFolder(session, crypto, roomKey, roomUuid, 'Legal', null);
  offersUuid = await createE2eFolder(session, crypto, roomKey, roomUuid, 'Offers', legal);
  const uploader = { uuid: me.user.uuid, email: owner.email, keys };
  const names = ['offer-acme.pdf', 'minutes.txt', 'offer-broken.pdf'];
  const [, minutes, broken] = await seedE2eRoomFiles(server.app.db, { roomUuid, roomKey, folderUuid: offersUuid, count: names.length, name: (i) => names[i]!, uploader, crypto });
  await seedE2eRoomFiles(server.app.db, { roomUuid, roomKey, folderUuid: null, count: 1, name: () => 'Offer overview.pdf', uploader, crypto });
  // 501 more names with the marker "bulk": one past the cap.
  const bulk = await createE2eFolder(session, crypto, roomKey, roomUuid, 'Archive', null);
  await seedE2eRoomFiles(server.app.db, { roomUuid, roomKey, folderUuid: bulk, count: E2E_CROSS_SEARCH_MAX + 1, name: (i) => `bulk-${i}.txt`, uploader, crypto });
  // "offer-broken.pdf" gets the sealed name of "minutes.txt" (bound to that file): it must not decrypt.
  const db = server.app.db;
  const sealedMinutes = await db.selectFrom('room_files').select('name').where('uuid', '=', minutes!).executeTakeFirstOrThrow();
  await db.updateTable('room_files').set({ name: sealedMinutes.name }).where('uuid', '=', broken!).execute();

  // Another user's E2E room shared with the owner, who has no room-key copy there (pending grant).
  const otherSession = await apiSignIn(server, other);
  const otherKey = (await crypto.generateRoomKey()).handle;
  const boardUuid = await createE2eRoom(otherSession, crypto, otherKey, otherKeys.keys.encryption.publicKey, 'Offer board');
  await apiShareRoom(server, otherSession, boardUuid, owner.email, 'VIEWER');
});

test('locked: the unlock button, then the secure hits with their decrypted paths; a hit opens its folder; nothing found; a room without a key is not searchable yet', async ({ page }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/search?q=offer`);
  await expect(page.getByRole('heading', { level: 1, name: fill(rooms.search.titleFor, { q: 'offer' }) })).toBeVisible();
  // The plain hit from the server.
  await expect(page.getByRole('table', { name: rooms.search.files }).getByRole('row', { name: /offer-plain\.pdf/ })).toContainText('Plain tender');
  const section = page.getByRole('region', { name: secure.title });
  await expect(section.getByText(secure.locked)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'search results, secure rooms locked');

  await section.getByRole('button', { name: secure.unlock }).click();
  const dialog = page.getByRole('dialog', { name: en.secupass.unlock.title.decrypt });
  await dialog.getByLabel(/^Passphrase/).fill(PASSPHRASE);
  await dialog.getByRole('button', { name: en.secupass.unlock.submit.decrypt }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });

  await expect(section.getByText(fill(secure.count_other, { count: 3, q: 'offer' }))).toBeVisible({ timeout: 30_000 });
  const table = section.getByRole('table', { name: secure.title });
  await expect(table.getByRole('row')).toHaveCount(4); // the header and three hits
  await expectHit(table, 'Offers', secure.kinds.folder, `${ROOM} › Legal`);
  await expectHit(table, 'offer-acme.pdf', secure.kinds.file, `${ROOM} › Legal › Offers`);
  await expectHit(table, 'Offer overview.pdf', secure.kinds.file, ROOM);
  // The broken name is counted, never shown; the other user's room cannot be read.
  await expect(section.getByText(fill(secure.unreadable_one, { count: 1 }))).toBeVisible();
  await expect(section.getByText(fill(secure.notSearchable_one, { count: 1 }))).toBeVisible();
  await expect(page.getByText('offer-broken.pdf')).toHaveCount(0);
  await expect(page.getByText('Offer board')).toHaveCount(0);
  await expect(section.getByRole('alert')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'search results with secure hits');

  // The file hit opens its folder in the E2E room, the file's row highlighted (and only that one).
  await table.getByRole('link', { name: 'offer-acme.pdf' }).click();
  await expect(page).toHaveURL(new RegExp(`/secure-rooms/[0-9a-f-]{36}/folders/${offersUuid}\\?highlight=[0-9a-f-]{36}$`));
  const contents = page.getByRole('table', { name: rooms.e2e.contentsLabel });
  await expect(contents.getByRole('row', { name: /offer-acme\.pdf/ })).toHaveAttribute('aria-current', 'true', { timeout: 30_000 });
  await expect(contents.locator('[aria-current="true"]')).toHaveCount(1);

  // Back on the results (still unlocked), a term matching nothing: the plain and the secure empty states.
  await page.goBack();
  await expect(table.getByRole('row', { name: /offer-acme\.pdf/ })).toBeVisible({ timeout: 30_000 });
  const form = page.getByRole('search', { name: rooms.search.label });
  await form.getByRole('searchbox', { name: rooms.search.label }).fill('nothing-like-this');
  await form.getByRole('button', { name: rooms.search.submit }).click();
  // The owner has secure rooms: the plain line speaks of the data rooms only, the secure section of its own.
  await expect(page.getByText(fill(rooms.search.plainNone, { q: 'nothing-like-this' }))).toBeVisible();
  await expect(page.getByText(fill(rooms.search.noResults, { q: 'nothing-like-this' }))).toHaveCount(0);
  await expect(section.getByText(fill(secure.none, { q: 'nothing-like-this' }))).toBeVisible({ timeout: 30_000 });
  await expect(section.getByRole('table')).toHaveCount(0);
  await expect(section.getByText(fill(secure.notSearchable_one, { count: 1 }))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'search results, nothing found in secure rooms');

  // More hits than the cap: the first 500 and the line asking to refine.
  await form.getByRole('searchbox', { name: rooms.search.label }).fill('bulk');
  await form.getByRole('button', { name: rooms.search.submit }).click();
  await expect(section.getByText(fill(secure.count_other, { count: E2E_CROSS_SEARCH_MAX, q: 'bulk' }))).toBeVisible({ timeout: 30_000 });
  await expect(section.getByText(fill(secure.more, { count: E2E_CROSS_SEARCH_MAX }))).toBeVisible();
  await expect(section.getByRole('table', { name: secure.title }).getByRole('row')).toHaveCount(E2E_CROSS_SEARCH_MAX + 1);

  // One of the 501 in "Archive" (21 pages of 25, newest first; seeded bulk-0 newest): the 301st
  // opens on page 13 with its row highlighted and scrolled to.
  await form.getByRole('searchbox', { name: rooms.search.label }).fill('bulk-300.txt');
  await form.getByRole('button', { name: rooms.search.submit }).click();
  await section.getByRole('table', { name: secure.title }).getByRole('link', { name: 'bulk-300.txt' }).click({ timeout: 30_000 });
  const highlighted = contents.locator('[aria-current="true"]');
  await expect(highlighted).toContainText('bulk-300.txt', { timeout: 30_000 });
  await expect(highlighted).toBeInViewport();
  await expect(page.getByText(fill(rooms.files.paging.range, { start: 301, end: 325, count: 501, page: 13, pages: 21 }))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'secure room with a search hit highlighted');
});
