import { Migrator, sql, type Kysely } from 'kysely';
import { databaseKindOf } from './database';
import { staticMigrationProvider } from './migrations/index';
import type { Database } from './schema';

/**
 * PostgreSQL: the schema the connection works in (search_path). Kysely's Migrator looks for its
 * lock and migration tables in EVERY schema unless told which one, so another schema's tables
 * (parallel test runs, each in its own schema) made it skip creating ours and fail with
 * `relation "kysely_migration_lock" does not exist`.
 */
async function migrationTableSchema(db: Kysely<Database>): Promise<string | undefined> {
  if (databaseKindOf(db as unknown as Kysely<unknown>) !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? undefined;
}

/** Brings the database to the newest schema; throws (naming the migration) when one fails. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const schema = await migrationTableSchema(db);
  const migrator = new Migrator({ db, provider: staticMigrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
}
