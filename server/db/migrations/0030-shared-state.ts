import type { Kysely } from 'kysely';

/**
 * State several servers must share (issue 18 §2, server/README.md "What a server keeps in
 * memory, and why that is safe"):
 *
 * - `jobs.unique_key`: a periodic job (the expiry sweep, the escalation and session clean-ups)
 *   is one row per kind on the job queue, whoever inserts it first; every server tries at
 *   start (`on conflict do nothing`), the lease decides who runs it, and the run moves the row
 *   to the next period. Ordinary jobs leave it null (a unique index allows many nulls on
 *   SQLite and PostgreSQL).
 * - `cluster_facts`: facts every server must agree on, checked at start. Today one: the
 *   fingerprint of the key that seals TOTP secrets, so a server started with another key
 *   (its own data folder, no shared `KUVERT_SECRET_KEY`) refuses to start instead of failing
 *   every second-factor sign-in that lands on it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('unique_key', 'varchar(100)').execute();
  await db.schema.createIndex('jobs_unique_key').on('jobs').column('unique_key').unique().execute();
  await db.schema
    .createTable('cluster_facts')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cluster_facts').execute();
  await db.schema.dropIndex('jobs_unique_key').execute();
  await db.schema.alterTable('jobs').dropColumn('unique_key').execute();
}
