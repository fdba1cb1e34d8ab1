// The file menu's "Open preview" in a plain data room against the real server (issue 15): a
// PREVIEWER (no download) opens a PNG (shown as an image from a blob URL, really decoded) and a
// text file (its text in the dialog); a file the server cannot preview (415) says so; a small real
// PDF shows in the dialog's PDF object from a blob URL holding exactly its bytes. axe on the dialog.
import { expect, test } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiSignIn, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox } from './fixtures';
import { apiCreateRoom, apiShareRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const ctx = serverPerFile();
let owner: TestUser;
let previewer: TestUser;

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'olga', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  previewer = await createUserInRepository(ctx.server, { username: 'pia' });
});

const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');
// A 1×1 red PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** A one-page PDF (a few hundred bytes) with a correct cross-reference table. */
function smallPdf(text: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 12 Tf 20 50 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 12 Tf 20 50 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

test('a PREVIEWER previews an image and a text file; another type cannot be previewed', async ({ page }) => {
  test.setTimeout(120_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Preview Room');
  await apiUploadRoomFile(server, session, room.uuid, null, 'dot.png', new Uint8Array(PNG), 'image/png');
  await apiUploadRoomFile(server, session, room.uuid, null, 'notes.txt', new TextEncoder().encode('Line one\nZeile zwei – ü'), 'text/plain');
  await apiUploadRoomFile(server, session, room.uuid, null, 'data.bin', new Uint8Array([1, 2, 3]));
  const pdf = smallPdf('Kuvert preview');
  await apiUploadRoomFile(server, session, room.uuid, null, 'brief.pdf', new Uint8Array(pdf), 'application/pdf');
  await apiShareRoom(server, session, room.uuid, previewer.email, 'PREVIEWER');

  await signInToInbox(page, server, previewer);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Preview Room' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download dot.png' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Actions for file dot.png' }).click();
  await page.getByRole('menuitem', { name: rooms.preview.action }).click();
  const imageDialog = page.getByRole('dialog', { name: fill(rooms.preview.title, { name: 'dot.png' }) });
  const image = imageDialog.getByRole('img', { name: 'dot.png' });
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  await expectNoSeriousA11yViolations(page, 'preview dialog with an image');
  await imageDialog.getByRole('button', { name: rooms.preview.close }).click();
  await expect(imageDialog).toHaveCount(0);

  await page.getByRole('button', { name: 'Actions for file notes.txt' }).click();
  await page.getByRole('menuitem', { name: rooms.preview.action }).click();
  const textDialog = page.getByRole('dialog', { name: fill(rooms.preview.title, { name: 'notes.txt' }) });
  await expect(textDialog.getByLabel(fill(rooms.preview.textLabel, { name: 'notes.txt' }))).toHaveText('Line one\nZeile zwei – ü');
  await expectNoSeriousA11yViolations(page, 'preview dialog with a text');
  await page.keyboard.press('Escape');
  await expect(textDialog).toHaveCount(0);

  await page.getByRole('button', { name: 'Actions for file data.bin' }).click();
  await page.getByRole('menuitem', { name: rooms.preview.action }).click();
  const binDialog = page.getByRole('dialog', { name: fill(rooms.preview.title, { name: 'data.bin' }) });
  await expect(binDialog).toContainText(fill(rooms.preview.unsupported, { name: 'data.bin' }));
  await page.keyboard.press('Escape');
  await expect(binDialog).toHaveCount(0);

  // A real PDF: the dialog's PDF object points at a blob URL holding exactly the file's bytes, no error.
  await page.getByRole('button', { name: 'Actions for file brief.pdf' }).click();
  // (The page's CSP lets no script read the blob back, and the answer's body is gone once the page
  // read it: its length and type are checked; integration tests check preview bytes.)
  const [answer] = await Promise.all([
    page.waitForResponse((response) => response.url().includes('/preview') && response.request().method() === 'GET'),
    page.getByRole('menuitem', { name: rooms.preview.action }).click(),
  ]);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toContain('application/pdf');
  expect(Number(await answer.headerValue('content-length'))).toBe(pdf.length);
  const pdfDialog = page.getByRole('dialog', { name: fill(rooms.preview.title, { name: 'brief.pdf' }) });
  const shown = pdfDialog.locator('object[type="application/pdf"]');
  await expect(shown).toHaveAttribute('data', /^blob:/);
  await expect(shown).toHaveAttribute('aria-label', 'brief.pdf');
  await expect(pdfDialog).not.toContainText(fill(rooms.preview.failed, { name: 'brief.pdf' }));
  await expect(pdfDialog).not.toContainText(fill(rooms.preview.unsupported, { name: 'brief.pdf' }));
  await expectNoSeriousA11yViolations(page, 'preview dialog with a PDF');
});
