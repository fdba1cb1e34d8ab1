import { sql, type Kysely } from 'kysely';
import { databaseKindOf } from './database';
import type { Database } from './schema';

/**
 * First-run work (migrations, the first administrator, settings it seeds) runs under one lock per
 * database, so servers started together (`systemctl enable --now kuvert@8081 kuvert@8082 …` on an
 * empty database) take turns instead of racing: the first does the work, the others find it done.
 * PostgreSQL: a session advisory lock keyed by the schema in use (test runs each use their own), held
 * on one pooled connection while `work` runs on the others; PostgreSQL releases it by itself should
 * that connection die. SQLite is one server's file and needs no lock.
 */
export async function withStartLock<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  if (databaseKindOf(db as unknown as Kysely<unknown>) !== 'postgres') return work();
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext('kuvert-start:' || current_schema()))`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtext('kuvert-start:' || current_schema()))`.execute(connection).catch(() => undefined);
    }
  });
}
