// A real clamd for the virus-scan tests: its own process on a unix socket in a temp folder,
// with a one-signature database the helper writes (the EICAR test string; nothing is ever
// downloaded). CI installs Debian's clamav-daemon (.ci/run); locally the tests skip with a
// message when /usr/sbin/clamd is missing, never in CI.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClamdClient } from '../../server/virus-scan/clamd';

export const CLAMD_BINARY = process.env.KUVERT_TEST_CLAMD || '/usr/sbin/clamd';

/** The EICAR anti-virus test file (https://www.eicar.org): harmless, detected by design. */
export const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*', 'ascii');
/** Our signature's name; clamd reports it with `.UNOFFICIAL` appended (not a ClamAV-signed database). */
export const EICAR_SIGNATURE = 'Kuvert.Test.EICAR';

/** Why the clamd tests cannot run here, or null. Missing clamd only skips outside CI. */
export function clamdUnavailable(): string | null {
  if (existsSync(CLAMD_BINARY)) return null;
  if (process.env.CI) throw new Error(`${CLAMD_BINARY} is missing but CI is set: .ci/run installs clamav-daemon, the virus-scan tests must run`);
  return `${CLAMD_BINARY} not found: virus-scan tests skipped (apt-get install clamav-daemon to run them)`;
}

export interface TestClamd {
  /** The unix socket path (what KUVERT_CLAMD takes). */
  socket: string;
  /** The same clamd over TCP on 127.0.0.1: `tcp://127.0.0.1:port`. */
  tcpAddress: string;
  /** SIGSTOP / SIGCONT: clamd accepts connections but never answers (a hung scanner). */
  freeze(): void;
  thaw(): void;
  /** Starts clamd (again) and waits for PONG. */
  start(): Promise<void>;
  /** Stops clamd (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Stops it and removes the folder. */
  dispose(): Promise<void>;
}

/** A port nobody listens on right now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startTestClamd(): Promise<TestClamd> {
  const dir = await mkdtemp(join(tmpdir(), 'kuvert-clamd-'));
  const socket = join(dir, 'clamd.sock');
  const port = await freePort();
  await mkdir(join(dir, 'db'));
  await mkdir(join(dir, 'tmp'));
  // An extended (.ndb) signature: the EICAR bytes anywhere in any file type.
  await writeFile(join(dir, 'db', 'kuvert-test.ndb'), `${EICAR_SIGNATURE}:0:*:${EICAR.toString('hex')}\n`);
  await writeFile(
    join(dir, 'clamd.conf'),
    [
      'Foreground yes',
      `LocalSocket ${socket}`,
      `TCPSocket ${port}`,
      'TCPAddr 127.0.0.1',
      `DatabaseDirectory ${join(dir, 'db')}`,
      `TemporaryDirectory ${join(dir, 'tmp')}`,
      `LogFile ${join(dir, 'clamd.log')}`,
      // The tests' files are small; the default 25M would also do.
      'StreamMaxLength 64M',
      '',
    ].join('\n'),
  );
  const client = createClamdClient({ kind: 'unix', path: socket }, 2000);
  let child: ChildProcess | null = null;

  async function start(): Promise<void> {
    if (child) return;
    const proc = spawn(CLAMD_BINARY, ['--config-file', join(dir, 'clamd.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = proc;
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    let exited = false;
    proc.once('exit', () => {
      exited = true;
      if (child === proc) child = null;
    });
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      if (exited) break;
      if (await client.ping()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    const log = await readFile(join(dir, 'clamd.log'), 'utf8').catch(() => '');
    proc.kill('SIGKILL');
    throw new Error(`clamd did not answer PING:\n${stderr}\n${log.slice(-2000)}`);
  }

  async function stop(): Promise<void> {
    const proc = child;
    if (!proc) return;
    proc.kill('SIGCONT');
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child === proc) {
      proc.kill('SIGKILL');
      await exited;
    }
  }

  await start();
  return {
    socket,
    tcpAddress: `tcp://127.0.0.1:${port}`,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    start,
    stop,
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
