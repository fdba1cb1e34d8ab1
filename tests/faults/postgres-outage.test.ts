import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient, type ApiClient } from '@shared/api/client';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { sendDelivery } from '@shared/transfer';
import { freePort, startChildServer, type ChildServer } from '@tests/support/child-server';
import { clamdUnavailable } from '@tests/support/clamd';
import { TEST_ADMIN } from '@tests/support/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdmin, type Session } from '../integration/core-helpers';
import { balancer, clusterUnavailable, provenUser, SERVER_HEADER, SERVER_NAMES, startCluster, type Cluster } from '../multi-server/cluster';
import { postgresUnavailable, startTestPostgres, type TestPostgres } from './postgres';
import { testFileBytes } from '@tests/support/files';

/**
 * Issue 29 §1, §2, §4: three real server processes (src/server/main.ts) and HAProxy
 * (deploy/haproxy.cfg) on ONE PostgreSQL this file starts itself (tests/faults/postgres.ts), set
 * up and started as the README's "Running several servers" says — its SQL for the role and the
 * database and its `systemctl enable --now kuvert@…` line are read from the README and followed
 * (all servers at once on the empty database). Under a steady load of level-1 uploads and
 * downloads through the balancer, PostgreSQL's idle connections are terminated and PostgreSQL is
 * restarted: no server exits, /readyz goes 503 naming the database (mail not failed) and 200 again,
 * API requests meanwhile get 503 + Retry-After in the error shape, every upload completes (the
 * load client retries on 503), every download has the uploaded SHA-256, every scan job runs once
 * (scans counted at clamd, one notice mail per delivery), no answer is a 500. Then a fourth server
 * is started while PostgreSQL is down and becomes ready once it is back.
 */

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const SECTION = README.slice(README.indexOf('## Running several servers'), README.indexOf('\n## ', README.indexOf('## Running several servers') + 3));

/** The README's SQL for the role and the database, and its start command. */
const readmeSql = /```sql\n([\s\S]*?)```/.exec(SECTION)?.[1];
const readmeStart = /^systemctl enable --now ((?:kuvert@\d+ ?)+)$/m.exec(SECTION)?.[1];
const readmeUrl = /`DATABASE_URL=(postgres:\/\/[^`]+)`/.exec(SECTION)?.[1];

const skip = postgresUnavailable() ?? clusterUnavailable('postgres://given');
if (skip) console.warn(`faults: ${skip}`);
const noClamd = skip ? null : clamdUnavailable();

const FILE_SIZE = 256 * 1024;
/** Longer than the engine's old 4 attempts (~3.5 s), shorter than its retry window (60 s). */
const S3_OUTAGE_MS = 6_000;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

interface ReadyAnswer {
  status: number;
  checks: Record<string, { status: string; reason?: string }>;
}
async function readyz(url: string): Promise<ReadyAnswer> {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, checks: ((await response.json()) as { checks: ReadyAnswer['checks'] }).checks };
}


interface Sent {
  subject: string;
  deliveryUuid: string;
  fileId: string;
  sha: string;
}

/** Waits for `/readyz` to answer 503; its checks. */
const notReady = (url: string, timeoutMs?: number) =>
  until(
    `/readyz 503 at ${url}`,
    async () => {
      const answer = await readyz(url);
      return answer.status === 503 ? answer : undefined;
    },
    timeoutMs,
  );

/** What a load client saw: anything that must not happen, and the faults it rode over. */
interface Seen {
  /** 503 answers (retried by the load client, or by the engine itself). */
  answered503: number;
  /** Of those, part PUTs (what the engine rode over by itself). */
  parts503: number;
  /** Requests a SIGKILL cut: a fetch error, a body cut short, or the balancer's 502. */
  cut: number;
  status500: string[];
  failures: string[];
}
const newSeen = (): Seen => ({ answered503: 0, parts503: 0, cut: 0, status500: [], failures: [] });
/** What the PostgreSQL test's load client saw. */
const seen = newSeen();

/**
 * The product's own client: the engine's retry only (shared/transfer/retry.ts), no retry of the
 * test's. Records 5xx answers; `onAnswer` sees each answer (the SIGKILL test picks its victim there).
 */
function engineClientOf(cluster: Cluster, session: Session, seen: Seen, onAnswer?: (input: string, init: RequestInit, response: Response) => Promise<void>) {
  const fetcher: typeof fetch = async (input, init = {}) => {
    const response = await fetch(input, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), cookie: session.cookie } });
    if (response.status === 503) {
      seen.answered503++;
      if (init.method === 'PUT' && /\/parts\/\d+$/.test(String(input))) seen.parts503++;
    } else if (response.status === 502) seen.cut++;
    else if (response.status >= 500) seen.status500.push(`${response.status} ${init.method ?? 'GET'} ${String(input)}: ${await response.clone().text()}`);
    await onAnswer?.(String(input), init, response);
    return response;
  };
  const client = createApiClient({ backendUrl: cluster.url, fetch: fetcher });
  client.setAntiCsrfToken(session.csrf);
  return { client, fetch: fetcher };
}

/**
 * A steady load through the balancer: one level-1 upload after the other through `sendDelivery`
 * (256 KiB, 4 parts), and downloads of what was sent, each checked against the uploaded SHA-256.
 * A download answered 503 (the outage) or cut by a SIGKILL is not an error; a wrong byte is.
 */
function startLoad(cluster: Cluster, api: { client: ApiClient; fetch: typeof fetch }, seen: Seen, survivors: () => ChildServer[] = () => cluster.servers) {
  const sent: Sent[] = [];
  let downloads = 0;
  let running = true;
  const upload = async (n: number) => {
    const bytes = new Uint8Array(testFileBytes(FILE_SIZE));
    const subject = `Fault load ${n} ${randomBytes(3).toString('hex')}`;
    const result = await sendDelivery({
      client: api.client,
      draft: { recipients: ['bob@example.test'], subject, body: 'Under load.', securityLevel: SECURITY_LEVELS.LEVEL_1 as 0 },
      files: [{ name: `load-${n}.bin`, blob: new Blob([bytes]), mimeType: 'application/octet-stream' }],
    });
    if (!result.ok) return void seen.failures.push(`upload ${n}: ${JSON.stringify(result.error)}`);
    sent.push({ subject, deliveryUuid: result.delivery.deliveryUuid, fileId: result.delivery.files[0]!.fileId, sha: sha256(bytes) });
  };
  const download = async (item: Sent) => {
    let response: Response;
    let body: Uint8Array;
    try {
      response = await api.fetch(deliveryContentUrl(item.deliveryUuid, item.fileId, null, cluster.url));
      body = new Uint8Array(await response.arrayBuffer());
    } catch {
      seen.cut++;
      return;
    }
    // 403 while its scan runs (FileNotAllowedException, "being checked"), 503 in an outage, 502 cut: try another.
    if ([403, 503, 502].includes(response.status)) return;
    if (response.status !== 200) return void seen.failures.push(`download ${item.subject}: ${response.status} ${new TextDecoder().decode(body)}`);
    const got = sha256(body);
    if (got !== item.sha) seen.failures.push(`download ${item.subject}: SHA-256 ${got}, uploaded ${item.sha}`);
    downloads++;
  };
  const uploader = (async () => {
    for (let n = 0; running; n++) await upload(n);
  })();
  const downloader = (async () => {
    while (running) {
      if (sent.length === 0) await sleep(100);
      else await download(sent[Math.floor(Math.random() * sent.length)]!);
    }
  })();
  const state = (servers: ChildServer[]) => servers.map((s) => `${s.url}: ${s.process.exitCode ?? s.process.signalCode ?? 'running'}`);
  return {
    sent,
    /** Waits for `count` completed uploads; stops waiting as soon as a server that should run died (what the issue saw: every server gone at once). */
    async uploadsAfter(count: number) {
      const exited = () => survivors().some((s) => s.process.exitCode !== null || s.process.signalCode !== null);
      await until(`${count} uploads`, async () => sent.length >= count || exited(), 90_000);
      expect(state(survivors())).toEqual(survivors().map((s) => `${s.url}: running`));
    },
    /** Ends the load once the running upload and download are done; the number of bit-exact downloads. */
    async stop() {
      running = false;
      await Promise.all([uploader, downloader]);
      return downloads;
    },
  };
}

describe.skipIf(skip !== null)('faults: three servers behind HAProxy on one PostgreSQL and one S3 server, under load', () => {
  let postgres: TestPostgres;
  let cluster: Cluster;
  let databaseUrl: string;

  beforeAll(async () => {
    expect(readmeSql, 'README "Running several servers" has the SQL for the role and the database').toBeDefined();
    expect(readmeStart, 'README "Running several servers" has the systemctl line').toBeDefined();
    expect(readmeUrl, 'README "Running several servers" has the DATABASE_URL').toBeDefined();
    postgres = await startTestPostgres();
    // As the README says, as a superuser; the servers then run as that role (no superuser).
    for (const statement of readmeSql!.split(';').map((s) => s.trim()).filter(Boolean)) await postgres.query(statement);
    const url = new URL(readmeUrl!);
    url.host = `127.0.0.1:${postgres.port}`;
    databaseUrl = url.toString();
    const instances = readmeStart!.trim().split(/\s+/);
    cluster = await startCluster({
      databaseUrl,
      givenDatabase: true,
      together: true,
      servers: instances.length,
      clamd: noClamd === null,
      env: { KUVERT_JOB_POLL_INTERVAL: '200', KUVERT_UPLOAD_PART_SIZE: String(64 * 1024), KUVERT_LOG_LEVEL: 'info' },
    });
  }, 180_000);
  /** Data folders of servers started again here (the cluster removes its own). */
  const dataDirs: string[] = [];
  afterAll(async () => {
    await cluster?.close();
    await postgres?.close();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  let signedIn: Session | undefined;
  const aliceSession = async () => (signedIn ??= await provenUser(cluster, await signInAdmin(balancer(cluster)), 'alice@example.test'));
  /** Every scan job is done, and each delivery's notice mail went out once (each job ran once). */
  const expectJobsOnce = async (sent: Sent[]) => {
    await until('jobs done', async () => Number((await sql<{ n: string }>('SELECT count(*) AS n FROM jobs WHERE unique_key IS NULL'))[0]!.n) === 0, 60_000);
    for (const item of sent) {
      await cluster.smtp.waitForMail((m) => (m.subject ?? '').includes(item.subject) || (m.text ?? '').includes(item.subject), 30_000);
    }
    for (const item of sent) {
      const mails = cluster.smtp.received.filter((m) => JSON.stringify(m.to ?? '').includes('bob@example.test') && ((m.subject ?? '').includes(item.subject) || (m.text ?? '').includes(item.subject)));
      expect(mails, item.subject).toHaveLength(1);
    }
  };
  const alive = () => cluster.servers.map((s, i) => `server ${i + 1}: ${s.process.exitCode ?? s.process.signalCode ?? 'running'}`);
  const sql = async <R extends pg.QueryResultRow>(text: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<R>(text)).rows;
    } finally {
      await client.end();
    }
  };

  it('all servers started at once on the empty database (the README line): every one runs, one administrator, the role is no superuser', async () => {
    expect(alive()).toEqual(cluster.servers.map((_, i) => `server ${i + 1}: running`));
    const admins = await sql<{ n: string }>(`SELECT count(*) AS n FROM users WHERE email = '${TEST_ADMIN.email}'`);
    expect(Number(admins[0]!.n)).toBe(1);
    const [role] = await sql<{ rolsuper: boolean; rolcreatedb: boolean }>('SELECT rolsuper, rolcreatedb FROM pg_roles WHERE rolname = current_user');
    expect(role).toEqual({ rolsuper: false, rolcreatedb: false });
    for (const server of cluster.servers) expect((await readyz(server.url)).status).toBe(200);
    // The probes are not logged at info (an idle cluster wrote ~4 lines a second for HAProxy's checks).
    expect(cluster.servers[0]!.output()).not.toMatch(/"url":"\/healthz"/);
  });

  it('idle connections terminated and PostgreSQL restarted under load: no server exits, /readyz red then green, uploads complete, downloads bit-exact, jobs once, no 500', { timeout: 240_000 }, async () => {
    const session = await aliceSession();
    // The product's engine only (its retry of 503s, shared/transfer/retry.ts): no retry of the test's.
    const alice = engineClientOf(cluster, session, seen);
    const scansBefore = cluster.scans();
    const load = startLoad(cluster, alice, seen);
    const { sent, uploadsAfter } = load;
    let downloads = 0;

    try {
      await uploadsAfter(2);
      // 1. Idle connections terminated (a pooler's idle timeout, an operator's pg_terminate_backend).
      const terminated = await postgres.query<{ pid: number }>("SELECT pg_terminate_backend(pid) AS ok, pid FROM pg_stat_activity WHERE usename = 'kuvert' AND state = 'idle'");
      expect(terminated.length).toBeGreaterThan(0);
      await uploadsAfter(sent.length + 2);
      expect(alive()).toEqual(cluster.servers.map((_, i) => `server ${i + 1}: running`));

      // 2. PostgreSQL restarted (down long enough to be seen).
      await postgres.stop();
      const direct = cluster.servers[0]!.url;
      for (const server of cluster.servers) {
        const red = await notReady(server.url);
        expect(red.checks.database).toMatchObject({ status: 'failed' });
        // Mail is not reported failed for a database outage.
        expect(red.checks.mail?.status).not.toBe('failed');
      }
      const refused = await fetch(`${direct}/api/2/user`, { headers: { cookie: session.cookie } });
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ error: 'ServiceUnavailableException', requestUri: '/api/2/user', metadata: { part: 'database' }, uuid: expect.any(String), message: expect.any(String) });
      const back = Date.now();
      await postgres.start();
      for (const server of cluster.servers) await until('/readyz 200 again', async () => (await readyz(server.url)).status === 200, 30_000);
      expect(Date.now() - back, 'ready again within seconds').toBeLessThan(15_000);
      await uploadsAfter(sent.length + 3);
    } finally {
      downloads = await load.stop();
    }

    expect(alive()).toEqual(cluster.servers.map((_, i) => `server ${i + 1}: running`));
    expect(seen.failures).toEqual([]);
    expect(seen.status500).toEqual([]);
    expect(seen.cut).toBe(0);
    expect(downloads).toBeGreaterThan(0);
    await expectJobsOnce(sent);
    if (noClamd === null) {
      // One scan per delivery, plus up to one for each run the outage cut off before it could record
      // its result (handed back, logged, run once more); none that ran to the end ran again.
      const logs = cluster.servers.map((s) => s.output()).join('\n');
      const interrupted = (logs.match(/job interrupted: the database is unavailable; handed back/g) ?? []).length;
      const jobLines = logs.split('\n').filter((line) => /job|lease/.test(line)).join('\n');
      // A run cut off before it reached clamd scanned nothing: at most one extra scan per cut-off run.
      expect(cluster.scans() - scansBefore, jobLines).toBeGreaterThanOrEqual(sent.length);
      expect(cluster.scans() - scansBefore, jobLines).toBeLessThanOrEqual(sent.length + interrupted);
    }
    // The 503s the load client retried: the outage was seen by the load, and answered as it should.
    console.info(`faults: ${sent.length} uploads, ${downloads} downloads, ${seen.answered503} answers 503 retried`);
  });

  it('the S3 server stopped for longer than the old retry window under load: /readyz names the store and recovers, uploads through the real engine finish by themselves, downloads bit-exact, jobs once, no 500', { timeout: 180_000 }, async () => {
    const engineSeen = newSeen();
    const load = startLoad(cluster, engineClientOf(cluster, await aliceSession(), engineSeen), engineSeen);
    let downloads = 0;
    try {
      await load.uploadsAfter(2);
      const stoppedAt = Date.now();
      await cluster.s3.stop();
      for (const server of cluster.servers) {
        const red = await notReady(server.url, 10_000);
        expect(red.checks.blobStore).toMatchObject({ status: 'failed' });
        expect(red.checks.database).toMatchObject({ status: 'ok' });
      }
      // Down longer than the old ~3.5 s of retries (polled: the servers stay red meanwhile).
      await until('the outage lasted', async () => Date.now() - stoppedAt >= S3_OUTAGE_MS && (await readyz(cluster.servers[0]!.url)).status === 503, 20_000);
      const during = load.sent.length;
      await cluster.s3.start();
      for (const server of cluster.servers) await until('/readyz 200 again', async () => (await readyz(server.url)).status === 200, 30_000);
      await load.uploadsAfter(during + 3);
    } finally {
      downloads = await load.stop();
    }
    expect(alive()).toEqual(cluster.servers.map((_, i) => `server ${i + 1}: running`));
    expect(engineSeen.failures).toEqual([]);
    expect(engineSeen.status500).toEqual([]);
    // The uploads met the outage: parts answered 503 (Retry-After), and the engine went on by itself.
    expect(engineSeen.parts503).toBeGreaterThan(0);
    expect(downloads).toBeGreaterThan(0);
    await expectJobsOnce(load.sent);
    console.info(`faults (S3 stopped): ${load.sent.length} uploads, ${downloads} downloads, ${engineSeen.answered503} answers 503 (${engineSeen.parts503} parts), ${engineSeen.cut} cut`);
  });

  it('one server SIGKILLed under load: the others serve on, uploads in flight finish through the real engine, downloads bit-exact, its leased jobs taken over, no 500; started again it is ready', { timeout: 180_000 }, async () => {
    const engineSeen = newSeen();
    let armed = false;
    let victim: number | undefined;
    // The server that answered a part dies like a crash (no shutdown hook), the next parts of that file in flight.
    /** Which server answered each part after the kill. */
    const partsAfter: string[] = [];
    const api = engineClientOf(cluster, await aliceSession(), engineSeen, async (input, init, response) => {
      if (!armed || init.method !== 'PUT' || !/\/parts\/\d+$/.test(input) || !response.ok) return;
      if (victim !== undefined) return void partsAfter.push(response.headers.get(SERVER_HEADER) ?? '?');
      const index = SERVER_NAMES.indexOf(response.headers.get(SERVER_HEADER) as (typeof SERVER_NAMES)[number]);
      if (index < 0 || index >= cluster.servers.length) return;
      victim = index;
      await cluster.servers[index]!.kill();
    });
    const survivors = () => cluster.servers.filter((_, i) => i !== victim);
    const load = startLoad(cluster, api, engineSeen, survivors);
    let downloads = 0;
    try {
      await load.uploadsAfter(2);
      armed = true;
      await until('a server killed', async () => victim !== undefined, 30_000);
      await load.uploadsAfter(load.sent.length + 4);
      for (const server of survivors()) expect((await readyz(server.url)).status).toBe(200);
    } finally {
      downloads = await load.stop();
    }
    expect(survivors().map((s) => s.process.exitCode ?? s.process.signalCode ?? 'running')).toEqual(['running', 'running']);
    expect(engineSeen.failures).toEqual([]);
    expect(engineSeen.status500).toEqual([]);
    expect(downloads).toBeGreaterThan(0);
    // The parts went on to the two others (HAProxy's health check took the dead one out).
    expect(partsAfter.length).toBeGreaterThan(0);
    expect(partsAfter).not.toContain(SERVER_NAMES[victim!]);

    // A job the dead server held stays leased to it until the lease (60 s) runs out: once only such
    // rows are left (unchanged for 2 s, the live servers run a scan in well under that), their
    // lease is made to run out now instead of waiting the minute.
    let last = '';
    let stableSince = Date.now();
    const held = await until('only the dead server\'s leased jobs left', async () => {
      const rows = await sql<{ id: string; state: string; locked_by: string | null }>('SELECT id, state, locked_by FROM jobs WHERE unique_key IS NULL ORDER BY id');
      const now = JSON.stringify(rows);
      if (now !== last) [last, stableSince] = [now, Date.now()];
      return rows.every((r) => r.state === 'running') && Date.now() - stableSince >= 2_000 ? rows : undefined;
    }, 60_000);
    if (held.length > 0) await sql(`UPDATE jobs SET locked_until = ${Date.now() - 1} WHERE id IN (${held.map((r) => `'${r.id}'`).join(', ')})`);
    await expectJobsOnce(load.sent);

    // Started again on its port and folder-less (a fresh data folder): it becomes ready, and the balancer sends to it again.
    const dead = cluster.servers[victim!]!;
    const dataDir = await mkdtemp(join(tmpdir(), 'kuvert-faults-restart-'));
    dataDirs.push(dataDir);
    const restarted = await startChildServer({ dataDir, port: Number(new URL(dead.url).port), admin: { ...TEST_ADMIN }, env: cluster.serverEnv });
    cluster.servers[victim!] = restarted;
    await until('/readyz 200 on the restarted server', async () => (await readyz(restarted.url)).status === 200, 30_000);
    await until('the balancer sends to it again', async () => {
      const response = await fetch(`${cluster.url}/healthz`);
      await response.arrayBuffer();
      return response.headers.get(SERVER_HEADER) === SERVER_NAMES[victim!];
    }, 30_000);
    console.info(`faults (SIGKILL): ${load.sent.length} uploads, ${downloads} downloads, ${engineSeen.cut} requests cut, ${held.length} leases taken over`);
  });

  it('a server started while PostgreSQL is down waits (logging its tries) and becomes ready once PostgreSQL is back', { timeout: 120_000 }, async () => {
    await postgres.stop();
    const dataDir = await mkdtemp(join(tmpdir(), 'kuvert-faults-late-'));
    let late: ChildServer | undefined;
    try {
      const port = await freePort();
      let output = '';
      const starting = startChildServer({ dataDir, port, admin: { ...TEST_ADMIN }, env: cluster.serverEnv, onOutput: (text) => (output = text) });
      starting.catch(() => undefined);
      // It stays up and says it waits (it exited 1 before issue 29): twice, so it has retried once.
      await until('the late server logs that it waits, twice', async () => (output.match(/start: the database is unavailable; waiting for it/g) ?? []).length >= 2);
      await postgres.start();
      late = await starting;
      await until('/readyz 200', async () => (await readyz(late!.url)).status === 200, 30_000);
      expect(late.process.exitCode).toBeNull();
    } finally {
      await late?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
