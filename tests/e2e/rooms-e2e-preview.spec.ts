// The preview and edit dialog in an end-to-end encrypted room in the browser against the real server
// (issue 31 §3): the server serves only ciphertext (its E2E preview route), the crypto Worker decrypts
// it and the dialog picks the viewer from the decrypted bytes — an image, a PDF drawn by pdf.js (read
// by range; a record the server changed makes the preview fail), a CSV
// table, rendered Markdown and audio/video played by range (the download service worker's frame asks
// for byte ranges, the crypto Worker decrypts only the records covering them: a seek jumps and plays
// without the whole file fetched); a Markdown file edited and saved is the file's next version,
// encrypted, and shows the new text when opened again. axe.
import { expect, test } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server';
import { proveAddress } from '@tests/support/prove-address';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, locale, secuPassFromNode, signInToInbox } from './fixtures';
import { e2eRowAction, ROW_ITEMS } from './e2e-row-menu';
import { fill, mp4Head, PNG_DOT, smallPdf, toneWav } from './preview-fixtures';
import { newE2eRoom, unlockRoomKeys } from './rooms-fixtures';

const PASSWORD = 'Good-Passw0rd-rooms-e2e-preview';
const PASSPHRASE = 'Owner-Room-Preview-SecuPass-Cobalt-47';
const owner = { email: 'owner.rooms-e2e-preview@example.test', password: PASSWORD };
const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const MP4 = mp4Head(2000);
/** 60 s: about 480 kB, several records (a seek to 45 s lands past the first ones). */
const WAV = toneWav(60);


let server: TestServer;
test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  const response = await apiCall(server, admin, 'POST', '/admin/users', { email: owner.email, password: owner.password, language: 'en' });
  expect(response.status, await response.clone().text()).toBe(201);
  await proveAddress(server, owner.email, owner.password);
  await secuPassFromNode(server, owner, PASSPHRASE);
});
test.afterAll(async () => {
  await server?.close();
});

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
