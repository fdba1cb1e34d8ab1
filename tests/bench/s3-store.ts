// `npm run bench -- s3-store` (issue 18): the blob stores alone, no Kuvert server, no balancer, so a
// change to server/storage/s3-blob-store.ts or server/uploads/bytes.ts can be measured in seconds
// (the `scale` group takes minutes). One file of KUVERT_BENCH_S3_STORE_MIB (default 256, 32 with
// --quick) in upload parts of the default size:
//   - upload: the parts put with 3 in flight (as the upload engine sends them), each body in 64 KiB
//     chunks like a request stream, checked against size and SHA-256; S3 store / local store.
//   - download: the parts read back in order into 4 cycled 256 KiB buffers (as the pooled download
//     body reads them, server/storage/pooled-body.ts); S3 store / local store.
//   - the machine's ceiling: the same object files read raw (fs) / fetched raw from the S3 test
//     server (plain HTTP GETs, no SDK, no store code), one part after the other.
// s3rver runs in its own process (tests/multi-server/s3-process.ts), as in the scale bench; the
// CPU seconds of both processes are printed per phase, to see who pays for the bytes.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { request, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { DEFAULT_UPLOAD_PART_SIZE } from '@server/config';
import type { BlobStore } from '@server/storage/blob-store';
import { createLocalBlobStore } from '@server/storage/local-blob-store';
import { createS3BlobStore } from '@server/storage/s3-blob-store';
import { partsRangeReader } from '@server/uploads/bytes';
import { partCountOf } from '@shared/contract/deliveries';
import { cpuSecondsOf } from './proc';
import { figure, type Figure } from './report';

const MiB = 1024 * 1024;
const round2 = (n: number) => Math.round(n * 100) / 100;
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHUNK = 64 * 1024;
const PARTS_IN_FLIGHT = 3;

interface S3Process {
  endpoint: string;
  bucket: string;
  directory: string;
  pid: number;
  close(): Promise<void>;
}

async function startS3(): Promise<S3Process> {
  const child = spawn(process.execPath, [...(process.env.S3_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/s3prof'] : []), '--import', 'tsx', 'tests/multi-server/s3-process.ts'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  const started = await new Promise<{ endpoint: string; bucket: string; directory: string }>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))) as { endpoint: string; bucket: string; directory: string });
    });
    void exited.then(() => reject(new Error(`the S3 test server exited: ${out}`)));
  });
  return {
    ...started,
    pid: child.pid!,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}


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
  const reader = partsRangeReader(store, { size: parts.size, partSize: parts.partSize, partCount: parts.count, leadingBytes: 0 }, (i) => `${prefix}/${i}`, 0, parts.size - 1)!;
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
  if (total !== parts.size) throw new Error(`read ${total} of ${parts.size} bytes`);
}

/** The object files s3rver keeps, read raw into one cycled buffer. */
async function rawFiles(s3: S3Process, prefix: string, parts: Parts): Promise<void> {
  const buffer = Buffer.allocUnsafeSlow(256 * 1024);
  for (let i = 0; i < parts.count; i++) {
    const handle = await open(join(s3.directory, s3.bucket, prefix, `${i}._S3rver_object`), 'r');
    try {
      while ((await handle.read(buffer, 0, buffer.byteLength)).bytesRead > 0);
    } finally {
      await handle.close();
    }
  }
}

/** The same objects fetched from s3rver with plain HTTP GETs (anonymous: s3rver serves them), no SDK. */
async function rawGets(s3: S3Process, prefix: string, parts: Parts): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    for (let i = 0; i < parts.count; i++) {
      await new Promise<void>((resolve, reject) => {
        request(`${s3.endpoint}/${s3.bucket}/${prefix}/${i}`, { agent }, (response) => {
          if (response.statusCode !== 200) reject(new Error(`raw GET: HTTP ${response.statusCode}`));
          let bytes = 0;
          response.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
          response.on('end', () => (bytes === parts.sizeOf(i) ? resolve() : reject(new Error(`raw GET: ${bytes} bytes`))));
          response.on('error', reject);
        })
          .on('error', reject)
          .end();
      });
    }
  } finally {
    agent.destroy();
  }
}

export async function benchS3Store(options: { quick?: boolean } = {}): Promise<Figure[]> {
  const sizeMiB = Number(process.env.KUVERT_BENCH_S3_STORE_MIB) || (options.quick ? 32 : 256);
  const rounds = options.quick ? 1 : Number(process.env.KUVERT_BENCH_S3_STORE_ROUNDS) || 3;
  const parts = makeParts(sizeMiB);
  const s3 = await startS3();
  const folder = await mkdtemp(join(tmpdir(), 'kuvert-bench-blobs-'));
  const local = createLocalBlobStore(folder);
  const remote = createS3BlobStore({ endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
  const best = { localUp: 0, localDown: 0, s3Up: 0, s3Down: 0, rawFs: 0, rawHttp: 0 };
  const rate = (t: { seconds: number }) => sizeMiB / t.seconds;
  const show = (what: string, t: { seconds: number; ownCpu: number; s3Cpu: number }) =>
    console.log(`   s3-store: ${what.padEnd(18)} ${rate(t).toFixed(1).padStart(7)} MiB/s  cpu: bench ${t.ownCpu.toFixed(2)} s, s3rver ${t.s3Cpu.toFixed(2)} s`);
  try {
    console.log(`   s3-store: ${sizeMiB} MiB in ${parts.count} parts of ${parts.partSize} bytes, ${rounds} rounds`);
    for (let round = 0; round < rounds; round++) {
      const prefix = `bench/r${round}`;
      const localUp = await timed(s3, () => putAll(local, prefix, parts));
      const s3Up = await timed(s3, () => putAll(remote, prefix, parts));
      const localDown = await timed(s3, () => readAll(local, prefix, parts));
      const s3Down = await timed(s3, () => readAll(remote, prefix, parts));
      const rawFs = await timed(s3, () => rawFiles(s3, prefix, parts));
      const rawHttp = await timed(s3, () => rawGets(s3, prefix, parts));
      for (const [what, t] of Object.entries({ localUp, s3Up, localDown, s3Down, rawFs, rawHttp })) show(what, t);
      best.localUp = Math.max(best.localUp, rate(localUp));
      best.s3Up = Math.max(best.s3Up, rate(s3Up));
      best.localDown = Math.max(best.localDown, rate(localDown));
      best.s3Down = Math.max(best.s3Down, rate(s3Down));
      best.rawFs = Math.max(best.rawFs, rate(rawFs));
      best.rawHttp = Math.max(best.rawHttp, rate(rawHttp));
      await local.deletePrefix(prefix);
      await remote.deletePrefix(prefix);
    }
  } finally {
    remote.close();
    await s3.close();
    await rm(folder, { recursive: true, force: true });
  }
  const note = `${sizeMiB} MiB, parts of ${parts.partSize} bytes, stores alone (no Kuvert server), s3rver in its own process`;
  return [
    figure({ name: 's3-store: upload, S3 store / local store', value: round2(best.s3Up), unit: 'MiB/s', baseline: round2(best.localUp), target: 0.7, note: `${note}, ${PARTS_IN_FLIGHT} parts in flight` }),
    figure({ name: 's3-store: download, S3 store / local store', value: round2(best.s3Down), unit: 'MiB/s', baseline: round2(best.localDown), target: 0.7, note: `${note}, partsRangeReader into 4 × 256 KiB buffers` }),
    figure({ name: 's3-store: raw ceiling, HTTP GET from s3rver / fs read', value: round2(best.rawHttp), unit: 'MiB/s', baseline: round2(best.rawFs), target: 0.7, note: `${note}, the same object files, no store code` }),
  ];
}
