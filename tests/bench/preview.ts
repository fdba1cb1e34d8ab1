// `npm run bench -- preview` (issue 31 §3): the preview dialog in Chromium (Debian's, the flags of
// playwright.config.ts; the built web client: `npm run build` first) against the real server on
// loopback, a plain room and a Secure room holding the same files (the Secure one sealed and uploaded
// from Node with the real CryptoService, in records of the web client's own size, DEFAULT_RECORD_SIZE).
// Timed from the row menu's Preview to:
//   - the first rendered page of a PDF of KUVERT_BENCH_PREVIEW_PDF_MIB MiB (50; 2 with --quick):
//     pdf.js drawing page 1 (both rooms hand pdf.js the file by range: the plain room from the
//     preview route's 206, the Secure room decrypting the records it asks for, preview/pdf-view.tsx);
//   - the first playable data of a media file of KUVERT_BENCH_PREVIEW_MEDIA_MIB MiB (200; 8 with
//     --quick): the player's readyState ≥ HAVE_CURRENT_DATA (the plain room streams the preview URL,
//     the Secure room plays by range through the download service worker, e2e/e2e-media.ts).
//     The file is PCM audio (WAV): this machine has no video encoder, and the player's range path is
//     the same for audio and video.
// Each as Secure / plain, target ≤ 1.3; and the browser's memory growth (summed Chromium RSS, proc.ts)
// while the Secure room's media opens and plays a few seconds, target < 150 MiB whatever the size.
import { chromium, type Locator, type Page } from '@playwright/test';
import { DEFAULT_RECORD_SIZE } from '@shared/crypto/stream-format';
import { chromiumLaunch } from '../../playwright.config';
import { createUserAsAdmin, signIn } from '../integration/core-helpers';
import { e2eActor, giveSecuPass } from '../integration/e2e-helpers';
import { createPlainRoom, uploadRoomFile } from '../integration/room-upload-helpers';
import { createE2eRoom, openRoomKey, uploadE2eFile } from '../integration/rooms-e2e-helpers';
import { smallPdf, toneWav } from '../e2e/preview-fixtures';
import { startTestServer } from '../support/server';
import { withRssPeak } from './proc';
import { figure, type Figure } from './report';

const MiB = 1024 * 1024;
const PART_SIZE = 4 * MiB;
const USER = { email: 'owner.preview-bench@example.test', password: 'Good-Passw0rd', passphrase: 'Preview-Bench-SecuPass-Alder-64' };
const PDF = 'big.pdf';
const MEDIA = 'long.wav';
/** 44.1 kHz, 8-bit mono: 200 MiB is about 79 minutes. */
const RATE = 44_100;
const round2 = (n: number) => Math.round(n * 100) / 100;

async function openPreview(page: Page, name: string): Promise<{ dialog: Locator; started: number }> {
  await page.getByRole('button', { name: `Actions for file ${name}`, exact: true }).click();
  const started = performance.now();
  await page.getByRole('menuitem', { name: 'Open preview', exact: true }).click();
  return { dialog: page.getByRole('dialog', { name: `Preview of “${name}”` }), started };
}

/** Seconds from Preview to pdf.js's first page drawn. */
async function firstPage(page: Page): Promise<number> {
  const { dialog, started } = await openPreview(page, PDF);
  await dialog.getByRole('img', { name: /^Page 1 of 1/ }).waitFor({ timeout: 600_000 });
  const seconds = (performance.now() - started) / 1000;
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  return seconds;
}

/** Seconds from Preview to the player's first data (in the Secure room's frame, or the dialog itself). */
async function firstData(page: Page, framed: boolean): Promise<number> {
  const { dialog, started } = await openPreview(page, MEDIA);
  const player = framed ? dialog.frameLocator('[data-testid="media-frame"]').locator('audio') : dialog.locator('audio');
  await player.waitFor({ state: 'attached', timeout: 600_000 });
  await player.evaluate((a: HTMLAudioElement) =>
    a.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA ? undefined : new Promise<void>((resolve) => a.addEventListener('loadeddata', () => resolve(), { once: true })),
  );
  const seconds = (performance.now() - started) / 1000;
  // A few seconds of play and a seek to the middle: the pieces after the first.
  await player.evaluate(async (a: HTMLAudioElement) => {
    a.muted = true;
    await a.play();
    a.currentTime = a.duration / 2;
    await new Promise((resolve) => setTimeout(resolve, 3000));
  });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  return seconds;
}

export async function benchPreview(options: { quick: boolean }): Promise<Figure[]> {
  const pdfMiB = Number(process.env.KUVERT_BENCH_PREVIEW_PDF_MIB) || (options.quick ? 2 : 50);
  const mediaMiB = Number(process.env.KUVERT_BENCH_PREVIEW_MEDIA_MIB) || (options.quick ? 8 : 200);
  const pdf = new Uint8Array(smallPdf('Bench page one', pdfMiB * MiB));
  const media = new Uint8Array(toneWav(Math.floor((mediaMiB * MiB) / RATE), RATE));
  const server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const browser = await chromium.launch(chromiumLaunch);
  try {
    const admin = await signIn(server, server.admin.email, server.admin.password);
    await createUserAsAdmin(server, admin, { email: USER.email, password: USER.password, language: 'en' });
    const session = await signIn(server, USER.email, USER.password);
    const plain = await createPlainRoom(server, session, 'Preview bench');
    for (const [name, bytes, mimeType] of [[PDF, pdf, 'application/pdf'], [MEDIA, media, 'audio/wav']] as const) {
      await uploadRoomFile(server, session, plain.uuid, { name, bytes, partSize: PART_SIZE, mimeType });
    }
    const actor = await e2eActor(server, session);
    await giveSecuPass(actor, USER.passphrase);
    const { room } = await createE2eRoom(server, actor, 'Preview vault');
    const { handle: roomKey } = await openRoomKey(server, actor, room.uuid);
    for (const [name, bytes] of [[PDF, pdf], [MEDIA, media]] as const) {
      const uploaded = await uploadE2eFile(server, actor, room.uuid, roomKey, { name, bytes, partSize: PART_SIZE, recordSize: DEFAULT_RECORD_SIZE });
      if (!uploaded.file) throw new Error(`upload refused: ${uploaded.announce.status}`);
    }

    const page = await (await browser.newContext()).newPage();
    await page.goto(`${server.url}/auth/login`);
    await page.getByLabel('Username or email').fill(USER.email);
    await page.getByLabel(/^Password/).fill(USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/secumails\/inbox/);

    // The Secure room first: its first PDF loads pdf.js's chunks and worker from the server, the
    // plain room's come from the browser's cache then (an order that favours the plain room).
    await page.goto(`${server.url}/secure-rooms/${room.uuid}`);
    await page.getByRole('button', { name: 'Enter passphrase' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to decrypt' });
    await dialog.getByLabel(/^Passphrase/).fill(USER.passphrase);
    await dialog.getByRole('button', { name: 'Unlock and decrypt' }).click();
    await page.getByRole('button', { name: `Actions for file ${MEDIA}`, exact: true }).waitFor({ timeout: 120_000 });
    const securePdf = await firstPage(page);
    const secureMedia = await withRssPeak(() => firstData(page, true));

    await page.goto(`${server.url}/datarooms/${plain.uuid}`);
    const plainPdf = await firstPage(page);
    const plainMedia = await withRssPeak(() => firstData(page, false));
    await page.context().close();

    return [
      figure({ name: `Preview: first PDF page, Secure / plain room (${pdfMiB} MiB)`, value: round2(securePdf), unit: 's', baseline: round2(plainPdf), ratio: securePdf / plainPdf, target: 1.3, direction: 'max' }),
      figure({
        name: `Preview: first media data, Secure / plain room (${mediaMiB} MiB WAV)`,
        value: round2(secureMedia.result),
        unit: 's',
        baseline: round2(plainMedia.result),
        ratio: secureMedia.result / plainMedia.result,
        target: 1.3,
        direction: 'max',
        note: 'PCM audio: no video encoder on the bench machine; the range path is the same for video',
      }),
      figure({
        name: `Preview: browser memory growth, Secure room media (${mediaMiB} MiB)`,
        value: round2(secureMedia.growth / MiB),
        unit: 'MiB',
        baseline: round2(plainMedia.growth / MiB),
        targetOn: 'value',
        direction: 'max',
        target: 150,
        note: `plain room's growth ${round2(plainMedia.growth / MiB)} MiB`,
      }),
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
