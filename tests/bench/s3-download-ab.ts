// `npx tsx tests/bench/s3-download-ab.ts` (issue 35 §5): variants of the S3 download path taking
// turns inside one process, s3rver in its own, so a change of load on the shared machine weighs on
// every variant alike. One file of KUVERT_BENCH_AB_MIB (default 64) in upload parts of the default
// size is stored once; then KUVERT_BENCH_AB_ROUNDS rounds (default 20) each read it back with every
// variant, the order flipping each round, into 4 cycled 256 KiB buffers as the pooled download body
// does. Printed: per variant the median MiB/s, CPU seconds (this process, s3rver) and the median of
// its per-round ratio to `raw2` (measured in the same round); for the queue variants the chunk sizes
// the SDK's body stream delivered and how often and how long a read waited for one.
// KUVERT_BENCH_AB_ONLY=product,raw2 picks variants. Many short rounds with paired ratios tell
// variants apart where one 256 MiB run of each could not (server/README "Storage").
import { createHash, randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DEFAULT_UPLOAD_PART_SIZE } from '@server/config';
import type { BlobRangeReader, BlobStore, ByteRange } from '@server/storage/blob-store';
import { createS3BlobStore } from '@server/storage/s3-blob-store';
import { queuedRangeReader } from '@server/storage/s3-streams';
import { partsRangeReader } from '@server/uploads/bytes';
import { partCountOf } from '@shared/contract/deliveries';
import { startS3Process } from '../multi-server/cluster';
import { cpuSecondsOf } from './proc';
import { drainRangeReader, median } from './s3-store';

const MiB = 1024 * 1024;
const sizeMiB = Number(process.env.KUVERT_BENCH_AB_MIB) || 64;
const rounds = Number(process.env.KUVERT_BENCH_AB_ROUNDS) || 20;
const size = sizeMiB * MiB;
const layout = { size, partSize: DEFAULT_UPLOAD_PART_SIZE, partCount: partCountOf(size, DEFAULT_UPLOAD_PART_SIZE), leadingBytes: 0 };
const keyOf = (i: number) => `ab/${i}`;

/** What the SDK's body streams delivered and how the reads waited, per variant run. */
const seen = { chunks: 0, bytes: 0, sizes: new Map<number, number>(), waits: 0, waitMs: 0 };

const s3 = await startS3Process();
const access = { endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } };
const store = createS3BlobStore({ endpoint: s3.endpoint, bucket: s3.bucket, region: access.region, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
// The store's transport settings (s3-blob-store.ts), for the queue variants.
const client = new S3Client({
  ...access,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
  requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000, httpAgent: { keepAlive: true, maxSockets: 1024 } },
  expectContinueHeader: false,
});
// The scale bench's raw client (s3PathAgainstRawClient).
const rawClient = new S3Client({ ...access, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED', requestHandler: { httpAgent: new Agent({ keepAlive: true }) }, expectContinueHeader: false });

/** The product's range reader with another queue size, its chunks and waits counted. */
async function observedRange(key: string, range: ByteRange, queueBytes: number): Promise<BlobRangeReader> {
  const body = (await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key, Range: `bytes=${range.start}-${range.end}` }))).Body as Readable;
  body.on('data', (chunk: Buffer) => {
    seen.chunks++;
    seen.bytes += chunk.byteLength;
    const bucket = 2 ** Math.ceil(Math.log2(chunk.byteLength));
    seen.sizes.set(bucket, (seen.sizes.get(bucket) ?? 0) + 1);
  });
  const reader = queuedRangeReader(body, key, queueBytes);
  let queued = 0;
  body.on('data', (chunk: Buffer) => (queued += chunk.byteLength));
  return {
    async read(target) {
      const waiting = queued === 0 ? performance.now() : null;
      const read = await reader.read(target);
      queued = Math.max(0, queued - read);
      if (waiting !== null) {
        seen.waits++;
        seen.waitMs += performance.now() - waiting;
      }
      return read;
    },
    close: () => reader.close(),
  };
}

const drain = (reader: BlobRangeReader) => drainRangeReader(reader, size);

const withQueue = (queueBytes: number) => () =>
  drain(partsRangeReader({ openRange: (key: string, range: ByteRange) => observedRange(key, range, queueBytes) } as Pick<BlobStore, 'openRange'> as BlobStore, layout, keyOf, 0, size - 1)!);

/** Bare GetObject of whole parts, `inFlight` at a time, bodies counted and dropped. */
const raw = (inFlight: number) => async () => {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = next++; i < layout.partCount; i = next++) {
        const body = (await rawClient.send(new GetObjectCommand({ Bucket: s3.bucket, Key: keyOf(i) }))).Body as Readable;
        for await (const chunk of body) void chunk;
      }
    }),
  );
};

const variants: Record<string, () => Promise<void>> = {
  /** What the servers run: the store's openRange through partsRangeReader (one part read ahead). */
  product: () => drain(partsRangeReader(store, layout, keyOf, 0, size - 1)!),
  q128k: withQueue(128 * 1024),
  q1m: withQueue(MiB),
  /** The part read ahead may queue all of itself: two GETs stream at once, as the raw client's. */
  qpart: withQueue(DEFAULT_UPLOAD_PART_SIZE + MiB),
  raw2: raw(2),
  raw1: raw(1),
};

try {
  const part = randomBytes(layout.partSize);
  for (let i = 0; i < layout.partCount; i++) {
    const bytes = part.subarray(0, Math.min(layout.partSize, size - i * layout.partSize));
    await store.put(keyOf(i), Readable.from([bytes]), { expectedSize: bytes.byteLength, expectedSha256: createHash('sha256').update(bytes).digest('hex') });
  }
  const only = process.env.KUVERT_BENCH_AB_ONLY?.split(',');
  const names = Object.keys(variants).filter((name) => !only || only.includes(name));
  const results = new Map(names.map((name) => [name, [] as { mibs: number; cpu: number; s3Cpu: number }[]]));
  console.log(`s3-download-ab: ${sizeMiB} MiB in ${layout.partCount} parts, ${rounds} rounds, load ${loadavg()[0]!.toFixed(1)}`);
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      Object.assign(seen, { chunks: 0, bytes: 0, sizes: new Map(), waits: 0, waitMs: 0 });
      const own = process.cpuUsage();
      const s3Before = cpuSecondsOf(s3.pid);
      const started = performance.now();
      await variants[name]!();
      const mibs = sizeMiB / ((performance.now() - started) / 1000);
      const used = process.cpuUsage(own);
      results.get(name)!.push({ mibs, cpu: (used.user + used.system) / 1e6, s3Cpu: cpuSecondsOf(s3.pid) - s3Before });
      const sizes = [...seen.sizes].sort((a, b) => a[0] - b[0]).map(([bytes, count]) => `≤${bytes / 1024}K:${count}`).join(' ');
      const queue = seen.chunks ? `; ${seen.chunks} chunks (${sizes}), ${seen.waits} reads waited ${seen.waitMs.toFixed(0)} ms` : '';
      console.log(`  r${round} ${name.padEnd(8)} ${mibs.toFixed(1).padStart(7)} MiB/s${queue}`);
    }
  }
  const base = results.get('raw2');
  console.log(`s3-download-ab: medians (load now ${loadavg()[0]!.toFixed(1)})`);
  for (const [name, runs] of results) {
    const paired = base ? `, / raw2 in the same round ${median(runs.map((r, i) => r.mibs / base[i]!.mibs)).toFixed(2)}` : '';
    console.log(`  ${name.padEnd(8)} ${median(runs.map((r) => r.mibs)).toFixed(1).padStart(7)} MiB/s, CPU s ${median(runs.map((r) => r.cpu)).toFixed(3)}, s3rver ${median(runs.map((r) => r.s3Cpu)).toFixed(3)}${paired}`);
  }
  await store.deletePrefix('ab');
} finally {
  store.close();
  client.destroy();
  rawClient.destroy();
  await s3.close();
}
