// What every migration test starts from: a database of its own (SQLite in a temp folder, or a
// throwaway PostgreSQL schema when KUVERT_TEST_DATABASE_URL is set), migrated only as far as the
// test says, and removed afterwards whatever happened.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropPostgresSchema, openDatabase, type DatabaseHandle } from '@server/db/database';
import { staticMigrationProvider } from '@server/db/migrations/index';
import { Migrator } from 'kysely';

export interface MigrationDatabase {
  db: DatabaseHandle['db'];
  migrator: Migrator;
}

export async function withMigrationDatabase(run: (database: MigrationDatabase) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kuvert-migration-'));
  const databaseUrl = process.env.KUVERT_TEST_DATABASE_URL || undefined;
  const databaseSchema = databaseUrl ? `test_mig_${randomBytes(4).toString('hex')}` : undefined;
  const handle = await openDatabase({ dataDir, ...(databaseUrl ? { databaseUrl } : {}), ...(databaseSchema ? { databaseSchema } : {}), poolSize: 2 });
  try {
    const migrator = new Migrator({ db: handle.db, provider: staticMigrationProvider, ...(databaseSchema ? { migrationTableSchema: databaseSchema } : {}) });
    await run({ db: handle.db, migrator });
  } finally {
    await handle.close();
    if (databaseUrl && databaseSchema) await dropPostgresSchema(databaseUrl, databaseSchema);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A bare sender row (the columns every migration since 0001 has), for seeding old shapes. */
export async function insertSender(db: MigrationDatabase['db']): Promise<{ id: number }> {
  return db
    .insertInto('users')
    .values({ uuid: randomUUID(), username: 'sender', email: 'sender@example.test', password_hash: 'x', first_name: 'S', last_name: 'S', language: 'en', roles: '[]', created_at: 1, updated_at: 1 } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
}
