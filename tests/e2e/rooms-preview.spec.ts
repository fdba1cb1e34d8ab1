// The preview and edit dialog in a plain data room against the real server (issue 15, issue 31 §3): a
// PREVIEWER (no download, no edit) opens a PNG (a blob URL, really decoded), a text file, a PDF
// (drawn by pdf.js onto a canvas, not the browser's viewer, read by range), a CSV (a table with "showing N of M"),
// Markdown (rendered, its script removed) and a video (the player streams the preview URL: 206);
// a type the server cannot preview (415) says so. Two editors edit one Markdown file in two
// browser contexts: the second save is a conflict, resolved once by saving a copy and once by
// loading the new version. axe on the dialogs.
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { fill, mp4Head, PNG_DOT, smallPdf } from './preview-fixtures';
import { apiCreateRoom, apiShareRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const ctx = serverPerFile();
let owner: TestUser;
let previewer: TestUser;
let editor: TestUser;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'olga', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  previewer = await createUserInRepository(ctx.server, { username: 'pia' });
  editor = await createUserInRepository(ctx.server, { username: 'eddie' });
});

const PNG = PNG_DOT;

const CSV = 'name,city\nAda,London\n"Grace, Rear Admiral",Arlington\n';
const MARKDOWN = '# Quarterly notes\n\nSome **bold** text.\n\n<script>window.__md = 1</script>\n';
const MP4 = mp4Head(4000);

const openPreview = async (page: Page, name: string) => {
  await page.getByRole('button', { name: `Actions for file ${name}` }).click();
  await page.getByRole('menuitem', { name: rooms.preview.action }).click();
  return page.getByRole('dialog', { name: fill(rooms.preview.title, { name }) });
};

test('a PREVIEWER previews an image, text, PDF, CSV, Markdown and a video, with no download and no edit; another type cannot be previewed', async ({ page }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Preview Room');
  await apiUploadRoomFile(server, session, room.uuid, null, 'dot.png', new Uint8Array(PNG), 'image/png');
  await apiUploadRoomFile(server, session, room.uuid, null, 'notes.txt', new TextEncoder().encode('Line one\nZeile zwei – ü'), 'text/plain');
  await apiUploadRoomFile(server, session, room.uuid, null, 'data.bin', new Uint8Array([1, 2, 3]));
  const pdf = smallPdf('Kuvert preview');
  await apiUploadRoomFile(server, session, room.uuid, null, 'brief.pdf', new Uint8Array(pdf), 'application/pdf');
  await apiUploadRoomFile(server, session, room.uuid, null, 'people.csv', new TextEncoder().encode(CSV));
  await apiUploadRoomFile(server, session, room.uuid, null, 'notes.md', new TextEncoder().encode(MARKDOWN));
  await apiUploadRoomFile(server, session, room.uuid, null, 'clip.mp4', new Uint8Array(MP4), 'video/mp4');
  await apiShareRoom(server, session, room.uuid, previewer.email, 'PREVIEWER');

  await signInToInbox(page, server, previewer);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Preview Room' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download dot.png' })).toHaveCount(0);

  const imageDialog = await openPreview(page, 'dot.png');
  const image = imageDialog.getByRole('img', { name: 'dot.png' });
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  await expect(imageDialog.getByRole('button', { name: rooms.preview.edit })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'preview dialog with an image');
  await imageDialog.getByRole('button', { name: rooms.preview.close }).click();
  await expect(imageDialog).toHaveCount(0);

  const textDialog = await openPreview(page, 'notes.txt');
  await expect(textDialog.getByLabel(fill(rooms.preview.textLabel, { name: 'notes.txt' }))).toHaveText('Line one\nZeile zwei – ü');
  // A PREVIEWER may not edit.
  await expect(textDialog.getByRole('button', { name: rooms.preview.edit })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'preview dialog with a text');
  await page.keyboard.press('Escape');
  await expect(textDialog).toHaveCount(0);

  const binDialog = await openPreview(page, 'data.bin');
  await expect(binDialog).toContainText(fill(rooms.preview.unsupported, { name: 'data.bin' }));
  await page.keyboard.press('Escape');
  await expect(binDialog).toHaveCount(0);

  // The PDF is drawn by pdf.js (its worker under our CSP) onto a canvas with something on it; it
  // reads the file by range (206), never whole.
  const pdfRanges: string[] = [];
  const onPdfRequest = (request: import('@playwright/test').Request) => {
    if (request.url().includes('/preview')) pdfRanges.push(request.headers()['range'] ?? 'whole');
  };
  page.on('request', onPdfRequest);
  const pdfDialog = await openPreview(page, 'brief.pdf');
  const canvas = pdfDialog.getByRole('img', { name: fill(rooms.preview.pdfPage, { page: '1', total: '1', name: 'brief.pdf' }) });
  await expect(canvas).toBeVisible({ timeout: 30_000 });
  page.off('request', onPdfRequest);
  expect(pdfRanges.length).toBeGreaterThan(1);
  expect(pdfRanges).not.toContain('whole');
  const inked = await canvas.evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark++;
    return dark;
  });
  expect(inked).toBeGreaterThan(20);
  await expect(pdfDialog).not.toContainText(fill(rooms.preview.failed, { name: 'brief.pdf' }));
  await expectNoSeriousA11yViolations(page, 'preview dialog with a PDF');
  await page.keyboard.press('Escape');
  await expect(pdfDialog).toHaveCount(0);

  const csvDialog = await openPreview(page, 'people.csv');
  await expect(csvDialog.getByRole('columnheader')).toHaveText(['name', 'city']);
  await expect(csvDialog.getByRole('row').nth(2)).toContainText('Grace, Rear Admiral');
  await expect(csvDialog).toContainText(fill(rooms.preview.csvShowing, { shown: '2', total: '2' }));
  await expectNoSeriousA11yViolations(page, 'preview dialog with a CSV');
  await page.keyboard.press('Escape');

  const mdDialog = await openPreview(page, 'notes.md');
  await expect(mdDialog.getByRole('heading', { name: 'Quarterly notes' })).toBeVisible();
  await expect(mdDialog.locator('strong')).toHaveText('bold');
  await expect(mdDialog.locator('script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __md?: number }).__md)).toBeUndefined();
  await expectNoSeriousA11yViolations(page, 'preview dialog with Markdown');
  await page.keyboard.press('Escape');

  // The player streams the preview URL itself: a Range request, answered 206.
  const [media] = await Promise.all([
    page.waitForResponse((response) => response.url().includes('/preview') && response.status() === 206 && !(response.request().headers()['range'] ?? '').startsWith('bytes=0-0')),
    openPreview(page, 'clip.mp4'),
  ]);
  expect(media.headers()['content-type']).toBe('video/mp4');
  const videoDialog = page.getByRole('dialog', { name: fill(rooms.preview.title, { name: 'clip.mp4' }) });
  await expect(videoDialog.locator('video')).toHaveAttribute('src', /\/preview$/);
  await page.keyboard.press('Escape');
});

test('two editors change one Markdown file at once: the later save is a conflict, resolved by a copy and by loading the new version', async ({ browser }) => {
  test.setTimeout(180_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Editing Room');
  await apiUploadRoomFile(server, session, room.uuid, null, 'plan.md', new TextEncoder().encode('# Plan\n'));
  await apiShareRoom(server, session, room.uuid, editor.email, 'EDITOR');
  const [mine, theirs] = [await browser.newContext(), await browser.newContext()];
  const ownerPage = await mine.newPage();
  const editorPage = await theirs.newPage();
  await signInToInbox(ownerPage, server, owner);
  await signInToInbox(editorPage, server, editor);

  const editTo = async (page: Page, text: string) => {
    const dialog = page.getByRole('dialog', { name: fill(rooms.preview.title, { name: 'plan.md' }) });
    await dialog.getByRole('button', { name: rooms.preview.edit }).click();
    await dialog.getByLabel(fill(rooms.preview.editorLabel, { name: 'plan.md' })).fill(text);
    return dialog;
  };
  for (const page of [ownerPage, editorPage]) {
    await page.goto(`${server.url}/datarooms/${room.uuid}`);
    await openPreview(page, 'plan.md');
  }
  const ownerDialog = await editTo(ownerPage, '# Plan\nowner one');
  const editorDialog = await editTo(editorPage, '# Plan\neditor one');
  await ownerDialog.getByRole('button', { name: rooms.preview.save, exact: true }).click();
  await expect(ownerDialog.getByRole('heading', { name: 'Plan', exact: true })).toBeVisible();
  await expect(ownerDialog).toContainText('owner one');

  // The editor loaded the first version: the server refuses her save (412), the conflict dialog asks.
  await editorDialog.getByRole('button', { name: rooms.preview.save, exact: true }).click();
  const conflict = editorPage.getByRole('alertdialog', { name: rooms.preview.conflictTitle });
  await expect(conflict).toBeVisible();
  await expectNoSeriousA11yViolations(editorPage, 'save conflict dialog');
  await conflict.getByRole('button', { name: rooms.preview.saveCopy }).click();
  await expect(editorPage.locator('.fui-ToastTitle', { hasText: fill(rooms.preview.copySaved, { name: 'plan (1).md' }) })).toBeVisible({ timeout: 30_000 });
  // Her dialog now shows the owner's version; her text is in the copy.
  await expect(editorDialog).toContainText('owner one');
  await editorDialog.getByRole('button', { name: rooms.preview.close }).click();
  await expect(editorPage.getByRole('link', { name: 'plan (1).md' }).or(editorPage.getByRole('cell', { name: 'plan (1).md' })).first()).toBeVisible();
  const copy = await openPreview(editorPage, 'plan (1).md');
  await expect(copy).toContainText('editor one');
  await editorPage.keyboard.press('Escape');

  // Again, resolved the other way: she loads the new version and her changes are gone.
  await openPreview(editorPage, 'plan.md');
  const editorAgain = await editTo(editorPage, '# Plan\neditor two');
  await editTo(ownerPage, '# Plan\nowner two');
  await ownerDialog.getByRole('button', { name: rooms.preview.save, exact: true }).click();
  // Saved once the dialog shows the rendered file again (the editor's text area holds the words before).
  await expect(ownerDialog.getByRole('heading', { name: 'Plan', exact: true })).toBeVisible();
  await expect(ownerDialog).toContainText('owner two');
  await editorAgain.getByRole('button', { name: rooms.preview.save, exact: true }).click();
  await editorPage.getByRole('alertdialog', { name: rooms.preview.conflictTitle }).getByRole('button', { name: rooms.preview.loadNew }).click();
  await expect(editorAgain).toContainText('owner two');
  await expect(editorAgain).not.toContainText('editor two');

  // Unsaved changes: closing asks (save / discard / keep editing).
  await editTo(editorPage, '# Plan\nnot kept');
  await editorPage.keyboard.press('Escape');
  const unsaved = editorPage.getByRole('alertdialog', { name: rooms.preview.unsavedTitle });
  await expect(unsaved).toBeVisible();
  await unsaved.getByRole('button', { name: rooms.preview.keepEditing }).click();
  await expect(editorAgain.getByLabel(fill(rooms.preview.editorLabel, { name: 'plan.md' }))).toHaveValue('# Plan\nnot kept');
  await editorAgain.getByRole('button', { name: rooms.preview.close }).click();
  await unsaved.getByRole('button', { name: rooms.preview.discard }).click();
  await expect(editorAgain).toHaveCount(0);
  await mine.close();
  await theirs.close();
});
