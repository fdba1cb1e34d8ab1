import { Migrator, type Kysely } from 'kysely';
import { staticMigrationProvider } from './migrations/index';
import type { Database } from './schema';

/**
 * Brings the database to the newest schema; throws (naming the migration) when one fails.
 *
 * NB: on PostgreSQL with a schema of its own (`schema`), Kysely must be told it: otherwise it
 * finds its bookkeeping tables in *another* schema of the same database (introspection looks
 * at all of them), skips creating its own, and then fails with "relation kysely_migration_lock
 * does not exist" — seen when test servers with one schema each start side by side.
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: staticMigrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
}
