// `npx tsx tests/bench/upload-copies.ts [MiB]` (default 256): what each step of an E2E upload part
// costs Chromium, in CPU-seconds per GiB of plaintext (issue 35 §3; shared/transfer/README "Copies on
// an E2E upload"). Each step runs alone, in a dedicated Worker as the crypto Worker does (or in the page
// for the PUTs), over the upload's layout — 512 KiB records, parts of 8 records —, and is clocked by
// the CPU of every Chromium process (browser-cpu.ts: renderer, network, utility; the browser process
// beside it). The last two steps check the PUT body: the same part bytes sent as a Blob and as the
// bytes themselves to a loopback sink. The page runs every step by itself and tells this script where
// each begins and ends, so it runs twice: in a bare Chromium (no DevTools client: a user's browser)
// and under Playwright (DevTools' Network domain on, as in every test and bench). Not a bench group:
// it judges nothing, it explains the upload figures.
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunch } from '../../playwright.config';
import { measureBrowserCpu, type BrowserCpu } from './browser-cpu';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** The Worker: each message runs one step over `mib` MiB of plaintext and answers its wall time. */
const WORKER_SOURCE = `
const MiB = 1024 * 1024, RECORD = 512 * 1024, TAG = 16, RECORDS_PER_PART = 8, PART = RECORDS_PER_PART * (RECORD + TAG);
let file, key, plain, sealed, part;
const iv = new Uint8Array(12), aad = new Uint8Array(32);
const steps = {
  async setup(mib) {
    const block = new Uint8Array(64 * MiB);
    for (let i = 0; i < block.length; i += 65536) crypto.getRandomValues(block.subarray(i, i + 65536));
    file = new Blob(Array.from({ length: Math.ceil(mib / 64) }, () => block));
    key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    plain = new Uint8Array(RECORDS_PER_PART * RECORD);
    crypto.getRandomValues(plain.subarray(0, 65536));
    sealed = [];
    for (let r = 0; r < RECORDS_PER_PART; r++) sealed.push(new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, plain.subarray(r * RECORD, (r + 1) * RECORD))));
    part = new Uint8Array(PART);
  },
  // 1: the records' plaintext read from the File, one read per part.
  async read(mib) {
    for (let at = 0; at < mib * MiB; at += RECORDS_PER_PART * RECORD) await file.slice(at, at + RECORDS_PER_PART * RECORD).arrayBuffer();
  },
  // 2: one SHA-256 per record (the content commitment; rooms only).
  async recordHash(mib) {
    for (let at = 0; at < mib * MiB; at += RECORDS_PER_PART * RECORD) {
      await Promise.all(Array.from({ length: RECORDS_PER_PART }, (_, r) => crypto.subtle.digest('SHA-256', plain.subarray(r * RECORD, (r + 1) * RECORD))));
    }
  },
  // 3: AES-GCM per record (input copied in, a fresh output buffer).
  async encrypt(mib) {
    for (let at = 0; at < mib * MiB; at += RECORDS_PER_PART * RECORD) {
      await Promise.all(Array.from({ length: RECORDS_PER_PART }, (_, r) => crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, plain.subarray(r * RECORD, (r + 1) * RECORD))));
    }
  },
  // 4: each record's ciphertext into the (reused) part buffer.
  async assemble(mib) {
    for (let at = 0; at < mib * MiB; at += RECORDS_PER_PART * RECORD) {
      for (let r = 0; r < RECORDS_PER_PART; r++) part.set(sealed[r], r * (RECORD + TAG));
      await null;
    }
  },
  // 5: the part's SHA-256 (x-content-sha256), one WebCrypto call.
  async partHash(mib) {
    for (let at = 0; at < mib * MiB; at += RECORDS_PER_PART * RECORD) await crypto.subtle.digest('SHA-256', part);
  },
  // 6: the part into a Blob (what the Worker hands the page).
  async blob(mib) {
    let blobs = [];
    for (let at = 0; at < mib * MiB; at += RECORDS_PER_PART * RECORD) {
      blobs.push(new Blob([part]));
      if (blobs.length === 16) { blobs = []; await null; }
    }
    // The browser process takes the bytes over after the constructor returned: let it finish inside the clock.
    await new Promise((resolve) => setTimeout(resolve, 1000));
  },
  // 6b: the alternative to 4 + 6 — a Blob made of the record outputs themselves (no part buffer);
  // the part hash (5) would then need the bytes contiguous anyway (WebCrypto's digest is one-shot).
  async blobRecords(mib) {
    let blobs = [];
    for (let at = 0; at < mib * MiB; at += RECORDS_PER_PART * RECORD) {
      blobs.push(new Blob(sealed));
      if (blobs.length === 16) { blobs = []; await null; }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  },
};
onmessage = async (event) => {
  const started = performance.now();
  try {
    await steps[event.data.step](event.data.mib);
    postMessage({ ok: true, ms: performance.now() - started });
  } catch (error) {
    postMessage({ ok: false, error: String(error) });
  }
};
`;


const STEPS = ['read', 'recordHash', 'encrypt', 'assemble', 'partHash', 'blob', 'blobRecords'] as const;

/** The page: sets the Worker up, runs each step (the PUTs from the page itself), brackets each with /begin and /end. */
const PAGE_SOURCE = (mib: number) => `<!doctype html><title>copies</title><script>
(async () => {
  const mark = (what, step, ms) => fetch('/' + what + '?step=' + encodeURIComponent(step) + (ms === undefined ? '' : '&ms=' + ms), { method: 'POST' });
  try {
    const worker = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(WORKER_SOURCE)}], { type: 'text/javascript' })));
    const run = (step) => new Promise((resolve, reject) => {
      worker.onmessage = (event) => (event.data.ok ? resolve(event.data.ms) : reject(new Error(event.data.error)));
      worker.postMessage({ step, mib: ${mib} });
    });
    await run('setup');
    for (const step of ${JSON.stringify(STEPS)}) {
      await mark('begin', step);
      await mark('end', step, await run(step));
    }
    const part = new Uint8Array(8 * (512 * 1024 + 16));
    crypto.getRandomValues(part.subarray(0, 65536));
    for (const kind of ['blob', 'bytes']) {
      const step = 'PUT ' + kind + ' body';
      await mark('begin', step);
      const started = performance.now();
      for (let at = 0; at < ${mib} * 1024 * 1024; at += 8 * 512 * 1024) {
        const response = await fetch('/put', { method: 'PUT', body: kind === 'blob' ? new Blob([part]) : part });
        await response.text();
      }
      await mark('end', step, performance.now() - started);
    }
    await mark('done', '');
  } catch (error) {
    await mark('failed', String(error));
  }
})();
</script>`;

interface Row {
  step: string;
  cpu: BrowserCpu;
  ms: number;
}

/** Serves the page and the PUT sink; `run(open)` opens the page in a browser and resolves with each step's CPU once the page is done. */
async function measure(mib: number, open: (url: string) => Promise<() => Promise<void>>): Promise<Row[]> {
  const rows: Row[] = [];
  let current: { step: string; end: (ms: number) => void; measured: Promise<{ result: number; cpu: BrowserCpu }> } | null = null;
  let finish!: (error?: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = (error) => (error ? reject(error) : resolve());
  });
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const step = url.searchParams.get('step') ?? '';
    request.resume();
    request.on('end', () => {
      const ok = () => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (url.pathname === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE_SOURCE(mib));
      if (url.pathname === '/begin') {
        let end!: (ms: number) => void;
        const ended = new Promise<number>((resolve) => (end = resolve));
        current = { step, end, measured: measureBrowserCpu(() => ended) };
        return ok();
      }
      if (url.pathname === '/end' && current) {
        const { measured, end } = current;
        current = null;
        end(Number(url.searchParams.get('ms')));
        void measured.then(({ result, cpu }) => {
          rows.push({ step, cpu, ms: result });
          ok();
        });
        return;
      }
      if (url.pathname === '/done') finish();
      if (url.pathname === '/failed') finish(new Error(step));
      return ok();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = await open(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  try {
    await finished;
  } finally {
    await close();
    server.close();
  }
  return rows;
}

async function bare(url: string): Promise<() => Promise<void>> {
  const profile = await mkdtemp(join(tmpdir(), 'kuvert-copies-'));
  const child = spawn(chromiumLaunch.executablePath, [...chromiumLaunch.args, `--user-data-dir=${profile}`, url], { stdio: 'ignore' });
  return async () => {
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(profile, { recursive: true, force: true });
  };
}

async function playwright(url: string): Promise<() => Promise<void>> {
  const browser = await chromium.launch(chromiumLaunch);
  const page = await browser.newPage();
  await page.goto(url);
  return () => browser.close();
}

function print(title: string, mib: number, rows: Row[]): void {
  const perGiB = (seconds: number) => ((seconds * GiB) / (mib * MiB)).toFixed(2);
  console.log(`\n${title}: ${mib} MiB of plaintext, 512 KiB records, 8 records per part; CPU-seconds per GiB (counted = renderer + network + utility + other; the browser process apart)`);
  console.log('| step | counted | renderer | network | browser process | wall s/GiB |');
  console.log('|---|---|---|---|---|---|');
  for (const { step, cpu, ms } of rows) {
    console.log(`| ${step} | ${perGiB(cpu.counted)} | ${perGiB(cpu.byKind.renderer)} | ${perGiB(cpu.byKind.network)} | ${perGiB(cpu.byKind.browser)} | ${perGiB(ms / 1000)} |`);
  }
}

async function main(): Promise<void> {
  const mib = Number(process.argv[2]) || 256;
  print('Chromium without a DevTools client', mib, await measure(mib, bare));
  print('Chromium under Playwright', mib, await measure(mib, playwright));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
