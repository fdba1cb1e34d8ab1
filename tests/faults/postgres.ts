// A throw-away PostgreSQL for tests/faults: its own cluster (initdb into a temporary folder, a free
// port), so restarting it or terminating its connections disturbs no other test file. PostgreSQL
// refuses to run as root: as root (CI) the tools run through `runuser -u postgres` in a folder
// postgres owns.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '@tests/support/child-server';

const PG_ROOT = '/usr/lib/postgresql';

/** The newest /usr/lib/postgresql/<version>/bin, or null. */
function binaries(): string | null {
  if (!existsSync(PG_ROOT)) return null;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(PG_ROOT, versions[0], 'bin') : null;
}

/** Why the suite cannot run here, or null. In CI (CI set) PostgreSQL must be there. */
export function postgresUnavailable(): string | null {
  if (binaries()) return null;
  if (process.env.CI) throw new Error(`no ${PG_ROOT}/*/bin/initdb but CI is set: .ci/run installs postgresql`);
  return `no ${PG_ROOT}/*/bin/initdb: the fault suite needs PostgreSQL (apt-get install postgresql)`;
}

export interface TestPostgres {
  port: number;
  /** The superuser over TCP (trust authentication, this cluster only). */
  superuserUrl: string;
  /** A statement as the superuser. */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  /** Fast shutdown (clients get 57P01), waits until it is down. */
  stop(): Promise<void>;
  /** Starts it again on the same port, waits until it accepts connections. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = binaries();
  if (!bin) throw new Error(postgresUnavailable() ?? 'no PostgreSQL');
  const root = process.getuid?.() === 0;
  const dir = await mkdtemp(join(tmpdir(), 'kuvert-faults-pg-'));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const tool = (name: string, args: string[]) => {
    const [command, commandArgs] = root ? ['runuser', ['-u', 'postgres', '--', join(bin, name), ...args]] : [join(bin, name), args];
    const result = spawnSync(command, commandArgs, { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' } });
    if (result.status !== 0) throw new Error(`${name} failed (${result.status}): ${result.stderr || result.stdout}`);
  };
  const data = join(dir, 'data');
  const port = await freePort();
  tool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  // No fsync: a throw-away cluster; the socket in its own folder (not /var/run/postgresql).
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=200`;
  const start = async () => tool('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  await start();
  const superuserUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    superuserUrl,
    async query(text, values = []) {
      const client = new pg.Client({ connectionString: superuserUrl });
      client.on('error', () => undefined);
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    stop: async () => tool('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    start,
    async close() {
      try {
        tool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
