// Issue 31, in the browser against the real server (one server for the file): "Search the whole
// room" finds a Secure room's files by a decrypted comment and by a signed classification or status
// (opened and verified in the crypto Worker; the classification/status selects narrow it as the
// route's filters do) and by a decrypted name with an upper-case umlaut ("Überblick" and
// "überblick", issue 32 §3), and a plain room's items by a comment (the server's search, the selects sent
// as its filters), each hit saying what matched; SPEC §8 "local folder unreadable" when a dropped folder's
// reader fails, and "insufficient disk space" with its help link when the save picker's file cannot
// be written (QuotaExceededError). A desktop drag and a full disk cannot be made by Playwright: the
// drop carries the FileSystemEntry interface built in the page with a reader that fails, and the
// save picker is replaced by page script whose writable rejects as Chromium's does on a full disk.
import { expect, type Locator, type Page } from '@playwright/test';
import { ROOM_COMMENT_PATHS } from '@shared/contract/room-comments';
import { signIn as apiSessionOf } from '@tests/integration/core-helpers';
import { e2eActor, giveSecuPass } from '@tests/integration/e2e-helpers';
import { createE2eRoom, openRoomKey, req } from '@tests/integration/rooms-e2e-helpers';
import { seedE2eRoomFiles } from '../support/seed-e2e-room-files';
import { apiCall, apiCreateAccount, apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateRoom, apiUploadRoomFile, unlockRoomKeys } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const comments = locale<typeof import('@locales/en/roomComments.json')>('en', 'roomComments');
const send = locale<typeof import('@locales/en/send.json')>('en', 'send');
const search = rooms.e2ePage.search;
const PASSPHRASE = 'Found-Search-SecuPass-Walnut-73';
const owner = { email: 'owner.rooms-search-found@example.test', password: 'Good-Passw0rd-search-found' };
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));
const ctx = serverPerFile();
let secureUuid: string;
let plainUuid: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const { server } = ctx;
  await apiCreateAccount(server, await apiSignIn(server, server.admin), owner);
  // The Secure room, made in Node with the real crypto (the Worker's code): labels signed into the
  // metadata, a comment sealed and signed by its author.
  const actor = await e2eActor(server, await apiSessionOf(server, owner.email, owner.password));
  const keys = await giveSecuPass(actor, PASSPHRASE);
  const { room } = await createE2eRoom(server, actor, 'Found vault');
  secureUuid = room.uuid;
  const { handle: roomKey } = await openRoomKey(server, actor, room.uuid);
  const names = ['minutes.txt', 'offer.pdf', 'plan.pdf', 'Überblick Q3.pdf'];
  const labels = [{}, { classification: 'confidential' as const }, { status: 'done' as const }, {}];
  const [minutes] = await seedE2eRoomFiles(server.app.db, {
    roomUuid: room.uuid,
    roomKey,
    folderUuid: null,
    count: names.length,
    name: (i) => names[i]!,
    labels: (i) => labels[i]!,
    uploader: { uuid: actor.userUuid, email: owner.email, keys },
    crypto: actor.crypto,
  });
  const ref = { roomId: room.uuid, kind: 'file' as const, itemId: minutes!, authorUserId: actor.userUuid };
  const sealed = await actor.crypto.sealRoomComment({ roomKey, signingKey: keys.signing.handle, ref, text: 'Ask the Zürich notary first', writtenAt: new Date().toISOString() });
  expect((await req(server, actor, 'POST', ROOM_COMMENT_PATHS.list(room.uuid), { fileUuid: minutes, ...sealed })).status).toBe(201);

  // The plain room: a file with a comment, one found by its name.
  const session = await apiSignIn(server, owner);
  const plain = await apiCreateRoom(server, session, 'Found plain');
  plainUuid = plain.uuid;
  const noted = await apiUploadRoomFile(server, session, plain.uuid, null, 'agenda.txt', new TextEncoder().encode('agenda'));
  await apiUploadRoomFile(server, session, plain.uuid, null, 'zurich-trip.txt', new TextEncoder().encode('trip'));
  expect((await apiCall(server, session, 'POST', ROOM_COMMENT_PATHS.list(plain.uuid), { fileUuid: noted.uuid, text: 'Book the Zurich hotel' })).status).toBe(201);
});

/** Searches the whole room for `q` and answers the results table. */
async function searchRoom(page: Page, q: string) {
  const box = page.getByRole('searchbox', { name: search.label });
  await box.fill(q);
  await box.press('Enter');
  return page.getByRole('table', { name: search.results });
}

const hit = (table: Locator, name: string) => table.getByRole('row').filter({ has: table.page().getByRole('link', { name, exact: true }) });

test('a Secure room is searched over decrypted comments and signed classification and status; each hit says what matched', async ({ page }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms/${secureUuid}`);
  await unlockRoomKeys(page, PASSPHRASE);
  await expect(page.getByRole('heading', { level: 1, name: 'Found vault' })).toBeVisible({ timeout: 60_000 });

  // Accents and case do not count: the comment "Zürich" is found by "zurich".
  let table = await searchRoom(page, 'zurich');
  await expect(page.getByText(fill(search.count_one, { count: 1, q: 'zurich' }))).toBeVisible({ timeout: 60_000 });
  await expect(hit(table, 'minutes.txt')).toContainText(fill(search.found.comment, { text: 'Ask the Zürich notary first' }));
  await expectNoSeriousA11yViolations(page, 'Secure room search, a comment hit');

  // The classification's and the status's words in the user's language; the index is reused while typing.
  table = await searchRoom(page, comments.classification.values.confidential.toLowerCase());
  await expect(hit(table, 'offer.pdf')).toContainText(fill(search.found.classification, { value: comments.classification.values.confidential }));
  await expect(table.getByRole('row')).toHaveCount(2);
  table = await searchRoom(page, comments.status.values.done);
  await expect(hit(table, 'plan.pdf')).toContainText(fill(search.found.status, { value: comments.status.values.done }));
  // Issue 32 §3: a decrypted name with an upper-case umlaut, found whichever case is typed.
  for (const q of ['Überblick', 'überblick']) {
    table = await searchRoom(page, q);
    await expect(page.getByText(fill(search.count_one, { count: 1, q }))).toBeVisible({ timeout: 30_000 });
    await expect(hit(table, 'Überblick Q3.pdf')).toContainText(search.found.name);
  }
  await page.setViewportSize({ width: 390, height: 800 });
  await expectNoSeriousA11yViolations(page, 'Secure room search results at 390 px');
  await page.setViewportSize({ width: 1280, height: 800 });
  // A name match says so.
  table = await searchRoom(page, 'minutes');
  await expect(hit(table, 'minutes.txt')).toContainText(search.found.name);

  // The classification and status selects narrow it as the plain route's filters do (with the term: both
  // must hold; alone: every item so labelled), over what is indexed already.
  const narrow = page.getByRole('group', { name: search.labels });
  await narrow.getByRole('combobox', { name: comments.filter.classification }).selectOption('confidential');
  await expect(page.getByText(fill(search.none, { q: `minutes, ${comments.classification.values.confidential}` }))).toBeVisible();
  table = await searchRoom(page, '');
  await expect(hit(table, 'offer.pdf')).toContainText(fill(search.found.classification, { value: comments.classification.values.confidential }));
  await expect(table.getByRole('row')).toHaveCount(2);
  await narrow.getByRole('combobox', { name: comments.filter.classification }).selectOption('all');
  await narrow.getByRole('combobox', { name: comments.filter.status }).selectOption('done');
  await expect(hit(table, 'plan.pdf')).toContainText(fill(search.found.status, { value: comments.status.values.done }));
  await expect(table.getByRole('row')).toHaveCount(2);
  await expectNoSeriousA11yViolations(page, 'Secure room search narrowed by a status');
});

test('a plain room’s search finds an item by a comment and says so; a name hit says “Name”', async ({ page }) => {
  const { server } = ctx;
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${plainUuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Found plain' })).toBeVisible();
  const table = await searchRoom(page, 'ZURICH');
  await expect(page.getByText(fill(search.count_other, { count: 2, q: 'ZURICH' }))).toBeVisible({ timeout: 30_000 });
  await expect(hit(table, 'agenda.txt')).toContainText(fill(search.found.comment, { text: 'Book the Zurich hotel' }));
  await expect(hit(table, 'zurich-trip.txt')).toContainText(search.found.name);
  await expectNoSeriousA11yViolations(page, 'plain room search, comment and name hits');
  // A classification goes to the server with the term (the route's filter): nothing here is confidential.
  await page.getByRole('group', { name: search.labels }).getByRole('combobox', { name: comments.filter.classification }).selectOption('confidential');
  await searchRoom(page, 'ZURICH');
  await expect(page.getByText(fill(search.none, { q: `ZURICH, ${comments.classification.values.confidential}` }))).toBeVisible();
});

test('SPEC §8: a dropped folder that cannot be read is named and nothing is uploaded', async ({ page }) => {
  const { server } = ctx;
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${plainUuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Found plain' })).toBeVisible();
  await page.getByTestId('room-drop-zone').evaluate((zone) => {
    // A folder whose reader fails, as Chromium's does when the folder went away or may not be opened.
    const entry = { isFile: false, isDirectory: true, name: 'Tax papers', createReader: () => ({ readEntries: (_ok: unknown, fail: (e: DOMException) => void) => fail(new DOMException('A requested file or directory could not be found', 'NotFoundError')) }) };
    const dataTransfer = { items: [{ kind: 'file', webkitGetAsEntry: () => entry, getAsFile: () => null }], types: ['Files'], files: [], dropEffect: 'none' };
    for (const type of ['dragover', 'drop']) {
      const event = new Event(type, { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: dataTransfer });
      zone.dispatchEvent(event);
    }
  });
  await expect(page.getByText(fill(rooms.errors.folderUnreadable, { name: 'Tax papers' })).first()).toBeVisible({ timeout: 30_000 });
  const folders = await server.app.db.selectFrom('room_folders').innerJoin('data_rooms', 'data_rooms.id', 'room_folders.room_id').select('room_folders.name').where('data_rooms.uuid', '=', plainUuid).execute();
  expect(folders).toEqual([]);
});

test('SPEC §8: a download whose file cannot be written for want of space says so with the help link', async ({ page }) => {
  const { server } = ctx;
  await page.addInitScript(() => {
    // The save picker's file: the first write fails as on a full disk.
    const handle = {
      createWritable: async () => new WritableStream({ write: () => Promise.reject(new DOMException('There is not enough space on the disk.', 'QuotaExceededError')) }),
    };
    Object.defineProperty(window, 'showSaveFilePicker', { value: async () => handle, configurable: true });
    window.localStorage.setItem('kuvert.downloadPath', 'picker');
  });
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${plainUuid}`);
  await page.getByRole('table', { name: rooms.files.title }).getByRole('link', { name: 'Download agenda.txt' }).click();
  await expect(page.getByText(rooms.errors.diskSpace).first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: /^File transfers/ }).click();
  const drawer = page.getByRole('dialog', { name: send.transfers.title });
  await expect(drawer.getByText(rooms.errors.diskSpace)).toBeVisible();
  const help = drawer.getByRole('link', { name: rooms.errors.diskSpaceHelp });
  await expect(help).toHaveAttribute('href', '/help#help-downloads');
  await expectNoSeriousA11yViolations(page, 'transfer centre with the disk-space failure');
  await help.click();
  await expect(page.getByRole('heading', { name: 'Downloads and disk space' })).toBeVisible();
});
