// `npm run bench -- scale` (issue 18 §4): Kuvert behind HAProxy (deploy/haproxy.cfg) on
// PostgreSQL and the S3 test server, as tests/multi-server runs it.
//   - upload / download throughput through the balancer with 3 servers / with 1 server (the three
//     balancer entries then point at the one process): a level-1 file sent with the product's
//     engine (sendDelivery) and read back with one plain GET, MiB/s; target ≥ 0.9.
//   - server RSS per concurrent download: 200 concurrent downloads of one 64 MiB file through the
//     balancer from one server, the server's resident memory (peak, /proc) above its level before,
//     divided by 200; target < 8 MiB (value), the baseline is the RSS before.
//   - Kuvert's S3 path / raw S3 client calls to the same server: the blob store the servers run
//     against bare SDK PutObject/GetObject of the same parts, both against this cluster's s3rver
//     (tests/bench/s3-store.ts `s3PathAgainstRawClient`: a warm-up part each way, then 5 rounds
//     (2 with --quick) taking turns; the figure is the median of the rounds' ratios); target ≥ 0.9. It replaced "S3 store /
//     local store ≥ 0.7", which s3rver itself cannot reach on 2 cores (plain HTTP to it does
//     0.04–0.28 of plain file calls) whatever our code does.
//     Each round prints the CPU seconds of every process (client, HAProxy, s3rver, Kuvert).
//   - the multi-server test at 512 MiB (level 3, one server SIGKILLed in the middle): passes or not.
// Rounds alternate the measurements where they can; the best round counts (the S3 path: medians). Sizes:
// KUVERT_BENCH_SCALE_MIB (default 256, 8 with --quick); --quick: 5 × 2 MiB downloads, no 512 MiB run.
// KUVERT_BENCH_SCALE_ONLY=store: only the S3 path figure (about a minute).
// Needs PostgreSQL (KUVERT_TEST_DATABASE_URL / KUVERT_TEST_PG_URL, else .ci/postgres.sh) and HAProxy.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createApiClient } from '@shared/api/client';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { DELIVERY_PATHS } from '@shared/contract/deliveries';
import { sendDelivery } from '@shared/transfer';
import { call, signInAdmin, type Session } from '../integration/core-helpers';
import { balancer, clusterUnavailable, provenUser, startCluster, type Cluster, type ClusterOptions } from '../multi-server/cluster';
import { cpuSecondsOf } from './proc';
import { harmonic, s3PathAgainstRawClient } from './s3-store';
import { figure, type Figure } from './report';
import { testFileBytes } from '@tests/support/files';

const MiB = 1024 * 1024;
const round2 = (n: number) => Math.round(n * 100) / 100;

export interface ScaleBenchOptions {
  quick?: boolean;
}

function postgresUrl(): string | undefined {
  const given = process.env.KUVERT_TEST_DATABASE_URL || process.env.KUVERT_TEST_PG_URL;
  if (given) return given;
  try {
    return execFileSync('bash', ['.ci/postgres.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** N MiB from one random block repeated (level 1: the bytes go as they are). */
function sourceBlob(sizeMiB: number): Blob {
  const block = new Uint8Array(testFileBytes(Math.min(sizeMiB, 64) * MiB));
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let left = sizeMiB * MiB; left > 0; left -= block.length) parts.push(left >= block.length ? block : block.subarray(0, left));
  return new Blob(parts);
}

interface Setup {
  cluster: Cluster;
  sender: Session;
}

async function setUp(options: Omit<ClusterOptions, 'databaseUrl'>, databaseUrl: string): Promise<Setup> {
  // A first start migrates a fresh database: on the shared 2-core machine that took over the default 30 s.
  const cluster = await startCluster({ databaseUrl, startTimeoutMs: 120_000, ...options, env: { KUVERT_LOG_LEVEL: 'error' } });
  const admin = await signInAdmin(balancer(cluster));
  await provenUser(cluster, admin, 'reader@example.test');
  return { cluster, sender: await provenUser(cluster, admin, 'sender@example.test') };
}

const withCookie = (session: Session): typeof fetch => (input, init = {}) =>
  fetch(input, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), cookie: session.cookie } });

/** Sends a level-1 file through the balancer; seconds and the delivery's file. */
async function upload(setup: Setup, blob: Blob): Promise<{ seconds: number; deliveryUuid: string; fileId: string }> {
  const client = createApiClient({ backendUrl: setup.cluster.url, fetch: withCookie(setup.sender) });
  client.setAntiCsrfToken(setup.sender.csrf);
  const started = performance.now();
  const result = await sendDelivery({
    client,
    draft: { recipients: ['reader@example.test'], subject: 'Scale bench', body: '', securityLevel: SECURITY_LEVELS.LEVEL_1 },
    files: [{ name: 'bench.bin', blob, mimeType: 'application/octet-stream' }],
  });
  const seconds = (performance.now() - started) / 1000;
  if (!result.ok) throw new Error(`upload failed: ${JSON.stringify(result.error)}`);
  return { seconds, deliveryUuid: result.delivery.deliveryUuid, fileId: result.delivery.files[0]!.fileId };
}

/** Reads the file through the balancer and throws the bytes away; the number of bytes read. */
async function readAll(setup: Setup, deliveryUuid: string, fileId: string): Promise<number> {
  const response = await fetch(deliveryContentUrl(deliveryUuid, fileId, null, setup.cluster.url), { headers: { cookie: setup.sender.cookie } });
  if (!response.ok || !response.body) throw new Error(`download: ${response.status}`);
  let bytes = 0;
  const reader = response.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.length;
  return bytes;
}

async function download(setup: Setup, deliveryUuid: string, fileId: string, size: number): Promise<number> {
  let started = performance.now();
  const bytes = await readAll(setup, deliveryUuid, fileId).catch(async (error: Error) => {
    // Seen once on the shared 2-core machine: a connection closed mid-file. Say so, time a second try.
    console.log(`   scale: a download was cut off (${error.message}: ${String(error.cause)}); timing a second try`);
    started = performance.now();
    return readAll(setup, deliveryUuid, fileId);
  });
  if (bytes !== size) throw new Error(`downloaded ${bytes} bytes, expected ${size}`);
  return (performance.now() - started) / 1000;
}

const remove = async (setup: Setup, deliveryUuid: string) => {
  const response = await call(balancer(setup.cluster), setup.sender, 'DELETE', `/api/2${DELIVERY_PATHS.one(deliveryUuid)}`);
  await response.arrayBuffer();
};

/** CPU seconds so far of each process a setup runs (and of this one, the client), to see who pays for the bytes. */
function cpuOfSetup(setup: Setup): Record<string, number> {
  const own = process.cpuUsage();
  const cpu: Record<string, number> = { client: (own.user + own.system) / 1e6, haproxy: cpuSecondsOf(setup.cluster.haproxy.pid!), s3rver: cpuSecondsOf(setup.cluster.s3.pid) };
  setup.cluster.servers.forEach((server, i) => (cpu[`kuvert${i + 1}`] = cpuSecondsOf(server.process.pid!)));
  return cpu;
}

const cpuSince = (before: Record<string, number>, after: Record<string, number>) =>
  Object.entries(after)
    .map(([name, seconds]) => `${name} ${(seconds - (before[name] ?? 0)).toFixed(2)}`)
    .join(', ');

/**
 * Best upload and download MiB/s of `rounds` rounds of one file, per setup. With several setups the
 * rounds alternate between them (and the order flips each round), so a load that changes while the
 * bench runs (the machine is shared) weighs on every setup alike.
 */
async function throughput(setups: { setup: Setup; label: string }[], sizeMiB: number, rounds: number): Promise<{ up: number; down: number }[]> {
  const blob = sourceBlob(sizeMiB);
  const best = setups.map(() => ({ up: 0, down: 0 }));
  for (let round = 0; round < rounds; round++) {
    const order = setups.map((_, i) => (round % 2 === 0 ? i : setups.length - 1 - i));
    for (const i of order) {
      const { setup, label } = setups[i]!;
      const atStart = cpuOfSetup(setup);
      const sent = await upload(setup, blob);
      const uploaded = cpuOfSetup(setup);
      const seconds = await download(setup, sent.deliveryUuid, sent.fileId, blob.size);
      const downloaded = cpuOfSetup(setup);
      console.log(`   scale: ${label}: up ${(sizeMiB / sent.seconds).toFixed(1)} MiB/s (CPU s: ${cpuSince(atStart, uploaded)}), down ${(sizeMiB / seconds).toFixed(1)} MiB/s (CPU s: ${cpuSince(uploaded, downloaded)})`);
      best[i]!.up = Math.max(best[i]!.up, sizeMiB / sent.seconds);
      best[i]!.down = Math.max(best[i]!.down, sizeMiB / seconds);
      await remove(setup, sent.deliveryUuid);
    }
  }
  return best;
}

const rssOf = (pid: number) => Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;

/**
 * `count` concurrent downloads of one `sizeMiB` file from a one-server setup; the server's RSS before
 * and at its peak, and the downloads that failed (counted, not thrown: the figure says how many).
 */
async function concurrentDownloads(setup: Setup, count: number, sizeMiB: number): Promise<{ before: number; peak: number; seconds: number; failed: string[] }> {
  const blob = sourceBlob(sizeMiB);
  const sent = await upload(setup, blob);
  const pid = setup.cluster.servers[0]!.process.pid!;
  // One warm-up download, so code paths and pools exist before the level is taken.
  await download(setup, sent.deliveryUuid, sent.fileId, blob.size);
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 100);
  const started = performance.now();
  let results: PromiseSettledResult<number>[];
  try {
    results = await Promise.allSettled(Array.from({ length: count }, () => readAll(setup, sent.deliveryUuid, sent.fileId)));
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, rssOf(pid));
  const seconds = (performance.now() - started) / 1000;
  const failed = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : r.value === blob.size ? [] : [`short: ${r.value} bytes`]));
  if (failed.length > 0) console.log(`   scale: ${failed.length} of ${count} downloads failed; the server's last words:\n${setup.cluster.servers[0]!.output().slice(-2000)}`);
  await remove(setup, sent.deliveryUuid);
  return { before, peak, seconds, failed };
}

/** The multi-server test at 512 MiB, as its own Vitest run. */
function bigMultiServerRun(databaseUrl: string): { passed: boolean; seconds: number } {
  const started = performance.now();
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'server', 'tests/multi-server'], {
    stdio: 'inherit',
    env: { ...process.env, KUVERT_TEST_DATABASE_URL: databaseUrl, KUVERT_MULTI_SERVER_MIB: '512' },
  });
  return { passed: run.status === 0, seconds: (performance.now() - started) / 1000 };
}

export async function benchScale(options: ScaleBenchOptions = {}): Promise<Figure[]> {
  const databaseUrl = postgresUrl();
  const skip = clusterUnavailable(databaseUrl);
  if (skip || !databaseUrl) {
    console.log(`   scale: skipped (${skip})`);
    return [];
  }
  const sizeMiB = Number(process.env.KUVERT_BENCH_SCALE_MIB) || (options.quick ? 8 : 256);
  const rounds = options.quick ? 1 : 2;
  const downloads = options.quick ? { count: 5, sizeMiB: 2 } : { count: 200, sizeMiB: 64 };
  // The S3 path figure is a median of paired rounds: 5 at full size (a round that meets a burst of
  // the shared machine's other work is then an outlier, not the figure).
  const storeRounds = options.quick ? 2 : 5;
  const figures: Figure[] = [];

  // KUVERT_BENCH_SCALE_ONLY=store: only the S3 path figure (one server's cluster), about a minute.
  const storeOnly = process.env.KUVERT_BENCH_SCALE_ONLY === 'store';

  console.log(`   scale: 1 server on S3${storeOnly ? '' : `, ${sizeMiB} MiB × ${rounds}, then ${downloads.count} × ${downloads.sizeMiB} MiB at once`}; Kuvert's S3 path against raw S3 client calls`);
  const one = await setUp({ servers: 1 }, databaseUrl);
  let oneServer: { up: number; down: number } | null = null;
  let s3Path: Awaited<ReturnType<typeof s3PathAgainstRawClient>>;
  let concurrent: { before: number; peak: number; seconds: number; failed: string[] } | null = null;
  try {
    if (!storeOnly) [oneServer] = (await throughput([{ setup: one, label: '1 server, S3' }], sizeMiB, rounds)) as [{ up: number; down: number }];
    // The blob store the server runs against bare SDK calls, both to this cluster's s3rver.
    const s3CpuBefore = cpuSecondsOf(one.cluster.s3.pid);
    s3Path = await s3PathAgainstRawClient(one.cluster.s3, sizeMiB, storeRounds);
    const p = s3Path;
    console.log(`   scale: S3 path (medians): Kuvert up ${p.kuvert.up.toFixed(1)}, down ${p.kuvert.down.toFixed(1)}; raw SDK up ${p.raw.up.toFixed(1)}, down ${p.raw.down.toFixed(1)} MiB/s; the rounds' ratios ${p.ratios.map((r) => r.toFixed(2)).join(', ')} (s3rver CPU s ${(cpuSecondsOf(one.cluster.s3.pid) - s3CpuBefore).toFixed(2)})`);
    if (!storeOnly) concurrent = await concurrentDownloads(one, downloads.count, downloads.sizeMiB);
  } finally {
    await one.cluster.close();
  }
  if (oneServer) {
    console.log('   scale: 3 servers');
    const three = await setUp({ servers: 3 }, databaseUrl);
    let threeServers: { up: number; down: number };
    try {
      [threeServers] = (await throughput([{ setup: three, label: '3 servers, S3' }], sizeMiB, rounds)) as [typeof threeServers];
    } finally {
      await three.cluster.close();
    }
    figures.push(
      figure({ name: 'scale: upload through the balancer, 3 servers / 1 server', value: round2(threeServers.up), unit: 'MiB/s', baseline: round2(oneServer.up), target: 0.9, note: `${sizeMiB} MiB level 1, sendDelivery, PostgreSQL + S3 (s3rver), HAProxy round-robin` }),
      figure({ name: 'scale: download through the balancer, 3 servers / 1 server', value: round2(threeServers.down), unit: 'MiB/s', baseline: round2(oneServer.down), target: 0.9, note: `${sizeMiB} MiB level 1, one GET` }),
    );
  }
  if (concurrent) {
    const perDownload = (concurrent.peak - concurrent.before) / downloads.count / MiB;
    figures.push(
      figure({
        name: `scale: server RSS per concurrent download (${downloads.count} × ${downloads.sizeMiB} MiB)`,
        value: round2(perDownload),
        unit: 'MiB',
        baseline: round2(concurrent.before / MiB),
        target: 8,
        targetOn: 'value',
        direction: 'max',
        note: `peak ${round2(concurrent.peak / MiB)} MiB, before ${round2(concurrent.before / MiB)} MiB (baseline), ${round2((downloads.count * downloads.sizeMiB) / concurrent.seconds)} MiB/s in all through the balancer, S3 store${concurrent.failed.length ? `; ${concurrent.failed.length} downloads FAILED (${[...new Set(concurrent.failed)].join(', ')})` : ''}`,
      }),
    );
    // A figure with failed downloads is no pass, whatever the memory.
    if (concurrent.failed.length > 0) figures[figures.length - 1]!.pass = false;
  }
  figures.push(
    figure({
      name: "scale: Kuvert's S3 path / raw S3 client calls to the same server (upload + download)",
      value: round2(harmonic(s3Path.kuvert)),
      unit: 'MiB/s',
      baseline: round2(harmonic(s3Path.raw)),
      ratio: s3Path.ratio,
      target: 0.9,
      note: `${sizeMiB} MiB in upload parts, a warm-up part each way, then ${storeRounds} rounds taking turns (MiB/s: medians; the ratio: the median of the rounds' ratios, ${s3Path.ratios.map((r) => r.toFixed(2)).join(', ')}); Kuvert: createS3BlobStore put (streamed, size + SHA-256 checked, 3 parts in flight) and partsRangeReader, up ${round2(s3Path.kuvert.up)}, down ${round2(s3Path.kuvert.down)} MiB/s; raw: the AWS SDK's PutObject/GetObject with the same transport settings, up ${round2(s3Path.raw.up)}, down ${round2(s3Path.raw.down)} MiB/s; both to the cluster's s3rver`,
    }),
  );

  if (!options.quick && !storeOnly) {
    console.log('   scale: the multi-server test at 512 MiB');
    const big = bigMultiServerRun(databaseUrl);
    figures.push(
      figure({ name: 'scale: multi-server test at 512 MiB (level 3, a server SIGKILLed mid-upload) passes', value: big.passed ? 1 : 0, unit: 'pass', baseline: 1, target: 1, targetOn: 'value', note: `${round2(big.seconds)} s with the servers' start` }),
    );
  }
  return figures;
}
