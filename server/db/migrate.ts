import { Migrator, type Kysely } from 'kysely';
import { staticMigrationProvider } from './migrations/index';
import type { Database } from './schema';

/** Brings the database to the newest schema; throws (naming the migration) when one fails. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: staticMigrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
}
