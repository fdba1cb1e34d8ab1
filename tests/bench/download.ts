// `npm run bench -- download`: the E2E download in Chromium (Debian's, the flags of
// playwright.config.ts) against the real server on loopback (issue 5 "Proof", DESIGN §4).
//   - E2E / plain: a level-3 file of N MiB downloaded through the web client (transfer centre,
//     the download service worker fetching and decrypting with the one file key the crypto Worker
//     hands it, written to disk by the browser) / the product's plain
//     download (an <a download> to the content route) of the same ciphertext bytes. Both timed from
//     the click to the file being complete on disk.
//   - heap growth: the page's JS heap (CDP Runtime.getHeapUsage, sampled every 250 ms) above its
//     level after a GC before the click; target flat, < 100 MiB. The crypto Worker's and the
//     service worker's heaps are other isolates and not in this figure; the next one has them.
//   - E2E / page fetch: the same E2E time against the page reading the ciphertext with fetch().
//   - browser memory growth: the resident memory (RSS from /proc) of every Chromium process this
//     bench started (browser, renderers with the page, crypto Worker and service worker, network
//     and GPU processes), summed, peak above the level before the click; target < 100 MiB.
// Rounds (2 up to 1 GiB, else 1) alternate plain and E2E so load on the machine hits both alike;
// the best time of each and the largest growth count.
// Size: KUVERT_BENCH_DOWNLOAD_MIB, else 4000 (the issue's 4 GiB, less the record tags: Node's
// sendDelivery collects the ciphertext in one Blob, and Node caps a buffer at 4 GiB), 4 with --quick.
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { chromium, type Download, type Page } from '@playwright/test';
import { createApiClient, type ApiClient } from '@shared/api/client';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { postSecuPass } from '@shared/api/endpoints/secupass';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import { createCryptoService } from '@shared/crypto/service';
import { sendDelivery } from '@shared/transfer';
import { chromiumLaunch } from '../../playwright.config';
import { createUserAsAdmin, signIn, type Session } from '../integration/core-helpers';
import { startTestServer, type TestServer } from '../support/server';
import { cpuPerGiBFigure, measureBrowserCpu, type BrowserCpu } from './browser-cpu';
import { cpuSpentBy, withRssPeak } from './proc';
import { figure, type Figure } from './report';
import { withStaleSocketRetry } from './transfer';

const MiB = 1024 * 1024;
const PASSWORD = 'Good-Passw0rd';
const SENDER = { email: 'sender.download@example.test', passphrase: 'Sender-Bench-SecuPass-Granite-41' };
const RECIPIENT = { email: 'recipient.download@example.test', passphrase: 'Recipient-Bench-SecuPass-Willow-42' };
const NAME = 'bench.bin';

export interface DownloadBenchOptions {
  quick?: boolean;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The product's client in Node as one user (cookie + anti-CSRF token), and the user's uuid. */
async function nodeClient(server: TestServer, session: Session): Promise<{ client: ApiClient; userUuid: string }> {
  // Encrypting GiBs idles the keep-alive sockets past the server's timeout (see tests/bench/transfer.ts).
  const client = createApiClient({ backendUrl: server.url, fetch: withStaleSocketRetry(session) });
  client.setAntiCsrfToken(session.csrf);
  const me = (await (await fetch(`${server.url}/api/2/user`, { headers: { cookie: session.cookie, [ANTI_CSRF_HEADER]: session.csrf } })).json()) as { user: { uuid: string } };
  return { client, userUuid: me.user.uuid };
}

/** N MiB from one random 64 MiB block repeated (the cipher makes every record unique anyway). */
function sourceBlob(sizeMiB: number): Blob {
  const block = new Uint8Array(randomBytes(Math.min(sizeMiB, 64) * MiB));
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let left = sizeMiB * MiB; left > 0; left -= block.length) parts.push(left >= block.length ? block : block.subarray(0, left));
  return new Blob(parts);
}

/** Times a click until its download is complete on disk; checks the size (`atLeast`: a ZIP adds headers) and removes the file. */
export async function timedDownload(page: Page, click: () => Promise<void>, size: number, atLeast = false): Promise<number> {
  const started = performance.now();
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download', { timeout: 0 }), click()]);
  const path = await download.path();
  const seconds = (performance.now() - started) / 1000;
  const written = (await stat(path)).size;
  await download.delete();
  if (atLeast ? written < size : written !== size) throw new Error(`downloaded ${written} bytes, expected ${atLeast ? 'at least ' : ''}${size}`);
  return seconds;
}

export async function benchDownload(options: DownloadBenchOptions = {}): Promise<Figure[]> {
  const sizeMiB = Number(process.env.KUVERT_BENCH_DOWNLOAD_MIB) || (options.quick ? 4 : 4000);
  const server = await startTestServer();
  const browser = await chromium.launch({ ...chromiumLaunch, args: [...chromiumLaunch.args, '--enable-precise-memory-info'] });
  try {
    const admin = await signIn(server, server.admin.email, server.admin.password);
    for (const user of [SENDER, RECIPIENT]) await createUserAsAdmin(server, admin, { email: user.email, password: PASSWORD, language: 'en' });
    const sender = await nodeClient(server, await signIn(server, SENDER.email, PASSWORD));
    const recipient = await nodeClient(server, await signIn(server, RECIPIENT.email, PASSWORD));
    const crypto = createCryptoService();
    const senderSetup = await crypto.setupSecuPass({ userId: sender.userUuid, passphrase: SENDER.passphrase });
    const recipientSetup = await createCryptoService().setupSecuPass({ userId: recipient.userUuid, passphrase: RECIPIENT.passphrase });
    for (const [client, setup] of [
      [sender.client, senderSetup],
      [recipient.client, recipientSetup],
    ] as const) {
      await postSecuPass(client, { blob: setup.blob, publicKeys: setup.blob.keys.map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey })) });
    }
    const sent = await sendDelivery({
      client: sender.client,
      draft: { recipients: [RECIPIENT.email], subject: 'Download bench', body: '', securityLevel: 20 },
      files: [{ name: NAME, blob: sourceBlob(sizeMiB), mimeType: 'application/octet-stream' }],
      e2e: { crypto, keys: senderSetup.keys, pins: new MemoryKeyPinStore() },
    });
    if (!sent.ok) throw new Error(`sendDelivery failed: ${JSON.stringify(sent.error)}`);
    const file = sent.delivery.files[0]!;
    const contentUrl = deliveryContentUrl(sent.delivery.deliveryUuid, file.fileId);

    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/auth/login`);
    await page.getByLabel('Username or email').fill(RECIPIENT.email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/secumails\/inbox/);
    await page.goto(`${server.url}/secumails/inbox/${sent.delivery.deliveryUuid}`);
    // The streamed path that runs headless (the save picker needs a real dialog).
    await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'serviceWorker'));
    await page.getByRole('button', { name: 'Enter passphrase and decrypt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to decrypt' });
    await dialog.getByLabel(/^Passphrase/).fill(RECIPIENT.passphrase);
    await dialog.getByRole('button', { name: 'Unlock' }).click();
    const button = page.getByRole('button', { name: `Download ${NAME}` });
    await button.waitFor({ timeout: 60_000 });

    // Plain: the ciphertext through the content route, saved by the browser.
    const plainDownload = () =>
      timedDownload(
        page,
        () =>
          page.evaluate((href) => {
            const a = document.createElement('a');
            a.href = href;
            a.download = 'plain.bin';
            document.body.append(a);
            a.click();
            a.remove();
          }, contentUrl),
        file.size,
      );

    // Plain, in the page: the same ciphertext read to the end by fetch() (the issue's "plain fetch").
    const pageFetch = () =>
      page.evaluate(async (href) => {
        const started = performance.now();
        const response = await fetch(href, { credentials: 'include' });
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        let bytes = 0;
        for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
        return { bytes, seconds: (performance.now() - started) / 1000 };
      }, contentUrl);

    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.enable');
    const rounds = sizeMiB > 1024 ? 1 : 2;
    let plainSeconds = Infinity;
    let fetchSeconds = Infinity;
    let e2eSeconds = Infinity;
    let heapGrowth = 0;
    let rssGrowth = 0;
    const rssGrowths: number[] = [];
    let fetchRssGrowth = 0;
    let plainCpu = '';
    let e2eCpu = '';
    const cpuRounds: { e2e: BrowserCpu; plain: BrowserCpu }[] = [];
    for (let round = 0; round < rounds; round++) {
      const plain = await cpuSpentBy(() => measureBrowserCpu(plainDownload));
      plainSeconds = Math.min(plainSeconds, plain.result.result);
      plainCpu = plain.cpu;
      const fetched = await withRssPeak(pageFetch);
      if (fetched.result.bytes !== file.size) throw new Error(`fetched ${fetched.result.bytes} bytes, expected ${file.size}`);
      fetchSeconds = Math.min(fetchSeconds, fetched.result.seconds);
      fetchRssGrowth = Math.max(fetchRssGrowth, fetched.growth);

      await cdp.send('HeapProfiler.collectGarbage');
      const before = (await cdp.send('Runtime.getHeapUsage')).usedSize;
      let peak = before;
      const e2e = await cpuSpentBy(() =>
        withRssPeak(
          () => measureBrowserCpu(() => timedDownload(page, () => button.click(), sizeMiB * MiB)),
          async () => void (peak = Math.max(peak, (await cdp.send('Runtime.getHeapUsage')).usedSize)),
        ),
      );
      e2eSeconds = Math.min(e2eSeconds, e2e.result.result.result);
      cpuRounds.push({ e2e: e2e.result.result.cpu, plain: plain.result.cpu });
      e2eCpu = e2e.cpu;
      await page.getByRole('status').filter({ hasText: 'Downloaded' }).first().waitFor();
      heapGrowth = Math.max(heapGrowth, peak - before);
      rssGrowth = Math.max(rssGrowth, e2e.result.growth);
      rssGrowths.push(e2e.result.growth);
    }
    const growthMiB = round2(heapGrowth / MiB);
    const rssGrowthMiB = round2(rssGrowth / MiB);
    const fetchRssGrowthMiB = round2(fetchRssGrowth / MiB);

    const common = `${sizeMiB} MiB level 3 (sendDelivery's default record size), Chromium headless, loopback, in-process server (SQLite), best of ${rounds} alternating round(s)`;
    return [
      // Issue 35 §5; the E2E round's CPU includes the heap sampling's CDP calls every 250 ms.
      cpuPerGiBFigure({ name: 'download.browser_cpu', bytes: sizeMiB * MiB, rounds: cpuRounds, note: `the downloads of download.e2e_vs_plain; ${common}` }),
      figure({
        name: 'download.e2e_vs_plain',
        value: round2(sizeMiB / e2eSeconds),
        unit: 'MiB/s (plaintext)',
        baseline: round2(file.size / MiB / plainSeconds),
        // Issue 35 §5 sets ≥ 0.8 for this figure (the group started with 0.9, issue of 2026-11-22).
        target: 0.8,
        note: `E2E download through the transfer centre (the download service worker fetches and decrypts with the one file key the crypto Worker handed it → the browser's download → disk) / plain <a download> of the same ciphertext from the content route (the browser alone, no page involved); CPU of the last round, plain: ${plainCpu}; E2E: ${e2eCpu}; ${common}`,
      }),
      figure({
        name: 'download.e2e_vs_page_fetch',
        value: round2(sizeMiB / e2eSeconds),
        unit: 'MiB/s (plaintext)',
        baseline: round2(file.size / MiB / fetchSeconds),
        target: 0.9,
        note: `the same E2E download / the page reading the same ciphertext to the end with fetch() (the bytes pass through the renderer, are not written anywhere); ${common}`,
      }),
      figure({
        name: 'download.e2e.heap_growth',
        value: growthMiB,
        unit: 'MiB',
        baseline: 100,
        ratio: growthMiB === 0 ? 100 : 100 / growthMiB,
        target: 100,
        targetOn: 'value',
        direction: 'max',
        note: `page JS heap peak above its post-GC level while downloading (CDP Runtime.getHeapUsage every 250 ms); crypto Worker and service worker heaps not included; ${common}`,
      }),
      figure({
        name: 'download.e2e.browser_memory_growth',
        value: rssGrowthMiB,
        unit: 'MiB',
        baseline: fetchRssGrowthMiB,
        ratio: rssGrowthMiB <= 0 ? 100 : fetchRssGrowthMiB / rssGrowthMiB,
        target: 100,
        targetOn: 'value',
        direction: 'max',
        note: `summed RSS of every Chromium process (browser, renderers incl. crypto Worker and service worker, network, GPU; /proc every 250 ms), peak above the level before the click; per round ${rssGrowths.map((g) => `${round2(g / MiB)}`).join(', ')} MiB (the first includes starting the service worker: Chromium runs it in its spare renderer process and launches a new spare one — process start-up, not bytes held; web/README "Downloads"); baseline: the same figure while the page reads the ciphertext with a plain fetch() (every chunk a fresh buffer the renderer collects late); target on the value (< 100 MiB); ${common}`,
      }),
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
