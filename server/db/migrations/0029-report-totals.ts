import { sql, type Kysely } from 'kysely';

/**
 * Reports at a million deliveries (issue 17 §3, server/README.md "Reports"; tests/bench/reports.ts).
 *
 * - Downloads: a `downloaded` activity row carries its delivery's `security_level` and its UTC
 *   `day` (created_at / 86 400 000), both written with the row (server/deliveries/downloads.ts)
 *   and back-filled here; null on every other kind. The downloads report then walks one index,
 *   `delivery_activity_downloads (kind, day, security_level, recipient_id)`, in its own order — no
 *   join with deliveries and no sort. It replaces 0025's `delivery_activity_report`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('delivery_activity').addColumn('security_level', 'integer').execute();
  await db.schema.alterTable('delivery_activity').addColumn('day', 'integer').execute();
  await sql`update delivery_activity set day = created_at / 86400000,
    security_level = (select d.security_level from deliveries d where d.id = delivery_activity.delivery_id)
    where kind = 'downloaded'`.execute(db);
  await db.schema.dropIndex('delivery_activity_report').execute();
  await db.schema.createIndex('delivery_activity_downloads').on('delivery_activity').columns(['kind', 'day', 'security_level', 'recipient_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('delivery_activity_downloads').execute();
  await db.schema.createIndex('delivery_activity_report').on('delivery_activity').columns(['kind', 'created_at', 'delivery_id', 'recipient_id']).execute();
  await db.schema.alterTable('delivery_activity').dropColumn('day').execute();
  await db.schema.alterTable('delivery_activity').dropColumn('security_level').execute();
}
