import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * The database job queue (DESIGN §5: jobs live in the database so several servers share
 * them and a restart resumes them) and the per-file virus-scan state (SPEC §4).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('jobs')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    // 'pending' | 'running' | 'failed' (done jobs are deleted).
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    // A running job whose lease ran out belongs to a server that died: anyone may take it.
    .addColumn('locked_until', 'bigint')
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The poll: due pending jobs and expired leases.
  await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_at']).execute();

  await db.schema.alterTable('delivery_files').addColumn('scan_state', 'text', (c) => c.notNull().defaultTo('notScanned')).execute();
  // Virus names, the scanner's error, or the forbidden type the content sniff found.
  await db.schema.alterTable('delivery_files').addColumn('scan_detail', 'text').execute();
  await db.schema.alterTable('delivery_files').addColumn('scanned_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('delivery_files').dropColumn('scanned_at').execute();
  await db.schema.alterTable('delivery_files').dropColumn('scan_detail').execute();
  await db.schema.alterTable('delivery_files').dropColumn('scan_state').execute();
  await db.schema.dropTable('jobs').execute();
}
