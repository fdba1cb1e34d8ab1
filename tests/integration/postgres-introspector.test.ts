// The PostgreSQL introspector the Migrator and backup's checks use (server/db/postgres-introspector.ts):
// it sees only the schema in use, and holds while other sessions drop schemas and tables beside it
// (Kysely's own failed with "schema … does not exist" when a test run dropped its schema meanwhile).
// PostgreSQL only.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropPostgresSchema, openDatabase } from '@server/db/database';
import { migrateToLatest } from '@server/db/migrate';
import pg from 'pg';
import { expect, it } from 'vitest';

const url = process.env.KUVERT_TEST_DATABASE_URL;

it.skipIf(!url)('lists only the schema in use and holds while other sessions drop schemas and tables', { timeout: 60_000 }, async () => {
  const own = `test_intro_${randomBytes(4).toString('hex')}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'kuvert-introspector-'));
  const churn = new pg.Client({ connectionString: url });
  await churn.connect();
  let stop = false;
  let churned = 0;
  // Another session makes and drops schemas with tables, as parallel test runs do.
  const churning = (async () => {
    while (!stop) {
      const other = `test_churn_${randomBytes(4).toString('hex')}`;
      await churn.query(`CREATE SCHEMA "${other}"`);
      await churn.query(`CREATE TABLE "${other}".t (id serial primary key, name text)`);
      await churn.query(`DROP TABLE "${other}".t`);
      await churn.query(`CREATE TABLE "${other}".u (id integer generated always as identity)`);
      await churn.query(`DROP SCHEMA "${other}" CASCADE`);
      churned += 1;
    }
  })();
  const handle = await openDatabase({ dataDir, databaseUrl: url!, databaseSchema: own, poolSize: 2 });
  try {
    await migrateToLatest(handle.db, own);
    for (let round = 0; round < 40; round += 1) {
      const tables = await handle.db.introspection.getTables();
      expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([own]));
      expect(tables.map((t) => t.name)).toContain('users');
      expect(tables.map((t) => t.name)).not.toContain('kysely_migration');
      expect((await handle.db.introspection.getSchemas()).map((s) => s.name)).toEqual([own]);
      // The Migrator asks the introspector on every run, also when nothing is pending.
      await migrateToLatest(handle.db, own);
    }
    const withInternal = await handle.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(withInternal.map((t) => t.name)).toContain('kysely_migration');
    const users = withInternal.find((t) => t.name === 'users')!;
    expect(users.columns.find((c) => c.name === 'id')).toMatchObject({ isAutoIncrementing: true, isNullable: false });
    expect(users.columns.find((c) => c.name === 'email')).toMatchObject({ isAutoIncrementing: false });
    expect(churned).toBeGreaterThan(0);
  } finally {
    stop = true;
    await churning;
    await churn.end();
    await handle.close();
    await dropPostgresSchema(url!, own);
    await rm(dataDir, { recursive: true, force: true });
  }
});
