// Starts the real start command (src/server/main.ts) as a child process, so a test can
// SIGKILL it like a crash and start it again on the same data folder. SQLite only: the
// child gets a clean environment (no DATABASE_URL), a fixed port and its own data folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** tsx's first start compiles the server; on a busy 2-core machine that takes a few seconds. */
const START_TIMEOUT_MS = 30_000;

/** A port free right now (the kernel's pick), to reuse for every start of one child server. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  probe.close();
  await once(probe, 'close');
  return address.port;
}

export interface ChildServerOptions {
  dataDir: string;
  port: number;
  admin: { email: string; password: string };
  /** Extra environment (e.g. KUVERT_UPLOAD_PART_SIZE). */
  env?: Record<string, string>;
  /** Sees the child's output as it comes, before the start finishes (tests/faults waits for a log line). */
  onOutput?: (text: string) => void;
  /** How long the start may take (default 30 s); several servers starting together on a fresh database take longer. */
  startTimeoutMs?: number;
}

export interface ChildServer {
  url: string;
  process: ChildProcess;
  /** What the child wrote (stdout, where the JSON log goes, then stderr). */
  output(): string;
  /** SIGKILL, as a crash: no shutdown hook runs. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** Graceful stop (SIGTERM), then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** Starts `node --import tsx src/server/main.ts` (one process: SIGKILL hits the server itself, not a wrapper). */
export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(options.port),
      KUVERT_DATA_DIR: options.dataDir,
      KUVERT_ADMIN_EMAIL: options.admin.email,
      KUVERT_ADMIN_PASSWORD: options.admin.password,
      KUVERT_LOG_LEVEL: 'warn',
      KUVERT_PASSWORD_HASHING: 'minimum',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    options.onOutput?.(out);
  });
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const url = `http://127.0.0.1:${options.port}`;
  const startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
  const deadline = Date.now() + startTimeoutMs;
  // main.ts prints "Kuvert is running at …" once it listens.
  while (!out.includes('Kuvert is running at')) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited (${child.exitCode ?? child.signalCode}): ${err || out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within ${startTimeoutMs} ms: ${err || out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    url,
    process: child,
    output: () => `${out}${err}`,
    async kill() {
      if (gone()) return;
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (gone()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
