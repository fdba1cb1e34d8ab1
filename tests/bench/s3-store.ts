// `npm run bench -- s3-store` (issue 18): the blob stores alone, no Kuvert server, no balancer, so a
// change to server/storage/s3-blob-store.ts or server/uploads/bytes.ts can be measured in seconds
// (the `scale` group takes minutes). One file of KUVERT_BENCH_S3_STORE_MIB (default 256, 8 with
// --quick) in upload parts of the default size, KUVERT_BENCH_S3_STORE_ROUNDS rounds (default 3, 2
// with --quick), after one warm-up part each way; the raw calls and the stores take turns going
// first, and every figure is a median of the rounds (the judged ratio: the median of the rounds' ratios):
//   - upload: the parts put with 3 in flight (as the upload engine sends them), each body in 64 KiB
//     chunks like a request stream, checked against size and SHA-256; S3 store / local store.
//   - download: the parts read back in order into 4 cycled 256 KiB buffers (as the pooled download
//     body reads them, server/storage/pooled-body.ts); S3 store / local store.
//   - S3 store / raw s3rver: the same bytes PUT to and fetched from the S3 test server with plain
//     HTTP requests (no SDK, no hash): how much our code costs on top of the server.
//   - raw s3rver / raw folder: those plain requests against plain file calls: what the machine
//     allows at all, with s3rver on the same cores (`rawCeiling`, also used by the scale group).
// s3rver runs in its own process (tests/multi-server/s3-process.ts), as in the scale bench; the
// CPU seconds of both processes are printed per phase, to see who pays for the bytes. Only the
// "S3 store / raw s3rver" ratio is judged (issue 35 §5); the others are printed in its note. Its
// baseline is plain HTTP, so it includes the SDK's per-request work and our SHA-256; the scale
// group's "Kuvert's S3 path / raw S3 client calls" (s3PathAgainstRawClient) compares with bare SDK
// calls and so shows our code alone.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { request, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DEFAULT_UPLOAD_PART_SIZE } from '@server/config';
import type { BlobRangeReader, BlobStore } from '@server/storage/blob-store';
import { createLocalBlobStore } from '@server/storage/local-blob-store';
import { createS3BlobStore } from '@server/storage/s3-blob-store';
import { partsRangeReader } from '@server/uploads/bytes';
import { partCountOf } from '@shared/contract/deliveries';
import { startS3Process } from '../multi-server/cluster';
import { cpuSecondsOf } from './proc';
import { figure, type Figure } from './report';

const MiB = 1024 * 1024;
const round2 = (n: number) => Math.round(n * 100) / 100;
const CHUNK = 64 * 1024;
const PARTS_IN_FLIGHT = 3;

type S3Process = Awaited<ReturnType<typeof startS3Process>>;

/** Runs `work`, returns its seconds and the CPU seconds this process and s3rver spent meanwhile. */
async function timed(s3: S3Process, work: () => Promise<void>): Promise<{ seconds: number; ownCpu: number; s3Cpu: number }> {
  const own = process.cpuUsage();
  const s3Before = cpuSecondsOf(s3.pid);
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(own);
  return { seconds, ownCpu: (used.user + used.system) / 1e6, s3Cpu: cpuSecondsOf(s3.pid) - s3Before };
}

interface Parts {
  count: number;
  sizeOf(index: number): number;
  bytesOf(index: number): Buffer;
  sha256Of(index: number): string;
}

/** `sizeMiB` of bytes in upload parts: one random part repeated, the last one shorter. */
function makeParts(sizeMiB: number): Parts & { size: number; partSize: number } {
  const size = sizeMiB * MiB;
  const partSize = DEFAULT_UPLOAD_PART_SIZE;
  const count = partCountOf(size, partSize);
  const full = randomBytes(partSize);
  const last = full.subarray(0, size - (count - 1) * partSize);
  const hashes = new Map<number, string>();
  const bytesOf = (i: number) => (i === count - 1 ? last : full);
  return {
    size,
    partSize,
    count,
    sizeOf: (i) => bytesOf(i).byteLength,
    bytesOf,
    sha256Of(i) {
      const key = i === count - 1 ? 1 : 0;
      if (!hashes.has(key)) hashes.set(key, createHash('sha256').update(bytesOf(i)).digest('hex'));
      return hashes.get(key)!;
    },
  };
}

/** A part body arriving in 64 KiB chunks, like a request stream. */
const bodyOf = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.byteLength; at += CHUNK) yield bytes.subarray(at, at + CHUNK);
    })(),
    { objectMode: false },
  );

async function putAll(store: BlobStore, prefix: string, parts: Parts): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < parts.count; i = next++) {
      await store.put(`${prefix}/${i}`, bodyOf(parts.bytesOf(i)), { expectedSize: parts.sizeOf(i), expectedSha256: parts.sha256Of(i) });
    }
  };
  await Promise.all(Array.from({ length: PARTS_IN_FLIGHT }, worker));
}

async function readAll(store: BlobStore, prefix: string, parts: Parts & { size: number; partSize: number }): Promise<void> {
  await drainRangeReader(partsRangeReader(store, { size: parts.size, partSize: parts.partSize, partCount: parts.count, leadingBytes: 0 }, (i) => `${prefix}/${i}`, 0, parts.size - 1)!, parts.size);
}

/** Reads `reader` to its end into four reused 256 KiB buffers (as the pooled download body does), then closes it; it must give `size` bytes. */
export async function drainRangeReader(reader: BlobRangeReader, size: number): Promise<void> {
  const buffers = Array.from({ length: 4 }, () => Buffer.allocUnsafeSlow(256 * 1024));
  let total = 0;
  try {
    for (let turn = 0; ; turn = (turn + 1) % buffers.length) {
      const read = await reader.read(buffers[turn]!);
      if (read === 0) break;
      total += read;
    }
  } finally {
    await reader.close();
  }
  if (total !== size) throw new Error(`read ${total} of ${size} bytes`);
}

/** `work(i)` for every part, `inFlight` parts at a time. */
async function eachPart(count: number, inFlight: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    for (let i = next++; i < count; i = next++) await work(i);
  }));
}

/** One plain HTTP request to s3rver (anonymous: it serves them), no SDK; the response body is counted and dropped. */
function rawRequest(agent: Agent, url: string, method: 'GET' | 'PUT', body: Buffer | null): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = request(url, { agent, method, headers: body ? { 'content-length': body.byteLength } : {} }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
      response.on('end', () => (response.statusCode === 200 ? resolve(bytes) : reject(new Error(`raw ${method}: HTTP ${response.statusCode}`))));
      response.on('error', reject);
    }).on('error', reject);
    if (body) for (let at = 0; at < body.byteLength; at += CHUNK) req.write(body.subarray(at, at + CHUNK));
    req.end();
  });
}

/**
 * The machine's ceiling without any Kuvert code: the parts written to and read from a folder with
 * plain file calls (no hash, no fsync), and PUT to / fetched from the S3 test server with plain HTTP
 * requests (no SDK, no hash); MiB/s each way. Uploads 3 parts at a time as the engine does,
 * downloads 2 at a time (a part and the one read ahead, as server/uploads/bytes.ts does).
 */
export async function rawCeiling(s3: { endpoint: string; bucket: string }, sizeMiB: number): Promise<{ fs: { up: number; down: number }; s3: { up: number; down: number } }> {
  const parts = makeParts(sizeMiB);
  const folder = await mkdtemp(join(tmpdir(), 'kuvert-bench-raw-'));
  const agent = new Agent({ keepAlive: true, maxSockets: PARTS_IN_FLIGHT });
  const prefix = `raw-${randomBytes(4).toString('hex')}`;
  const rate = async (work: () => Promise<void>) => {
    const started = performance.now();
    await work();
    return sizeMiB / ((performance.now() - started) / 1000);
  };
  try {
    const fsUp = await rate(() =>
      eachPart(parts.count, PARTS_IN_FLIGHT, async (i) => {
        const handle = await open(join(folder, String(i)), 'w');
        try {
          const bytes = parts.bytesOf(i);
          for (let at = 0; at < bytes.byteLength; at += CHUNK) await handle.write(bytes.subarray(at, at + CHUNK));
        } finally {
          await handle.close();
        }
      }),
    );
    const s3Up = await rate(() => eachPart(parts.count, PARTS_IN_FLIGHT, async (i) => void (await rawRequest(agent, `${s3.endpoint}/${s3.bucket}/${prefix}/${i}`, 'PUT', parts.bytesOf(i)))));
    const fsDown = await rate(() =>
      eachPart(parts.count, 2, async (i) => {
        const buffer = Buffer.allocUnsafeSlow(256 * 1024);
        const handle = await open(join(folder, String(i)), 'r');
        try {
          while ((await handle.read(buffer, 0, buffer.byteLength)).bytesRead > 0);
        } finally {
          await handle.close();
        }
      }),
    );
    const s3Down = await rate(() =>
      eachPart(parts.count, 2, async (i) => {
        const bytes = await rawRequest(agent, `${s3.endpoint}/${s3.bucket}/${prefix}/${i}`, 'GET', null);
        if (bytes !== parts.sizeOf(i)) throw new Error(`raw GET: ${bytes} of ${parts.sizeOf(i)} bytes`);
      }),
    );
    await eachPart(parts.count, PARTS_IN_FLIGHT, async (i) => {
      await new Promise<void>((resolve, reject) => request(`${s3.endpoint}/${s3.bucket}/${prefix}/${i}`, { agent, method: 'DELETE' }, (r) => r.resume().on('end', resolve)).on('error', reject).end());
    });
    return { fs: { up: fsUp, down: fsDown }, s3: { up: s3Up, down: s3Down } };
  } finally {
    agent.destroy();
    await rm(folder, { recursive: true, force: true });
  }
}

/** Harmonic mean of upload and download MiB/s (the scale bench's "upload + download"). */
export const harmonic = (t: { up: number; down: number }) => 2 / (1 / t.up + 1 / t.down);

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** MiB/s each way of several rounds, the medians, and the median of the per-round ratios `a / b` (upload + download). */
export interface PairedRates {
  a: { up: number; down: number };
  b: { up: number; down: number };
  /** Median over rounds of harmonic(a) / harmonic(b), both measured in the same round. */
  ratio: number;
  rounds: { a: { up: number; down: number }; b: { up: number; down: number } }[];
}

export function pairedRates(rounds: PairedRates['rounds']): PairedRates {
  const each = (side: 'a' | 'b', way: 'up' | 'down') => median(rounds.map((r) => r[side][way]));
  return {
    a: { up: each('a', 'up'), down: each('a', 'down') },
    b: { up: each('b', 'up'), down: each('b', 'down') },
    ratio: median(rounds.map((r) => harmonic(r.a) / harmonic(r.b))),
    rounds,
  };
}

/**
 * Kuvert's S3 path against raw S3 client calls to the same server (issue 35 §5, the scale group's
 * figure): the blob store every server runs (createS3BlobStore: each part streamed in 64 KiB chunks
 * with its size and SHA-256 checked, read back through partsRangeReader) against the same AWS SDK
 * client with the same transport settings (keep-alive, no 100-continue, no CRC trailers) doing bare
 * PutObject (the part as one buffer) and GetObject (body counted and dropped; two parts in flight),
 * same parts, same upload parallelism. Both talk to one s3rver, so its cost per byte is in both and
 * the ratio is our code's. Both ways first make one warm-up request pair (the SDK's first request
 * loads and resolves what later ones reuse); then each round measures both, the order flipping
 * every round, and the figure is the median of the rounds' ratios (the machine is shared: a round
 * that meets a burst of other work is an outlier, and "best of each way" compared outliers).
 */
export async function s3PathAgainstRawClient(s3: { endpoint: string; bucket: string }, sizeMiB: number, rounds: number): Promise<{ kuvert: { up: number; down: number }; raw: { up: number; down: number }; ratio: number; ratios: number[] }> {
  const parts = makeParts(sizeMiB);
  const access = { endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } };
  const store = createS3BlobStore({ endpoint: s3.endpoint, bucket: s3.bucket, region: access.region, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
  const client = new S3Client({
    ...access,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { httpAgent: new Agent({ keepAlive: true }) },
    expectContinueHeader: false,
  });
  const rate = async (work: () => Promise<void>) => {
    const started = performance.now();
    await work();
    return sizeMiB / ((performance.now() - started) / 1000);
  };
  const rawPut = (key: string, i: number) => client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: parts.bytesOf(i), ContentLength: parts.sizeOf(i) }));
  const rawGet = async (key: string, i: number) => {
    const body = (await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))).Body as Readable;
    let bytes = 0;
    for await (const chunk of body) bytes += (chunk as Buffer).byteLength;
    if (bytes !== parts.sizeOf(i)) throw new Error(`raw GetObject: ${bytes} of ${parts.sizeOf(i)} bytes`);
  };
  const rawUp = (prefix: string) => eachPart(parts.count, PARTS_IN_FLIGHT, async (i) => void (await rawPut(`${prefix}/${i}`, i)));
  const rawDown = (prefix: string) => eachPart(parts.count, 2, (i) => rawGet(`${prefix}/${i}`, i));
  const measured: PairedRates['rounds'] = [];
  try {
    const warm = `path-vs-raw/warm-${randomBytes(4).toString('hex')}`;
    await store.put(`${warm}/kuvert`, bodyOf(parts.bytesOf(0)), { expectedSize: parts.sizeOf(0), expectedSha256: parts.sha256Of(0) });
    const warmReader = (await store.openRange!(`${warm}/kuvert`, { start: 0, end: parts.sizeOf(0) - 1 }));
    while ((await warmReader.read(Buffer.allocUnsafe(256 * 1024))) > 0);
    await warmReader.close();
    await rawPut(`${warm}/raw`, 0);
    await rawGet(`${warm}/raw`, 0);
    await store.deletePrefix(warm);
    for (let round = 0; round < rounds; round++) {
      const prefix = `path-vs-raw/r${round}-${randomBytes(4).toString('hex')}`;
      const result = { kuvert: { up: 0, down: 0 }, raw: { up: 0, down: 0 } };
      const ways = [
        { name: 'kuvert' as const, up: () => putAll(store, `${prefix}/kuvert`, parts), down: () => readAll(store, `${prefix}/kuvert`, parts) },
        { name: 'raw' as const, up: () => rawUp(`${prefix}/raw`), down: () => rawDown(`${prefix}/raw`) },
      ];
      if (round % 2 === 1) ways.reverse();
      for (const way of ways) result[way.name].up = await rate(way.up);
      for (const way of ways) result[way.name].down = await rate(way.down);
      measured.push({ a: result.kuvert, b: result.raw });
      await store.deletePrefix(`${prefix}/kuvert`);
      await client.send(new DeleteObjectsCommand({ Bucket: s3.bucket, Delete: { Objects: Array.from({ length: parts.count }, (_, i) => ({ Key: `${prefix}/raw/${i}` })), Quiet: true } }));
    }
    const paired = pairedRates(measured);
    return { kuvert: paired.a, raw: paired.b, ratio: paired.ratio, ratios: measured.map((r) => harmonic(r.a) / harmonic(r.b)) };
  } finally {
    store.close();
    client.destroy();
  }
}

export async function benchS3Store(options: { quick?: boolean } = {}): Promise<Figure[]> {
  const sizeMiB = Number(process.env.KUVERT_BENCH_S3_STORE_MIB) || (options.quick ? 8 : 256);
  const rounds = options.quick ? 2 : Number(process.env.KUVERT_BENCH_S3_STORE_ROUNDS) || 3;
  const parts = makeParts(sizeMiB);
  const s3 = await startS3Process();
  const folder = await mkdtemp(join(tmpdir(), 'kuvert-bench-blobs-'));
  const local = createLocalBlobStore(folder);
  const remote = createS3BlobStore({ endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
  const measured: { localUp: number; localDown: number; s3Up: number; s3Down: number; raw: Awaited<ReturnType<typeof rawCeiling>> }[] = [];
  const rate = (t: { seconds: number }) => sizeMiB / t.seconds;
  const show = (what: string, t: { seconds: number; ownCpu: number; s3Cpu: number }) =>
    console.log(`   s3-store: ${what.padEnd(10)} ${rate(t).toFixed(1).padStart(7)} MiB/s  CPU s: bench ${t.ownCpu.toFixed(2)}, s3rver ${t.s3Cpu.toFixed(2)}`);
  try {
    console.log(`   s3-store: ${sizeMiB} MiB in ${parts.count} parts of ${parts.partSize} bytes, ${rounds} rounds`);
    // One part each way first: the SDK's first request loads and resolves what later ones reuse
    // (in a quick run of 2 parts that cold start alone halved the S3 store's figure).
    await putAll(remote, 'bench/warm', { ...parts, count: 1 });
    await readAll(remote, 'bench/warm', { ...parts, count: 1, size: parts.sizeOf(0) });
    await remote.deletePrefix('bench/warm');
    for (let round = 0; round < rounds; round++) {
      const prefix = `bench/r${round}`;
      // The raw calls and the stores take turns going first, so a change of load weighs on both.
      const rawFirst = round % 2 === 1 ? await rawCeiling(s3, sizeMiB) : null;
      const localUp = await timed(s3, () => putAll(local, prefix, parts));
      const s3Up = await timed(s3, () => putAll(remote, prefix, parts));
      const localDown = await timed(s3, () => readAll(local, prefix, parts));
      const s3Down = await timed(s3, () => readAll(remote, prefix, parts));
      for (const [what, t] of Object.entries({ localUp, s3Up, localDown, s3Down })) show(what, t);
      const raw = rawFirst ?? (await rawCeiling(s3, sizeMiB));
      console.log(`   s3-store: raw (no Kuvert code): fs up ${raw.fs.up.toFixed(1)}, down ${raw.fs.down.toFixed(1)}; s3rver up ${raw.s3.up.toFixed(1)}, down ${raw.s3.down.toFixed(1)} MiB/s`);
      measured.push({ localUp: rate(localUp), localDown: rate(localDown), s3Up: rate(s3Up), s3Down: rate(s3Down), raw });
      await local.deletePrefix(prefix);
      await remote.deletePrefix(prefix);
    }
  } finally {
    remote.close();
    await s3.close();
    await rm(folder, { recursive: true, force: true });
  }
  const mid = (pick: (m: (typeof measured)[number]) => number) => round2(median(measured.map(pick)));
  const storeVsRaw = pairedRates(measured.map((m) => ({ a: { up: m.s3Up, down: m.s3Down }, b: m.raw.s3 })));
  const note = `${sizeMiB} MiB, parts of ${parts.partSize} bytes, stores alone (no Kuvert server), s3rver in its own process, ${rounds} rounds (medians; the ratio is the median of the rounds' ratios: ${storeVsRaw.rounds.map((r) => (harmonic(r.a) / harmonic(r.b)).toFixed(2)).join(', ')})`;
  return [
    // Issue 35 §5: "S3 store / local store ≥ 0.7" measured the S3 test server, not our code (s3rver
    // does 0.1–0.3 of plain file calls here), so the judged figure is our S3 path against raw
    // S3 calls to the same server; the store-vs-folder numbers stay in the note for reading.
    // The baseline here is plain HTTP (no SDK, no SHA-256), so the figure includes what the SDK and
    // our integrity hash cost; the scale group's figure compares with bare SDK calls instead.
    figure({
      name: 's3-store: S3 store / raw s3rver (upload + download)',
      value: round2(harmonic(storeVsRaw.a)),
      unit: 'MiB/s',
      baseline: round2(harmonic(storeVsRaw.b)),
      ratio: storeVsRaw.ratio,
      target: 0.9,
      note: `${note}; raw: plain HTTP PUT/GET, no SDK, no hash; S3 store up ${round2(storeVsRaw.a.up)}, down ${round2(storeVsRaw.a.down)}; raw s3rver up ${round2(storeVsRaw.b.up)}, down ${round2(storeVsRaw.b.down)}; local store up ${mid((m) => m.localUp)}, down ${mid((m) => m.localDown)}; raw folder up ${mid((m) => m.raw.fs.up)}, down ${mid((m) => m.raw.fs.down)} MiB/s`,
    }),
  ];
}
