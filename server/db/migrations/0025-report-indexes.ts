import { sql, type Kysely } from 'kysely';

/**
 * Reports (issue 17 §3, server/README.md "Reports"): what the SQL aggregates need to stay fast
 * on a million deliveries (tests/bench/reports.ts).
 *
 * - `deliveries.sent_day` (UTC day number = sent_at / 86 400 000) and `deliveries.recipient_count`
 *   (recipient rows at send), both written once by the send (server/deliveries/sending.ts) and
 *   back-filled here; null while a draft. With them the deliveries and senders reports read one
 *   index, `deliveries_report (sent_day, security_level, sender_id, recipient_count)`, in its own
 *   order: no join with a million recipient rows, no sort of a million rows.
 * - `delivery_activity_report (kind, created_at, delivery_id, recipient_id)`: the downloads report.
 * - `delivery_files_committed (committed_at)`: "added in the range" of the storage report.
 * - `user_active_days (day, user_id)`: a user counts as active on a UTC day when a session of
 *   theirs was created or used that day (written by server/sessions at sign-in and when a session
 *   is first used on a new day). Sessions themselves are deleted at sign-out and expiry, so they
 *   cannot answer "who was active last March".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('deliveries').addColumn('sent_day', 'integer').execute();
  await db.schema.alterTable('deliveries').addColumn('recipient_count', 'integer').execute();
  await sql`update deliveries set sent_day = sent_at / 86400000,
    recipient_count = (select count(*) from delivery_recipients r where r.delivery_id = deliveries.id)
    where sent_at is not null`.execute(db);
  await db.schema.createIndex('deliveries_report').on('deliveries').columns(['sent_day', 'security_level', 'sender_id', 'recipient_count']).execute();
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
  await db.schema.alterTable('deliveries').dropColumn('recipient_count').execute();
  await db.schema.alterTable('deliveries').dropColumn('sent_day').execute();
}
