import type { Kysely } from 'kysely';

/**
 * Reports (issue 17 §3, server/README.md "Reports"): the indexes the SQL aggregates walk, and
 * the one table they could not do without.
 *
 * - `deliveries_report (sent_at, security_level, sender_id)`: the deliveries and active-senders
 *   reports read only these columns of a date range, so they scan the index alone (covering).
 * - `delivery_activity_report (kind, created_at, delivery_id, recipient_id)`: the downloads report.
 * - `delivery_files_committed (committed_at)`: "added in the range" of the storage report.
 * - `user_active_days (day, user_id)`: a user counts as active on a UTC day (day number =
 *   epoch ms / 86 400 000) when a session of theirs was created or used that day (written by
 *   server/sessions at sign-in and at the session's touch). Sessions themselves are deleted at
 *   sign-out and expiry, so they cannot answer "who was active last March".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('deliveries_report').on('deliveries').columns(['sent_at', 'security_level', 'sender_id']).execute();
  await db.schema.createIndex('delivery_activity_report').on('delivery_activity').columns(['kind', 'created_at', 'delivery_id', 'recipient_id']).execute();
  await db.schema.createIndex('delivery_files_committed').on('delivery_files').column('committed_at').execute();
  await db.schema
    .createTable('user_active_days')
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_active_days_pk', ['day', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_active_days').execute();
  await db.schema.dropIndex('delivery_files_committed').execute();
  await db.schema.dropIndex('delivery_activity_report').execute();
  await db.schema.dropIndex('deliveries_report').execute();
}
