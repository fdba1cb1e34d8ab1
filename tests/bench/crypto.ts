// `npm run bench -- crypto`: the crypto figures of issue 4 §5, measured in Chromium (Playwright) with
// the same shared/crypto code the web client bundles. Run alone: npx tsx tests/bench/crypto.ts
import { chromium, type Page } from '@playwright/test';
import { pathToFileURL } from 'node:url';
import { chromiumLaunch } from '../../playwright.config';
import { startCryptoHarness } from '../browser/crypto-harness/serve';
import type { CryptoHarness } from '../browser/crypto-harness/page-entry';
import { cpuSecondsByRole } from './proc';
import { figure, type Figure } from './report';

const MiB = 1024 * 1024;

export interface CryptoBenchOptions {
  /** Bytes for the throughput figures (issue 4: 256 MiB). */
  throughputMiB?: number;
  /** Bytes streamed through encrypt → decrypt for the heap figure (issue 4: 1 GiB). */
  heapMiB?: number;
}

function call<K extends keyof CryptoHarness>(page: Page, name: K, ...args: Parameters<CryptoHarness[K]>) {
  return page.evaluate(
    ([method, methodArgs]) => {
      const h = (window as unknown as { kuvertCryptoHarness: Record<string, (...a: unknown[]) => unknown> }).kuvertCryptoHarness;
      return h[method as string]?.(...(methodArgs as unknown[]));
    },
    [name, args] as const,
  ) as Promise<Awaited<ReturnType<CryptoHarness[K]>>>;
}

/** Runs the crypto figures; every baseline is measured in the same run and the same browser. */
export async function runCryptoBench(options: CryptoBenchOptions = {}): Promise<Figure[]> {
  const throughputMiB = options.throughputMiB ?? 256;
  const heapMiB = options.heapMiB ?? 1024;
  const server = await startCryptoHarness();
  const browser = await chromium.launch({ ...chromiumLaunch, args: [...chromiumLaunch.args, '--enable-precise-memory-info'] });
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => 'kuvertCryptoHarness' in window);
    const figures: Figure[] = [];

    const speed = await call(page, 'throughput', throughputMiB, 5);
    figures.push(
      figure({
        name: 'crypto.stream.encrypt.throughput',
        value: round(speed.encryptMiBps),
        unit: 'MiB/s',
        baseline: round(speed.rawMiBps),
        target: 0.9,
        note: `${throughputMiB} MiB through createEncryptStream vs raw crypto.subtle.encrypt over 512 KiB chunks of the same bytes (best of 5, interleaved)`,
      }),
      figure({
        name: 'crypto.stream.decrypt.throughput',
        value: round(speed.decryptMiBps),
        unit: 'MiB/s',
        // Against raw decrypt calls on the same records (issue 35 §5): until 2026-11-29 this was the raw
        // *encrypt* baseline over one cache-warm 512 KiB buffer, which measured decrypt vs encrypt and
        // cold vs warm memory rather than the decoder. That ratio stays in the note.
        baseline: round(speed.rawDecryptMiBps),
        target: 0.9,
        note: `${throughputMiB} MiB through createDecryptStream (with plaintextLength) vs raw crypto.subtle.decrypt of the same records one after another (best of 5, interleaved); vs the raw encrypt baseline: ${round(speed.decryptMiBps / speed.rawMiBps)}`,
      }),
    );

    // Issue 35 §1: what checking a data room file's content costs the browser while decrypting — the
    // format-1 whole-plaintext SHA-256 (hash-wasm, streaming) against the format-2 commitment (one
    // WebCrypto SHA-256 per record): browser CPU-seconds per GiB above an unchecked decrypt.
    await call(page, 'prepareContentCheck', throughputMiB);
    const browserCpu = () => [...cpuSecondsByRole()].filter(([role]) => role !== 'server').reduce((sum, [, seconds]) => sum + seconds, 0);
    // Each round decrypts unchecked, then with each check; a round's cost is its difference to its own
    // unchecked run (load from other processes hits neighbours alike), the figure the median over rounds.
    const extra = { sha256: [] as number[], commitment: [] as number[] };
    let unchecked = 0;
    for (let r = 0; r < 5; r++) {
      const spent: Record<'none' | 'sha256' | 'commitment', number> = { none: 0, sha256: 0, commitment: 0 };
      for (const check of ['none', 'sha256', 'commitment'] as const) {
        const before = browserCpu();
        await call(page, 'decryptChecked', check);
        spent[check] = browserCpu() - before;
      }
      unchecked = spent.none;
      extra.sha256.push(spent.sha256 - spent.none);
      extra.commitment.push(spent.commitment - spent.none);
    }
    const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const perGiB = (values: number[]) => medianOf(values) * (1024 / throughputMiB);
    figures.push(
      figure({
        name: 'crypto.room.content-check.cpu-per-GiB',
        value: round(perGiB(extra.commitment)),
        unit: 'CPU-s/GiB',
        baseline: round(perGiB(extra.sha256)),
        ratio: perGiB(extra.sha256) / Math.max(perGiB(extra.commitment), 0.01),
        target: 1,
        note: `browser CPU (all Chromium processes, /proc) of decrypting ${throughputMiB} MiB with the content commitment (format 2) minus an unchecked decrypt, per GiB; baseline: the same with the whole-plaintext SHA-256 (format 1, hash-wasm); unchecked decrypt ${round(unchecked)} CPU-s (last round); median of 5 rounds, each check minus its round's unchecked run; ratio = format 1 / format 2 cost`,
      }),
    );

    const unlock = await call(page, 'unlockTime', 3);
    figures.push(
      figure({
        name: 'crypto.secupass.unlock.argon2id',
        value: round(unlock.medianMs),
        unit: 'ms',
        baseline: 1000,
        ratio: 1000 / unlock.medianMs,
        target: 1000,
        targetOn: 'value',
        direction: 'max',
        note: `Argon2id m=64 MiB t=3 p=1 (hash-wasm) + HKDF, median of ${unlock.allMs.map((ms) => Math.round(ms)).join('/')} ms; baseline = the 1 s budget`,
      }),
    );

    // Heap: CDP samples from outside while the page streams, plus performance.memory inside.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    // backingStorageSize = ArrayBuffer memory outside the JS heap (our records live there).
    const usage = async () => (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number };
    const withBuffers = (sample: { usedSize: number; backingStorageSize?: number }) => sample.usedSize + (sample.backingStorageSize ?? 0);
    const before = await usage();
    let peakUsed = before.usedSize;
    let peakWithBuffers = withBuffers(before);
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const sample = await usage();
        peakUsed = Math.max(peakUsed, sample.usedSize);
        peakWithBuffers = Math.max(peakWithBuffers, withBuffers(sample));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const streamed = await call(page, 'streamGiB', heapMiB);
    sampling = false;
    await sampler;
    const growthMiB = Math.max(peakUsed - before.usedSize, streamed.heapPeak - streamed.heapBefore) / MiB;
    // Not the figure (issue 4 asks for the JS heap) but reported beside it: record buffers live outside
    // the JS heap, and their peak mostly shows how lazily the GC collects spent 512 KiB buffers.
    const growthWithBuffersMiB = (peakWithBuffers - withBuffers(before)) / MiB;
    figures.push(
      figure({
        name: 'crypto.stream.heap-growth',
        value: round(growthMiB),
        unit: 'MiB',
        baseline: round(before.usedSize / MiB),
        ratio: 64 / Math.max(growthMiB, 0.001),
        target: 64,
        targetOn: 'value',
        direction: 'max',
        note: `peak JS heap growth while ${heapMiB} MiB stream through encrypt → decrypt (${round(heapMiB / (streamed.ms / 1000))} MiB/s end to end); baseline = heap before (MiB); peak growth including ArrayBuffer backing stores: ${round(growthWithBuffersMiB)} MiB`,
      }),
    );
    if (streamed.bytes !== heapMiB * MiB) throw new Error('The heap run lost bytes');
    return figures;
  } finally {
    await browser.close();
    await server.close();
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const small = process.argv.includes('--quick');
  const figures = await runCryptoBench(small ? { throughputMiB: 8, heapMiB: 32 } : {});
  console.log(JSON.stringify({ figures }, null, 2));
}
