import { sql, type Kysely } from 'kysely';

/**
 * Reports at a million deliveries (issue 17 §3, server/README.md "Reports"; tests/bench/reports.ts).
 *
 * - Downloads: a `downloaded` activity row carries its delivery's `security_level` and its UTC
 *   `day` (created_at / 86 400 000), both written with the row (server/deliveries/downloads.ts)
 *   and back-filled here; null on every other kind. The downloads report then walks one index,
 *   `delivery_activity_downloads (kind, day, security_level, recipient_id)`, in its own order — no
 *   join with deliveries and no sort. It replaces 0025's `delivery_activity_report`.
 * - Storage: running totals instead of a sum over every file. `storage_totals (area, files, bytes)`
 *   is what each area stores now; `storage_added_days (area, day, files, bytes)` what it committed
 *   per UTC day. `delivery_files.stored` is 1 while a committed file counts (server/deliveries/
 *   stored-files.ts moves flag and totals in one transaction). Back-filled from the files: committed
 *   ones of deliveries neither purged nor deleted count now (a sender's delete removes the bytes;
 *   0025's sum still counted them); every committed file counts as added on its day. Data rooms
 *   start at 0. It replaces 0025's `delivery_files_committed`.
 * - Senders: `sender_days (day, sender_id)`, one row per user and UTC day with a send (written by
 *   the send, server/reports/sender-days.ts; back-filled from `deliveries.sent_day`), so distinct
 *   senders read days × senders rows, not every delivery.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('delivery_activity').addColumn('security_level', 'integer').execute();
  await db.schema.alterTable('delivery_activity').addColumn('day', 'integer').execute();
  await sql`update delivery_activity set day = created_at / 86400000,
    security_level = (select d.security_level from deliveries d where d.id = delivery_activity.delivery_id)
    where kind = 'downloaded'`.execute(db);
  await db.schema.dropIndex('delivery_activity_report').execute();
  await db.schema.createIndex('delivery_activity_downloads').on('delivery_activity').columns(['kind', 'day', 'security_level', 'recipient_id']).execute();

  await db.schema.alterTable('delivery_files').addColumn('stored', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update delivery_files set stored = 1 where status = 'committed'
    and delivery_id in (select id from deliveries where purged_at is null and status <> 'deleted')`.execute(db);
  await db.schema
    .createTable('storage_totals')
    .addColumn('area', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('files', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into storage_totals (area, files, bytes)
    select 'secureMails', count(*), coalesce(sum(size), 0) from delivery_files where stored = 1`.execute(db);
  // Room files (0026) count from their commit until they are purged (trashed ones still hold bytes).
  await sql`insert into storage_totals (area, files, bytes)
    select 'dataRooms', count(*), coalesce(sum(size), 0) from room_files where state = 'complete'`.execute(db);
  await db.schema
    .createTable('storage_added_days')
    .addColumn('area', 'varchar(32)', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('files', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('storage_added_days_pk', ['area', 'day'])
    .execute();
  await sql`insert into storage_added_days (area, day, files, bytes)
    select 'secureMails', committed_at / 86400000, count(*), sum(size) from delivery_files
    where status = 'committed' and committed_at is not null group by committed_at / 86400000`.execute(db);
  await db.schema.dropIndex('delivery_files_committed').execute();

  await db.schema
    .createTable('sender_days')
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('sender_days_pk', ['day', 'sender_id'])
    .execute();
  await sql`insert into sender_days (day, sender_id) select distinct sent_day, sender_id from deliveries where sent_day is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sender_days').execute();
  await db.schema.createIndex('delivery_files_committed').on('delivery_files').column('committed_at').execute();
  await db.schema.dropTable('storage_added_days').execute();
  await db.schema.dropTable('storage_totals').execute();
  await db.schema.alterTable('delivery_files').dropColumn('stored').execute();
  await db.schema.dropIndex('delivery_activity_downloads').execute();
  await db.schema.createIndex('delivery_activity_report').on('delivery_activity').columns(['kind', 'created_at', 'delivery_id', 'recipient_id']).execute();
  await db.schema.alterTable('delivery_activity').dropColumn('day').execute();
  await db.schema.alterTable('delivery_activity').dropColumn('security_level').execute();
}
