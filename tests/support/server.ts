// Starts a real Kuvert server for tests: listening on 127.0.0.1 on a free port, SQLite
// in a fresh temp folder, or PostgreSQL in a fresh schema when KUVERT_TEST_DATABASE_URL
// is set. Used by the Vitest integration suite and by the Playwright tests.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type KuvertApp } from '../../server/app';
import { parseConfig, type KuvertConfigInput } from '../../server/config';
import { dropPostgresSchema } from '../../server/db/database';
import { ensureFirstAdmin } from '../../server/setup/first-admin';
import { copyMigratedSqlite, createMigratedSchema } from './migrated-template';

export interface TestServerOptions {
  /** Configuration overrides (e.g. smtpUrl, webRoot, publicUrl). webRoot defaults to ./dist/web. */
  config?: KuvertConfigInput;
  /** false: leave the database without an administrator (installation wizard tests). */
  admin?: false | { email: string; password: string };
  /** Start on the data of an earlier server stopped with `close({ keepData: true })` (restart tests). */
  reuse?: { dataDir: string; databaseSchema: string | undefined };
  /** PostgreSQL: this database with its default schema instead of a fresh schema of KUVERT_TEST_DATABASE_URL (the caller makes and drops it). */
  databaseUrl?: string;
  /** SQLite even when KUVERT_TEST_DATABASE_URL is set (two servers of a test on both kinds of database). */
  sqlite?: true;
  /**
   * The public links' clock (`app.clock`, server/README "The links' clock"), e.g. `() => Date.now() + shift`:
   * a test moves it past a link's date instead of waiting or faking the process's own time.
   */
  clock?: () => number;
  /** Receives the server's real log (the production logger with its redaction, at `config.logLevel`, default debug). */
  logStream?: { write(line: string): void };
}

export interface TestServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  app: KuvertApp;
  dataDir: string;
  /** Where mails land while no SMTP URL is configured. */
  mailboxDir: string;
  admin: { email: string; password: string };
  /** PostgreSQL only: this server's schema. */
  databaseSchema: string | undefined;
  /** keepData: stop the server only, so `startTestServer({ reuse })` can start again on its data. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export const TEST_ADMIN = { email: 'admin@example.test', password: 'Admin-Passw0rd-1' } as const;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.reuse?.dataDir ?? (await mkdtemp(join(tmpdir(), 'kuvert-test-')));
  const databaseUrl = options.sqlite ? undefined : (options.databaseUrl ?? (process.env.KUVERT_TEST_DATABASE_URL || undefined));
  const databaseSchema = options.reuse || options.databaseUrl ? options.reuse?.databaseSchema : databaseUrl ? `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}` : undefined;
  // A new database starts as a copy of one migrated once per process (see migrated-template.ts).
  if (!options.reuse && !options.databaseUrl) {
    if (databaseUrl && databaseSchema) await createMigratedSchema(databaseUrl, databaseSchema);
    else if (!databaseUrl) await copyMigratedSqlite(dataDir);
  }
  const config = parseConfig({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl,
    // The built web client when there is one (Playwright runs after `npm run build`).
    webRoot: join(process.cwd(), 'dist', 'web'),
    logLevel: options.logStream ? 'debug' : 'silent',
    // OWASP's minimum Argon2 cost: thousands of sign-ins per suite at a sixth of the CPU.
    passwordHashing: 'minimum',
    ...options.config,
  });
  // Small pools: many test servers share one PostgreSQL (max_connections 100 by default).
  const app = await buildApp({
    config,
    databaseSchema,
    databasePoolSize: 3,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
  });
  const admin = options.admin === false ? { email: '', password: '' } : (options.admin ?? { ...TEST_ADMIN });
  if (options.admin !== false && !options.reuse) await ensureFirstAdmin(app, admin);

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('test server has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  // Links in mails must point at this very server.
  if (!options.config?.publicUrl) (app.config as { publicUrl: string }).publicUrl = url;

  return {
    url,
    app,
    dataDir,
    mailboxDir: join(dataDir, 'mailbox'),
    admin,
    databaseSchema,
    async close(closeOptions = {}) {
      await app.close();
      if (closeOptions.keepData) return;
      if (databaseUrl && databaseSchema) await dropPostgresSchema(databaseUrl, databaseSchema);
      // A mail still being written by a request that outlived close (e.g. a download receipt) can make the
      // first rmdir see ENOTEMPTY; rm retries exactly those races.
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}
