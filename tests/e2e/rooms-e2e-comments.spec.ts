// Comments in an end-to-end encrypted room in the browser against the real server (issue 31 §1;
// shared/crypto/README.md section 7 "Comments"): the OWNER adds, edits and deletes a comment in the
// details sidebar's Comments tab — sealed and signed in the crypto Worker, the server sees ciphertext
// only; a VIEWER (another member, granted the room key) reads it, verified, without any button (and
// her selection offers no Move or Delete); a
// comment whose sealed text was changed on the way says it cannot be verified and shows no text.
// The OWNER sets a file's classification and status (signed into its metadata): badges, the filter;
// and a folder's classification (a sealed, signed record of its own, README section 7 "Folder
// labels"): badge, the table filter, the room search's label filter, still there after a reload.
// axe on the tab and the filtered table.
import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { ROOM_PATHS } from '@shared/contract/rooms';
import { signIn as apiSessionOf } from '@tests/integration/core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from '@tests/integration/e2e-helpers';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { createE2eFolder, createE2eRoom, grant, json, openRoomKey, req, uploadE2eFile } from '@tests/integration/rooms-e2e-helpers';
import { startTestServer, type TestServer } from '../support/server';
import { expectNoSeriousA11yViolations, locale, signInToInbox, test } from './fixtures';
import { e2eRowAction, ROW_ITEMS } from './e2e-row-menu';
import { unlockRoomKeys } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const rc = locale<typeof import('@locales/en/roomComments.json')>('en', 'roomComments');
const select = locale<typeof import('@locales/en/roomSelect.json')>('en', 'roomSelect');
const OWNER_PASSPHRASE = 'Owner-E2e-Comments-SecuPass-Cedar-41';
const VIEWER_PASSPHRASE = 'Viewer-E2e-Comments-SecuPass-Maple-42';
const ROOM = 'Sealed tender';
const COMMENT = 'Sealed remark: the price is final.';

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let roomUuid: string;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: 1024 } });
  const creator = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] as const;
  owner = await createUserInRepository(server, { username: 'oskar', roles: [...creator] });
  viewer = await createUserInRepository(server, { username: 'viola' });
  const actor = async (user: TestUser, passphrase: string): Promise<E2eActor> => {
    const made = await e2eActor(server, await apiSessionOf(server, user.email, user.password));
    await giveSecuPass(made, passphrase);
    return made;
  };
  const o = await actor(owner, OWNER_PASSPHRASE);
  const v = await actor(viewer, VIEWER_PASSPHRASE);
  const { room } = await createE2eRoom(server, o, ROOM);
  roomUuid = room.uuid;
  await json(await req(server, o, 'PUT', ROOM_PATHS.access(roomUuid), { user: viewer.email, role: 'VIEWER' }), 200);
  await json(await grant(server, o, roomUuid, v.userUuid), 200);
  const { handle } = await openRoomKey(server, o, roomUuid);
  await uploadE2eFile(server, o, roomUuid, handle, { name: 'offer.pdf', bytes: new Uint8Array(randomBytes(2000)), partSize: 1024 });
  await uploadE2eFile(server, o, roomUuid, handle, { name: 'notes.txt', bytes: new Uint8Array(randomBytes(500)), partSize: 1024 });
  await json(await createE2eFolder(server, o, roomUuid, handle, 'Board papers'), 201);
});
test.afterAll(async () => {
  await server?.close();
});

const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

async function openComments(page: Page, user: TestUser, passphrase: string) {
  await signInToInbox(page, server, user);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlockRoomKeys(page, passphrase);
  await expect(page.getByRole('heading', { level: 1, name: ROOM })).toBeVisible({ timeout: 60_000 });
  await e2eRowAction(page, 'offer.pdf', ROW_ITEMS.details);
  const panel = page.getByRole('dialog', { name: fill(rooms.details.title, { name: 'offer.pdf' }) });
  await panel.getByRole('tab', { name: rc.comments.tab }).click();
  return panel;
}

test('the OWNER adds, edits and deletes a sealed comment; the server holds ciphertext only', async ({ page }) => {
  test.setTimeout(180_000);
  const panel = await openComments(page, owner, OWNER_PASSPHRASE);
  await expect(panel.getByText(rc.comments.empty)).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('textbox', { name: rc.comments.newLabel }).fill('First draft remark.');
  await panel.getByRole('button', { name: rc.comments.add }).click();
  await expect(toast(page, rc.comments.added)).toBeVisible({ timeout: 30_000 });
  const list = panel.getByRole('listitem');
  await expect(list).toHaveCount(1, { timeout: 30_000 });
  await expect(list.first()).toContainText('First draft remark.');
  await expectNoSeriousA11yViolations(page, 'Secure room details sidebar (comments tab)');

  await panel.getByRole('button', { name: /^Edit the comment of / }).click();
  await panel.getByRole('textbox', { name: rc.comments.editLabel, exact: true }).fill(COMMENT);
  await panel.getByRole('button', { name: rc.comments.save }).click();
  await expect(list.first()).toContainText(COMMENT, { timeout: 30_000 });
  await expect(list.first()).toContainText(rc.comments.editedMark);

  await panel.getByRole('textbox', { name: rc.comments.newLabel }).fill('To be deleted.');
  await panel.getByRole('button', { name: rc.comments.add }).click();
  await expect(list).toHaveCount(2, { timeout: 30_000 });
  await panel.getByRole('button', { name: /^Delete the comment of / }).last().click();
  await page.getByRole('alertdialog', { name: rc.comments.deleteTitle }).getByRole('button', { name: rc.comments.delete }).click();
  await expect(toast(page, rc.comments.deleted)).toBeVisible({ timeout: 30_000 });
  await expect(list).toHaveCount(1);

  // What the server keeps: the sealed text and the signature, never the words.
  const rows = await server.app.db.selectFrom('room_comments').select(['text', 'signature']).execute();
  expect(rows).toHaveLength(1);
  expect(rows[0]!.text).toMatch(/^r1\./);
  expect(rows[0]!.text).not.toContain('price');
  expect(rows[0]!.signature).toBeTruthy();
});

test('a VIEWER reads the verified comment without buttons; a changed sealed text is said to be unverified', async ({ page }) => {
  test.setTimeout(180_000);
  const panel = await openComments(page, viewer, VIEWER_PASSPHRASE);
  const list = panel.getByRole('listitem');
  await expect(list).toHaveCount(1, { timeout: 30_000 });
  await expect(list.first()).toContainText(COMMENT);
  await expect(list.first()).toContainText(owner.email);
  await expect(panel.getByRole('textbox', { name: rc.comments.newLabel })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: /^(Edit|Delete) the comment of / })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'Secure room comments of a VIEWER');
  // Issue 32 §2: a VIEWER's selection offers the ZIP only, no Move or Delete (SPEC §6 table).
  await panel.getByRole('button', { name: rooms.details.close }).click();
  await page.getByRole('checkbox', { name: fill(select.selectRow, { name: 'notes.txt' }) }).check();
  const bar = page.getByRole('toolbar', { name: select.toolbar });
  await expect(bar.getByRole('button', { name: rooms.files.zip })).toBeVisible();
  for (const action of [rooms.move.action, rooms.delete.action]) await expect(bar.getByRole('button', { name: action, exact: true })).toHaveCount(0);

  // The server's answer changed on the way: one character of the sealed text.
  await page.route(/\/api\/2\/rooms\/[0-9a-f-]{36}\/comments\?/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { comments: { text: string }[] };
    for (const c of body.comments) c.text = c.text.slice(0, 20) + (c.text[20] === 'A' ? 'B' : 'A') + c.text.slice(21);
    await route.fulfill({ response, json: body });
  });
  // The page loaded anew (no cached list: it is fetched through the route) and verified in the Worker.
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlockRoomKeys(page, VIEWER_PASSPHRASE);
  await e2eRowAction(page, 'offer.pdf', ROW_ITEMS.details);
  const again = page.getByRole('dialog', { name: fill(rooms.details.title, { name: 'offer.pdf' }) });
  await again.getByRole('tab', { name: rc.comments.tab }).click();
  await expect(again.getByText(rc.comments.unverified)).toBeVisible({ timeout: 30_000 });
  await expect(again.getByText(COMMENT)).toHaveCount(0);
});

test('the OWNER sets a classification and a status (signed metadata): badges in the table, the filter keeps the file', async ({ page }) => {
  test.setTimeout(180_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlockRoomKeys(page, OWNER_PASSPHRASE);
  const offerRow = page.getByRole('row', { name: /offer\.pdf/ });
  await expect(offerRow).toContainText(owner.email, { timeout: 60_000 });
  await e2eRowAction(page, 'offer.pdf', rc.classification.action);
  const dialog = page.getByRole('dialog', { name: fill(rc.classification.title, { name: 'offer.pdf' }) });
  await dialog.getByRole('combobox', { name: rc.classification.label }).selectOption('confidential');
  await dialog.getByRole('button', { name: rc.save }).click();
  await expect(toast(page, fill(rc.classification.saved, { name: 'offer.pdf' }))).toBeVisible({ timeout: 30_000 });
  await expect(offerRow).toContainText(rc.classification.values.confidential, { timeout: 30_000 });
  await e2eRowAction(page, 'offer.pdf', rc.status.action);
  const statusDialog = page.getByRole('dialog', { name: fill(rc.status.title, { name: 'offer.pdf' }) });
  await statusDialog.getByRole('combobox', { name: rc.status.label }).selectOption('inProgress');
  await statusDialog.getByRole('button', { name: rc.save }).click();
  await expect(offerRow).toContainText(rc.status.values.inProgress, { timeout: 30_000 });
  // Still verified after the re-signing: the OWNER signed it.
  await expect(offerRow).toContainText(owner.email);

  const filter = page.getByRole('group', { name: rc.filter.label });
  await filter.getByRole('combobox', { name: rc.filter.classification }).selectOption('confidential');
  await expect(page.getByRole('row', { name: /notes\.txt/ })).toHaveCount(0);
  await expect(offerRow).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'Secure room with classification filter');
  await filter.getByRole('combobox', { name: rc.filter.status }).selectOption('done');
  await expect(offerRow).toHaveCount(0);
  await filter.getByRole('combobox', { name: rc.filter.status }).selectOption('all');
  await filter.getByRole('combobox', { name: rc.filter.classification }).selectOption('all');
  await expect(page.getByRole('row', { name: /notes\.txt/ })).toBeVisible();

  // The log has the SPEC §4 types and no value: the values are sealed in the metadata.
  const entries = await server.app.db.selectFrom('room_activity').select(['kind', 'detail']).where('kind', 'like', '%_set').orderBy('id').execute();
  expect(entries).toEqual([{ kind: 'classification_set', detail: null }, { kind: 'status_set', detail: null }]);
});

test('the OWNER classifies a folder (a signed record): badge, table filter, the room search finds it, a reload keeps it', async ({ page }) => {
  test.setTimeout(180_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlockRoomKeys(page, OWNER_PASSPHRASE);
  const folderRow = page.getByRole('row', { name: /Board papers/ });
  await expect(folderRow).toBeVisible({ timeout: 60_000 });
  await e2eRowAction(page, 'Board papers', rc.classification.action, 'folder');
  const dialog = page.getByRole('dialog', { name: fill(rc.classification.title, { name: 'Board papers' }) });
  await dialog.getByRole('combobox', { name: rc.classification.label }).selectOption('private');
  await dialog.getByRole('button', { name: rc.save }).click();
  await expect(toast(page, fill(rc.classification.saved, { name: 'Board papers' }))).toBeVisible({ timeout: 30_000 });
  await expect(folderRow).toContainText(rc.classification.values.private, { timeout: 30_000 });

  // The table filter keeps the folder and nothing else.
  const filter = page.getByRole('group', { name: rc.filter.label });
  await filter.getByRole('combobox', { name: rc.filter.classification }).selectOption('private');
  await expect(folderRow).toBeVisible();
  await expect(page.getByRole('row', { name: /notes\.txt|offer\.pdf/ })).toHaveCount(0);
  await filter.getByRole('combobox', { name: rc.filter.classification }).selectOption('all');

  // The room search's classification select alone lists the folder (its record verified in the walk).
  const search = rooms.e2ePage.search;
  await page.getByRole('group', { name: search.labels }).getByRole('combobox', { name: rc.filter.classification }).selectOption('private');
  await page.getByRole('searchbox', { name: search.label }).press('Enter');
  const hits = page.getByRole('table', { name: search.results });
  await expect(hits.getByRole('row').filter({ has: page.getByRole('link', { name: 'Board papers', exact: true }) })).toContainText(fill(search.found.classification, { value: rc.classification.values.private }), { timeout: 60_000 });
  await expect(hits.getByRole('row')).toHaveCount(2);

  // After a reload the record is read and verified again; the server holds it sealed, the log has the type only.
  await page.reload();
  await unlockRoomKeys(page, OWNER_PASSPHRASE);
  await expect(page.getByRole('row', { name: /Board papers/ })).toContainText(rc.classification.values.private, { timeout: 60_000 });
  const stored = JSON.stringify(await server.app.db.selectFrom('room_e2e_folder_labels').selectAll().execute());
  expect(stored).toContain('r1.');
  expect(stored).not.toContain('private');
  const logged = await server.app.db.selectFrom('room_activity').select(['kind', 'detail', 'item_type']).where('item_type', '=', 'folder').where('kind', 'like', 'classification%').execute();
  expect(logged).toEqual([{ kind: 'classification_set', detail: null, item_type: 'folder' }]);

  // A server that drops the record cannot pass the folder off as unlabelled: her devices saw a record (its counter).
  await server.app.db.deleteFrom('room_e2e_folder_labels').execute();
  await page.reload();
  await unlockRoomKeys(page, OWNER_PASSPHRASE);
  const withheld = page.getByRole('row', { name: /Board papers/ });
  await expect(withheld).toContainText(fill(rooms.e2e.folderLabelsProblem, { problem: rooms.e2e.problems['room-folder-labels-withheld'] }), { timeout: 60_000 });
  await expect(withheld).not.toContainText(rc.classification.values.private);
});
