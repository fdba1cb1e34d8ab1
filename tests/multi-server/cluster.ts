// Several Kuvert servers behind HAProxy, as deploy/ runs them: PostgreSQL (a fresh database per
// cluster), the S3 test server (s3rver), a real SMTP server, optionally clamd behind a counting
// proxy, N real server processes (`node --import tsx src/server/main.ts`, tests/support/child-server)
// and /usr/sbin/haproxy with deploy/haproxy.cfg, the addresses filled in through its environment.
// Used by tests/multi-server/multi-server.test.ts and `npm run bench -- scale`.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { S3TestServer } from '@server/storage/s3-test-server';
import { freePort, startChildServer, type ChildServer } from '@tests/support/child-server';
import { startTestClamd, type TestClamd } from '@tests/support/clamd';
import { startTestSmtpServer, type TestSmtpServer } from '@tests/support/smtp';
import { proveAddress } from '@tests/support/prove-address';
import { TEST_ADMIN, type TestServer } from '@tests/support/server';
import { createUserAsAdmin, signIn, type Session } from '../integration/core-helpers';

export const HAPROXY_BINARY = process.env.KUVERT_TEST_HAPROXY || '/usr/sbin/haproxy';
export const HAPROXY_CONFIG = fileURLToPath(new URL('../../deploy/haproxy.cfg', import.meta.url));
/** The server names in deploy/haproxy.cfg (HAProxy answers with them in X-Kuvert-Server). */
export const SERVER_NAMES = ['kuvert1', 'kuvert2', 'kuvert3'] as const;
export const SERVER_HEADER = 'x-kuvert-server';
const METRICS_TOKEN = randomBytes(24).toString('hex');
/** Every server needs the same key for the two-factor secrets (deploy/README.md). */
const SECRET_KEY = randomBytes(32).toString('base64');

/** Why the cluster cannot run here, or null. In CI (CI set) HAProxy must be there. */
export function clusterUnavailable(databaseUrl: string | undefined): string | null {
  if (!databaseUrl) return 'no PostgreSQL (KUVERT_TEST_DATABASE_URL unset): the multi-server test runs in `npm run test:server:pg`';
  if (!existsSync(HAPROXY_BINARY)) {
    if (process.env.CI) throw new Error(`${HAPROXY_BINARY} is missing but CI is set: .ci/run installs haproxy`);
    return `${HAPROXY_BINARY} not found: multi-server test skipped (apt-get install haproxy)`;
  }
  return null;
}

/** A TCP proxy in front of clamd that counts the scans (INSTREAM commands) every server sends. */
interface CountingClamd {
  address: string;
  scans(): number;
  close(): Promise<void>;
}

async function countingClamdProxy(clamd: TestClamd): Promise<CountingClamd> {
  const target = new URL(clamd.tcpAddress);
  let scans = 0;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    let first = true;
    client.on('data', (chunk: Buffer) => {
      if (first && /^[zn]INSTREAM/.test(chunk.toString('latin1', 0, 10))) scans++;
      first = false;
    });
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    address: `tcp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    scans: () => scans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ClusterOptions {
  databaseUrl: string;
  /** Kuvert processes (1–3). With 1, all three balancer entries point at it (the bench's baseline). */
  servers?: number;
  /** Start clamd (and count its scans). */
  clamd?: boolean;
  /** Where the file bytes go: the S3 server (default) or, with one server only, its local folder. */
  store?: 's3' | 'local';
  /** Extra environment for every server. */
  env?: Record<string, string>;
  /** Use `databaseUrl`'s database as it is (not a fresh one made and dropped here); tests/faults gives its own. */
  givenDatabase?: boolean;
  /** Start every server at once on the (empty) database, as `systemctl enable --now kuvert@…` does; default: the first alone, then the others. */
  together?: boolean;
  /** How long each server may take to start (default: startChildServer's, 90 s with `together`). */
  startTimeoutMs?: number;
}

export interface Cluster {
  /** The balancer: what clients use. */
  url: string;
  admin: { email: string; password: string };
  servers: ChildServer[];
  smtp: TestSmtpServer;
  /** The S3 test server, in its own process (`pid`: the bench reads its CPU time). */
  s3: S3TestServer & { pid: number };
  /** This cluster's own database (dropped on close unless given). */
  databaseUrl: string;
  /** The environment every server got (to start one more like them). */
  serverEnv: Record<string, string>;
  /** Scans clamd ran (INSTREAM commands), 0 without clamd. */
  scans(): number;
  /** One server's own metrics (Prometheus text), fetched from it directly. */
  metrics(index: number): Promise<string>;
  haproxy: ChildProcess;
  close(): Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** s3rver in its own process (tests/multi-server/s3-process.ts), with the in-process helper's interface (also the s3-store bench's). */
export async function startS3Process(): Promise<S3TestServer & { pid: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/multi-server/s3-process.ts'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  const started = await new Promise<Omit<S3TestServer, 'objectKeys' | 'close' | 'stop' | 'start'>>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))) as Omit<S3TestServer, 'objectKeys' | 'close' | 'stop' | 'start'>);
    });
    void exited.then(() => reject(new Error(`the S3 test server exited: ${out}`)));
  });
  // stop()/start() signal the process and wait for its "stopped"/"started" line.
  const signalled = (signal: NodeJS.Signals, line: string) =>
    new Promise<void>((resolve, reject) => {
      const from = out.length;
      const onData = () => {
        if (!out.slice(from).includes(`${line}\n`)) return;
        child.stdout!.off('data', onData);
        resolve();
      };
      child.stdout!.on('data', onData);
      void exited.then(() => reject(new Error(`the S3 test server exited (${signal}): ${out}`)));
      if (!child.kill(signal)) reject(new Error(`the S3 test server is gone (${signal})`));
    });
  return {
    ...started,
    pid: child.pid!,
    stop: () => signalled('SIGUSR1', 'stopped'),
    start: () => signalled('SIGUSR2', 'started'),
    async objectKeys() {
      // As s3-test-server.ts: object `a/b` is the file `<bucket>/a/b._S3rver_object`.
      const root = join(started.directory, started.bucket);
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile() && e.name.endsWith('._S3rver_object'))
        .map((e) => join(e.parentPath, e.name).slice(root.length + 1).replace(/\._S3rver_object$/, ''))
        .sort();
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A fresh database on the cluster of `url` (needs CREATEDB; .ci/postgres.sh's role has it). */
async function createDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `kuvert_multi_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Waits until HAProxy has answered from every one of `names` (its health checks found them up). */
async function waitForBackends(url: string, names: readonly string[], timeoutMs = 30_000): Promise<void> {
  const seen = new Set<string>();
  const deadline = Date.now() + timeoutMs;
  while (seen.size < names.length) {
    if (Date.now() > deadline) throw new Error(`HAProxy answered only from ${[...seen].join(', ') || 'no server'} within ${timeoutMs} ms`);
    const response = await fetch(`${url}/healthz`).catch(() => null);
    const name = response?.headers.get(SERVER_HEADER);
    await response?.arrayBuffer();
    if (response?.ok && name) seen.add(name);
    else await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.servers ?? 3;
  const store = options.store ?? 's3';
  if (store === 'local' && count > 1) throw new Error('several servers need the S3 store (a local folder is per server)');
  const cleanups: (() => Promise<unknown>)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
  };
  try {
    const database = options.givenDatabase ? { url: options.databaseUrl } : await createDatabase(options.databaseUrl);
    if ('drop' in database) cleanups.push(() => database.drop());
    const s3 = await startS3Process();
    cleanups.push(() => s3.close());
    const smtp = await startTestSmtpServer();
    cleanups.push(() => smtp.close());
    let counting: CountingClamd | null = null;
    if (options.clamd) {
      const clamd = await startTestClamd();
      cleanups.push(() => clamd.dispose());
      counting = await countingClamdProxy(clamd);
      cleanups.push(() => counting!.close());
    }

    const lbPort = await freePort();
    const url = `http://127.0.0.1:${lbPort}`;
    const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
    const env = {
      ...(store === 's3' ? s3.env : {}),
      DATABASE_URL: database.url,
      SMTP_URL: smtp.url,
      KUVERT_PUBLIC_URL: url,
      KUVERT_TRUST_PROXY: '127.0.0.1',
      KUVERT_METRICS_TOKEN: METRICS_TOKEN,
      KUVERT_SECRET_KEY: SECRET_KEY,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...(counting ? { KUVERT_CLAMD: counting.address } : {}),
      ...options.env,
    };
    const servers: ChildServer[] = [];
    cleanups.push(() => Promise.all(servers.map((s) => s.kill())));
    const startTimeoutMs = options.startTimeoutMs ?? (options.together ? 90_000 : undefined);
    const start = async (port: number) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'kuvert-multi-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      return startChildServer({ dataDir, port, admin: { ...TEST_ADMIN }, env, ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }) });
    };
    // The first runs the migrations and creates the administrator; the others start on them together.
    // Or all at once: the start lock lets one do the first-run work while the others wait.
    if (options.together) {
      const started = await Promise.allSettled(ports.map(start));
      for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
      const failed = started.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    } else {
      servers.push(await start(ports[0]!));
      servers.push(...(await Promise.all(ports.slice(1).map(start))));
    }

    const addresses = SERVER_NAMES.map((_, i) => `127.0.0.1:${ports[i % count]}`);
    const haproxy = spawn(HAPROXY_BINARY, ['-db', '-f', HAPROXY_CONFIG], {
      env: { PATH: process.env.PATH ?? '', KUVERT_LB_BIND: `127.0.0.1:${lbPort}`, KUVERT_SERVER_1: addresses[0]!, KUVERT_SERVER_2: addresses[1]!, KUVERT_SERVER_3: addresses[2]! },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let haproxyErr = '';
    haproxy.stderr!.on('data', (d: Buffer) => (haproxyErr += d.toString()));
    const haproxyExited = new Promise<void>((resolve) => haproxy.once('exit', () => resolve()));
    cleanups.push(async () => {
      if (haproxy.exitCode === null && haproxy.signalCode === null) {
        haproxy.kill('SIGTERM');
        await haproxyExited;
      }
    });
    // Should this process die without close() (an uncaught exception), take the children along.
    const orphans = () => {
      haproxy.kill('SIGKILL');
      for (const server of servers) server.process.kill('SIGKILL');
      void s3.close();
    };
    process.once('exit', orphans);
    cleanups.push(async () => void process.off('exit', orphans));
    await waitForBackends(url, SERVER_NAMES).catch((error: Error) => {
      throw new Error(`${error.message}\n${haproxyErr}`);
    });

    return {
      url,
      admin: { ...TEST_ADMIN },
      servers,
      smtp,
      s3,
      databaseUrl: database.url,
      serverEnv: env,
      scans: () => counting?.scans() ?? 0,
      async metrics(index) {
        const response = await fetch(`${servers[index]!.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        if (!response.ok) throw new Error(`metrics of server ${index + 1}: ${response.status}`);
        return response.text();
      },
      haproxy,
      close: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** The balancer in the shape the integration helpers take (they use `url` and `admin` only). */
export const balancer = (cluster: Cluster) => ({ url: cluster.url, admin: cluster.admin }) as TestServer;

/** The owner proves the address with the code mailed through the SMTP server every server uses. */
export async function proveUser(cluster: Cluster, email: string, password = 'Good-Passw0rd'): Promise<void> {
  await proveAddress(balancer(cluster), email, password, async () => {
    const mail = await cluster.smtp.waitForMail((m) => JSON.stringify(m.to ?? '').toLowerCase().includes(email) && /^\s*\d{6}\s*$/m.test(m.text ?? ''));
    return mail.text ?? '';
  });
}

/** An account made by the administrator, its address proven, signed in through the balancer. */
export async function provenUser(cluster: Cluster, admin: Session, email: string, password = 'Good-Passw0rd'): Promise<Session> {
  const lb = balancer(cluster);
  await createUserAsAdmin(lb, admin, { email, password }, { prove: false });
  await proveUser(cluster, email, password);
  return signIn(lb, email, password);
}
