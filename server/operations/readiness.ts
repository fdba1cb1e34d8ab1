import { sql, Migrator } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { staticMigrationProvider } from '../db/migrations/index';
import { isDatabaseUnavailable } from '../db/availability';
import { createClamdClient } from '../virus-scan/clamd';

/** One check's deadline: a balancer polls every few seconds and must get an answer before its own timeout. */
export const READY_CHECK_TIMEOUT_MS = 3_000;

export type CheckName = 'database' | 'migrations' | 'blobStore' | 'mail' | 'virusScanner';
export type CheckResult = { status: 'ok' } | { status: 'skipped'; reason: string } | { status: 'failed'; reason: string };

export interface Readiness {
  ready: boolean;
  checks: Record<CheckName, CheckResult>;
}

/**
 * A reason the operator can act on without leaking anything: the error's code
 * (ECONNREFUSED, ETIMEDOUT, EAUTH, NoSuchBucket, …) or its class, never its message (an SMTP
 * or database error may quote a URL with a password).
 */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(code)) return code;
  const name = (error as Error | undefined)?.name;
  return typeof name === 'string' && name !== 'Error' && /^[A-Za-z0-9_]{1,64}$/.test(name) ? name : 'unavailable';
}

class CheckTimeoutError extends Error {
  override readonly name = 'Timeout';
}

async function run(check: () => Promise<void>, onFailure: (error: unknown) => void): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CheckTimeoutError(`no answer within ${READY_CHECK_TIMEOUT_MS} ms`)), READY_CHECK_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok' };
  } catch (error) {
    onFailure(error);
    return { status: 'failed', reason: reasonOf(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Migrations this code knows but the database has not run (or the database is ahead of this code). */
async function assertMigrationsCurrent(app: FastifyInstance, migrationSchema: string | undefined): Promise<void> {
  const migrator = new Migrator({ db: app.db, provider: staticMigrationProvider, ...(migrationSchema ? { migrationTableSchema: migrationSchema } : {}) });
  const known = await migrator.getMigrations();
  const pending = known.filter((m) => m.executedAt === undefined);
  if (pending.length > 0) throw Object.assign(new Error(`${pending.length} migration(s) not run`), { code: 'MigrationsPending' });
  const table = migrationSchema ? sql.table(`${migrationSchema}.kysely_migration`) : sql.table('kysely_migration');
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from ${table}`.execute(app.db);
  if (Number(rows[0]?.count ?? 0) > known.length) throw Object.assign(new Error('the database has migrations this server does not know'), { code: 'DatabaseNewerThanServer' });
}

/**
 * What `/readyz` reports: each part the server needs, checked now and side by side. Mail is
 * checked by the transport in use (the SMTP relay's greeting and login, or the mailbox folder);
 * the virus scanner only when KUVERT_CLAMD is set. Failures are logged in full for operators;
 * the answer names only the part and a code.
 */
export async function checkReadiness(app: FastifyInstance, options: { migrationSchema: string | undefined }): Promise<Readiness> {
  const log = (part: CheckName) => (err: unknown) => app.log.warn({ err, part }, 'readiness check failed');
  const clamdAddress = app.config.clamdAddress;
  // The mail route is a setting in the database: with the database away, mail is not known to be broken.
  let mailNeedsDatabase = false;
  const checkMail = async () => {
    try {
      await app.mailer.checkReady();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      mailNeedsDatabase = true;
    }
  };
  const [database, migrationsChecked, blobStore, mailChecked, virusScanner] = await Promise.all([
    run(async () => void (await sql`select 1`.execute(app.db)), log('database')),
    run(() => assertMigrationsCurrent(app, options.migrationSchema), () => undefined),
    run(() => app.blobs.checkReady(), log('blobStore')),
    run(checkMail, log('mail')),
    clamdAddress === undefined
      ? Promise.resolve<CheckResult>({ status: 'skipped', reason: 'KUVERT_CLAMD not set' })
      : run(async () => {
          const answered = await createClamdClient(clamdAddress, READY_CHECK_TIMEOUT_MS).ping();
          if (!answered) throw Object.assign(new Error('clamd did not answer PING'), { code: 'NoPong' });
        }, log('virusScanner')),
  ]);
  const needsDatabase: CheckResult = { status: 'skipped', reason: 'database unavailable' };
  const migrations = database.status === 'failed' ? needsDatabase : migrationsChecked;
  if (migrations.status === 'failed') log('migrations')(new Error(migrations.reason));
  const mail = mailNeedsDatabase ? needsDatabase : mailChecked;
  const checks = { database, migrations, blobStore, mail, virusScanner };
  return { ready: Object.values(checks).every((c) => c.status !== 'failed'), checks };
}
