import { sql, type Kysely } from 'kysely';

/**
 * Keyset paging of the inbox and sent lists (issue 5): both walk an index newest first, so a
 * page costs the same with 100 000 deliveries in one inbox as with 1 000.
 *
 * The inbox sorts by the delivery's `sent_at`, which lives on `deliveries` while the inbox is
 * selected by address on `delivery_recipients`; no single index can serve both. So each
 * recipient row carries `listed_at`: the delivery's `sent_at` while it is in that inbox, null
 * while a draft, after the sender deleted it or the recipient removed it. The inbox (and its
 * capped count) then walks `(email, listed_at, delivery_id)` alone; `downloaded_at` rides along
 * so the "not downloaded" count needs no table look-ups either.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('delivery_recipients').addColumn('listed_at', 'bigint').execute();
  await sql`update delivery_recipients set listed_at = (select d.sent_at from deliveries d where d.id = delivery_recipients.delivery_id and d.status = 'sent') where removed_at is null`.execute(db);
  await db.schema.createIndex('delivery_recipients_inbox').on('delivery_recipients').columns(['email', 'listed_at', 'delivery_id', 'downloaded_at']).execute();
  // The sent list: with `id` last, PostgreSQL serves (sent_at desc, id desc) and its keyset from the
  // index too (SQLite appends the rowid to every index anyway).
  await db.schema.dropIndex('deliveries_sender').execute();
  await db.schema.createIndex('deliveries_sender').on('deliveries').columns(['sender_id', 'status', 'sent_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('deliveries_sender').execute();
  await db.schema.createIndex('deliveries_sender').on('deliveries').columns(['sender_id', 'status', 'sent_at']).execute();
  await db.schema.dropIndex('delivery_recipients_inbox').execute();
  await db.schema.alterTable('delivery_recipients').dropColumn('listed_at').execute();
}
