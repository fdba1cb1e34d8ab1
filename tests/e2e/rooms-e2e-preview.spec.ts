// The preview and edit dialog in an end-to-end encrypted room in the browser against the real server
// (issue 31 §3): the server serves only ciphertext (its E2E preview route), the crypto Worker decrypts
// it and the dialog picks the viewer from the decrypted bytes — an image, a PDF drawn by pdf.js (read
// by range; a record the server changed makes the preview fail), a CSV
// table, rendered Markdown and audio/video played by range (the download service worker's frame asks
// for byte ranges, the crypto Worker decrypts only the records covering them: a seek jumps and plays
// without the whole file fetched); a Markdown file edited and saved is the file's next version,
// encrypted, and shows the new text when opened again. In a room made from Node (sealed with the real
// CryptoService, members granted the room key): an OWNER and an EDITOR edit one Markdown file in two
// browser contexts — the later save is the server's conflict, resolved once by a copy (named after
// the folder as the server holds it at the save, not the list she loaded; it decrypts to her text) and once by loading the new version; a PREVIEWER previews decrypted files, is offered
// no download anywhere (row menus, selection toolbar, breadcrumb menu, preview dialog) and the
// download route refuses her own request (issue 31 §5). axe.
import { expect, type Page } from '@playwright/test';
import { API_BASE } from '@shared/contract/constants';
import { BackendErrorSchema } from '@shared/contract/errors';
import { ROOM_PATHS } from '@shared/contract/rooms';
import { signIn as apiSessionOf } from '@tests/integration/core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from '@tests/integration/e2e-helpers';
import { createE2eFolder, createE2eRoom, grant, json, openRoomKey, req, uploadE2eFile } from '@tests/integration/rooms-e2e-helpers';
import { startTestServer, type TestServer } from '../support/server';
import { proveAddress } from '@tests/support/prove-address';
import { apiCall, apiSignIn, createUser, expectNoSeriousA11yViolations, locale, signInToInbox, type TestUser, test } from './fixtures';
import { e2eRowAction, e2eRowMenu, ROW_ITEMS } from './e2e-row-menu';
import { fill, mp4Head, PNG_DOT, smallPdf, toneWav } from './preview-fixtures';
import { newE2eRoom, unlockRoomKeys } from './rooms-fixtures';

const PASSWORD = 'Good-Passw0rd-rooms-e2e-preview';
const PASSPHRASE = 'Owner-Room-Preview-SecuPass-Cobalt-47';
const EDITOR_PASSPHRASE = 'Editor-Room-Preview-SecuPass-Amber-52';
const PREVIEWER_PASSPHRASE = 'Previewer-Room-Preview-SecuPass-Slate-58';
const owner = { email: 'owner.rooms-e2e-preview@example.test', password: PASSWORD };
const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const select = locale<typeof import('@locales/en/roomSelect.json')>('en', 'roomSelect');
const MP4 = mp4Head(2000);
/** 60 s: about 480 kB, several records (a seek to 45 s lands past the first ones). */
const WAV = toneWav(60);
/** The room the OWNER shares with an EDITOR and a PREVIEWER (made from Node). */
const SHARED = 'Shared drafts';

let server: TestServer;
let editor: TestUser;
let previewer: TestUser;
let sharedUuid: string;
let dotUuid: string;
/** Puts a file into the shared room's top level from Node, as its OWNER. */
let putShared: (name: string, bytes: Uint8Array) => Promise<string>;
test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  const response = await apiCall(server, admin, 'POST', '/admin/users', { email: owner.email, password: owner.password, language: 'en' });
  expect(response.status, await response.clone().text()).toBe(201);
  await proveAddress(server, owner.email, owner.password);
  const actor = async (user: { email: string; password: string }, passphrase: string): Promise<E2eActor> => {
    const made = await e2eActor(server, await apiSessionOf(server, user.email, user.password));
    await giveSecuPass(made, passphrase);
    return made;
  };
  const ownerActor = await actor(owner, PASSPHRASE);
  editor = await createUser(server, { username: 'edda' });
  previewer = await createUser(server, { username: 'pia' });
  const members = [
    { user: editor, role: 'EDITOR', actor: await actor(editor, EDITOR_PASSPHRASE) },
    { user: previewer, role: 'PREVIEWER', actor: await actor(previewer, PREVIEWER_PASSPHRASE) },
  ];
  const { room } = await createE2eRoom(server, ownerActor, SHARED);
  sharedUuid = room.uuid;
  for (const member of members) {
    await json(await req(server, ownerActor, 'PUT', ROOM_PATHS.access(sharedUuid), { user: member.user.email, role: member.role }), 200);
    await json(await grant(server, ownerActor, sharedUuid, member.actor.userUuid), 200);
  }
  const { handle } = await openRoomKey(server, ownerActor, sharedUuid);
  // Each file one part (the server's part size is far larger); a new file's version chain starts at 1, as the web client signs it.
  const put = async (name: string, bytes: Uint8Array) => (await uploadE2eFile(server, ownerActor, sharedUuid, handle, { name, bytes, partSize: 1_048_576, link: { counter: 1 } })).uuid;
  putShared = put;
  await put('plan.md', new TextEncoder().encode('# Plan\n'));
  await put('agenda.md', new TextEncoder().encode('# Agenda\n\n1. **Budget**\n'));
  dotUuid = await put('dot.png', new Uint8Array(PNG_DOT));
  await json(await createE2eFolder(server, ownerActor, sharedUuid, handle, 'Board'), 201);
});
test.afterAll(async () => {
  await server?.close();
});

const previewOf = (page: Page, name: string) => page.getByRole('dialog', { name: fill(rooms.preview.title, { name }) });

/** Signs in, opens the shared room with the keys unlocked and waits for `name`'s row to verify (the owner signed it). */
async function openShared(page: Page, user: { email: string; password: string }, passphrase: string, name: string): Promise<void> {
  await signInToInbox(page, server, user);
  await page.goto(`${server.url}/secure-rooms/${sharedUuid}`);
  await unlockRoomKeys(page, passphrase);
  await expect(page.getByRole('heading', { level: 1, name: SHARED })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('row').filter({ hasText: name }).filter({ hasText: owner.email })).toBeVisible({ timeout: 60_000 });
}

test('a Secure room previews decrypted files of each kind and saves an edited Markdown file as its next version', async ({ page }) => {
  test.setTimeout(240_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms`);
  await unlockRoomKeys(page, PASSPHRASE);
  await newE2eRoom(page, 'Sealed previews');
  const files = [
    { name: 'dot.png', mimeType: 'image/png', buffer: PNG_DOT },
    // Two records (the web client's are 512 KiB): its trailer is in the second, which only pdf.js reads.
    { name: 'long.pdf', mimeType: 'application/pdf', buffer: smallPdf('Sealed preview', 600 * 1024) },
    { name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from('name,city\nAda,London\n') },
    { name: 'notes.md', mimeType: '', buffer: Buffer.from('# Sealed notes\n\n<img src=x alt="broken" onerror="window.__md=1">\n') },
    { name: 'clip.mp4', mimeType: 'video/mp4', buffer: MP4 },
    { name: 'tone.wav', mimeType: 'audio/wav', buffer: WAV },
  ];
  await page.getByLabel('Upload files', { exact: true }).setInputFiles(files);
  for (const file of files) await expect(page.getByRole('row').filter({ hasText: file.name }).filter({ hasText: owner.email })).toBeVisible({ timeout: 60_000 });
  const open = async (name: string) => {
    await e2eRowAction(page, name, ROW_ITEMS.preview);
    return page.getByRole('dialog', { name: fill(rooms.preview.title, { name }) });
  };

  const image = (await open('dot.png')).getByRole('img', { name: 'dot.png' });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 }).toBe(1);
  await expectNoSeriousA11yViolations(page, 'Secure room preview of an image');
  await page.keyboard.press('Escape');

  // The PDF: pdf.js reads it by range, each record decrypted and authenticated as it comes.
  const pdfRanges: string[] = [];
  const onPdfRequest = (request: import('@playwright/test').Request) => {
    if (request.url().includes('/preview')) pdfRanges.push(request.headers()['range'] ?? 'whole');
  };
  page.on('request', onPdfRequest);
  const pdfPage = fill(rooms.preview.pdfPage, { page: '1', total: '1', name: 'long.pdf' });
  const pdf = await open('long.pdf');
  await expect(pdf.getByRole('img', { name: pdfPage })).toBeVisible({ timeout: 30_000 });
  page.off('request', onPdfRequest);
  expect(pdfRanges.length).toBeGreaterThan(2);
  expect(pdfRanges).not.toContain('whole');
  await page.keyboard.press('Escape');
  // A server that changes the record pdf.js asks for past the first (the header and the first record,
  // the type's sniff, go through untouched): it does not authenticate and the preview says it failed.
  let forgedReads = 0;
  await page.route(/\/preview$/, async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    const start = Number(/^bytes=(\d+)-/.exec(route.request().headers()['range'] ?? '')?.[1] ?? 0);
    if (start > 49) {
      forgedReads++;
      body[20]! ^= 1;
    }
    await route.fulfill({ response, body });
  });
  const forged = await open('long.pdf');
  await expect(forged).toContainText(fill(rooms.preview.failed, { name: 'long.pdf' }), { timeout: 30_000 });
  await expect(forged.getByRole('img', { name: pdfPage })).toHaveCount(0);
  expect(forgedReads).toBeGreaterThan(0);
  await page.unrouteAll({ behavior: 'wait' });
  await page.keyboard.press('Escape');

  const csv = await open('people.csv');
  await expect(csv.getByRole('columnheader')).toHaveText(['name', 'city'], { timeout: 30_000 });
  await expect(csv).toContainText(fill(rooms.preview.csvShowing, { shown: '1', total: '1' }));
  await page.keyboard.press('Escape');

  // Media plays in the download service worker's frame, by range (not a blob of the whole file).
  const video = await open('clip.mp4');
  await expect(video.getByTestId('media-frame')).toHaveAttribute('src', /^\/webjars\/download\/media-frame\//, { timeout: 30_000 });
  await expect(video.locator('video')).toHaveCount(0);
  await page.keyboard.press('Escape');

  // A seek: currentTime jumps and the sound plays on; the ciphertext came in ranges, never whole.
  const ranges: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/preview')) ranges.push(request.headers()['range'] ?? 'whole');
  });
  const audio = await open('tone.wav');
  const frame = audio.frameLocator('[data-testid="media-frame"]');
  const player = frame.locator('audio');
  await expect(player).toHaveAttribute('aria-label', 'tone.wav', { timeout: 30_000 });
  await expect.poll(() => player.evaluate((a: HTMLAudioElement) => a.duration), { timeout: 30_000 }).toBeGreaterThan(59);
  await player.evaluate((a: HTMLAudioElement) => {
    a.muted = true;
    a.currentTime = 45;
    void a.play();
  });
  await expect.poll(() => player.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 30_000 }).toBeGreaterThan(45.2);
  expect(await player.evaluate((a: HTMLAudioElement) => a.error)).toBeNull();
  expect(ranges.length).toBeGreaterThan(1);
  expect(ranges).not.toContain('whole');
  await expectNoSeriousA11yViolations(page, 'Secure room audio played by range');
  await page.keyboard.press('Escape');

  const md = await open('notes.md');
  await expect(md.getByRole('heading', { name: 'Sealed notes' })).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { __md?: number }).__md)).toBeUndefined();
  await expectNoSeriousA11yViolations(page, 'Secure room preview of Markdown');
  await md.getByRole('button', { name: rooms.preview.edit }).click();
  await md.getByLabel(fill(rooms.preview.editorLabel, { name: 'notes.md' })).fill('# Sealed notes, second version\n');
  await md.getByRole('button', { name: rooms.preview.save, exact: true }).click();
  await expect(page.locator('.fui-ToastTitle', { hasText: fill(rooms.preview.saved, { name: 'notes.md' }) })).toBeVisible({ timeout: 60_000 });
  await md.getByRole('button', { name: rooms.preview.close }).click();
  const again = await open('notes.md');
  await expect(again.getByRole('heading', { name: 'Sealed notes, second version' })).toBeVisible({ timeout: 30_000 });
});

test('an OWNER and an EDITOR edit one Markdown file of a Secure room at once: the later save is a conflict, resolved by a copy and by loading the new version', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const theirs = await browser.newContext();
  const editorPage = await theirs.newPage();
  await openShared(page, owner, PASSPHRASE, 'plan.md');
  await openShared(editorPage, editor, EDITOR_PASSPHRASE, 'plan.md');
  const openPlan = async (where: Page) => {
    await e2eRowAction(where, 'plan.md', ROW_ITEMS.preview);
    const dialog = previewOf(where, 'plan.md');
    await expect(dialog.getByRole('heading', { name: 'Plan', exact: true })).toBeVisible({ timeout: 30_000 });
    return dialog;
  };
  const editTo = async (dialog: ReturnType<typeof previewOf>, text: string) => {
    await dialog.getByRole('button', { name: rooms.preview.edit }).click();
    await dialog.getByLabel(fill(rooms.preview.editorLabel, { name: 'plan.md' })).fill(text);
  };
  const save = (dialog: ReturnType<typeof previewOf>) => dialog.getByRole('button', { name: rooms.preview.save, exact: true }).click();
  const ownerDialog = await openPlan(page);
  const editorDialog = await openPlan(editorPage);
  await editTo(ownerDialog, '# Plan\nowner one');
  await editTo(editorDialog, '# Plan\neditor one');
  await save(ownerDialog);
  // Saved once the dialog shows the rendered file again (the editor's text area holds the words before).
  await expect(ownerDialog.getByRole('heading', { name: 'Plan', exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(ownerDialog).toContainText('owner one');

  // Meanwhile someone saved a "plan (1).md", which the editor's list does not show yet: her copy
  // must take the next free name, checked against the folder as the server holds it now.
  await putShared('plan (1).md', new TextEncoder().encode('# Someone else’s copy\n'));
  await expect(editorPage.getByRole('row').filter({ hasText: 'plan (1).md' })).toHaveCount(0);

  // The editor loaded version 1: the server refuses her commit (If-Match, 412), the conflict dialog asks.
  await save(editorDialog);
  const conflict = editorPage.getByRole('alertdialog', { name: rooms.preview.conflictTitle });
  await expect(conflict).toBeVisible({ timeout: 60_000 });
  await expectNoSeriousA11yViolations(editorPage, 'Secure room save conflict dialog');
  await conflict.getByRole('button', { name: rooms.preview.saveCopy }).click();
  await expect(editorPage.locator('.fui-ToastTitle', { hasText: fill(rooms.preview.copySaved, { name: 'plan (2).md' }) })).toBeVisible({ timeout: 60_000 });
  // Her dialog now shows the owner's version, decrypted; her text is in the copy.
  await expect(editorDialog).toContainText('owner one', { timeout: 30_000 });
  await editorDialog.getByRole('button', { name: rooms.preview.close }).click();
  await expect(editorDialog).toHaveCount(0);
  // The copy is listed verified (signed by the editor) and decrypts to her text.
  await expect(editorPage.getByRole('row').filter({ hasText: 'plan (2).md' }).filter({ hasText: editor.email })).toBeVisible({ timeout: 60_000 });
  await e2eRowAction(editorPage, 'plan (2).md', ROW_ITEMS.preview);
  await expect(previewOf(editorPage, 'plan (2).md')).toContainText('editor one', { timeout: 30_000 });
  await editorPage.keyboard.press('Escape');
  await expect(previewOf(editorPage, 'plan (2).md')).toHaveCount(0);

  // Again, resolved the other way: she loads the new version and her changes are gone. The owner saves
  // a second time from the dialog still open (her first save is what she saves over now).
  const editorAgain = await openPlan(editorPage);
  await expect(editorAgain).toContainText('owner one');
  await editTo(editorAgain, '# Plan\neditor two');
  await editTo(ownerDialog, '# Plan\nowner two');
  await save(ownerDialog);
  // Saved once the dialog shows the rendered file again (the editor's text area holds the words before).
  await expect(ownerDialog.getByRole('heading', { name: 'Plan', exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(ownerDialog).toContainText('owner two');
  await save(editorAgain);
  await conflict.getByRole('button', { name: rooms.preview.loadNew }).click();
  await expect(editorAgain).toContainText('owner two', { timeout: 30_000 });
  await expect(editorAgain).not.toContainText('editor two');
  await expect(editorAgain).not.toContainText(fill(rooms.preview.newVersionFailed, { name: 'plan.md' }));
  await theirs.close();
  // The owner's two saves are versions 2 and 3, each verified and chained to the one before.
  await ownerDialog.getByRole('button', { name: rooms.preview.close }).click();
  await e2eRowAction(page, 'plan.md', ROW_ITEMS.versions);
  const versions = page.getByRole('dialog', { name: fill(rooms.versions.title, { name: 'plan.md' }) });
  await expect(versions.getByRole('row').filter({ hasText: fill(rooms.versions.current, { version: '3' }) })).toContainText(owner.email, { timeout: 30_000 });
  await expect(versions.getByRole('button', { name: /^Download version \d+$/ })).toHaveCount(3);
  await expect(versions.getByText(rooms.e2e.versionChainBroken)).toHaveCount(0);
});

test('a Secure-room PREVIEWER previews decrypted files, is offered no download anywhere, and the download route refuses her', async ({ page }) => {
  test.setTimeout(180_000);
  await openShared(page, previewer, PREVIEWER_PASSPHRASE, 'dot.png');
  // A file's menu: preview and details only; a folder's: details only (no ZIP); the breadcrumb's: details only (no ZIP).
  await e2eRowMenu(page, 'dot.png').click();
  await expect(page.getByRole('menuitem')).toHaveText([rooms.preview.action, rooms.details.action]);
  await page.keyboard.press('Escape');
  await e2eRowMenu(page, 'Board', 'folder').click();
  await expect(page.getByRole('menuitem')).toHaveText([rooms.details.action]);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: fill(rooms.crumbMenu.label, { name: SHARED }) }).click();
  await expect(page.getByRole('menuitem')).toHaveText([rooms.details.action]);
  await page.keyboard.press('Escape');
  // The selection toolbar: no ZIP (nor Move or Delete).
  await page.getByRole('checkbox', { name: fill(select.selectRow, { name: 'dot.png' }) }).check();
  const bar = page.getByRole('toolbar', { name: select.toolbar });
  await expect(bar).toContainText(fill(select.count_one, { count: '1' }));
  for (const action of [rooms.files.zip, rooms.move.action, rooms.delete.action]) await expect(bar.getByRole('button', { name: action, exact: true })).toHaveCount(0);
  await bar.getByRole('button', { name: select.clearSelection }).click();
  await expect(bar).toHaveCount(0);

  // The previews decrypt in her browser: the image is decoded, the Markdown rendered; the dialog offers Close only.
  await e2eRowAction(page, 'dot.png', ROW_ITEMS.preview);
  const image = previewOf(page, 'dot.png');
  const img = image.getByRole('img', { name: 'dot.png' });
  await expect.poll(() => img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth), { timeout: 30_000 }).toBe(1);
  await expect(image.getByRole('button')).toHaveText([rooms.preview.close]);
  await expect(image.getByRole('link')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(image).toHaveCount(0);
  await e2eRowAction(page, 'agenda.md', ROW_ITEMS.preview);
  const agenda = previewOf(page, 'agenda.md');
  await expect(agenda.getByRole('heading', { name: 'Agenda', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(agenda.locator('strong')).toHaveText('Budget');
  await expect(agenda.getByRole('button')).toHaveText([rooms.preview.close]);
  await expectNoSeriousA11yViolations(page, 'Secure room preview of a PREVIEWER');
  await page.keyboard.press('Escape');

  // Her own signed-in request for the bytes (what a download would fetch): refused with the SPEC error.
  const refused = await page.evaluate(async (path) => {
    const response = await fetch(path, { credentials: 'include' });
    return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as unknown };
  }, `${API_BASE}${ROOM_PATHS.fileContent(sharedUuid, dotUuid)}`);
  expect(refused.status).toBe(403);
  expect(refused.type).toMatch(/^application\/json/);
  expect(BackendErrorSchema.parse(refused.body).error).toBe('AccessDeniedException');
});
