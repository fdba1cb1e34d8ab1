import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Flows (issue 16 §3): a form's process-service option (`form_flows`, one row per form that has
 * one; the webhook secret sealed with the server key) and one hand-off per submission of such a
 * form (`flow_hand_offs`: the submission's JSON, the webhook state, attempts and last error).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('form_flows')
    .addColumn('form_id', 'integer', (c) => c.primaryKey().references('forms.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('webhook_url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('secret_created_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('flow_hand_offs')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('form_id', 'integer', (c) => c.references('forms.id').onDelete('set null'))
    .addColumn('form_name', 'text', (c) => c.notNull())
    // The delivery may expire and go; its id stays readable as text.
    .addColumn('delivery_id', 'integer', (c) => c.references('deliveries.id').onDelete('set null'))
    .addColumn('delivery_uuid', 'text', (c) => c.notNull())
    .addColumn('security_level', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    // submission.json (levels 1–2); null at levels 3/4.
    .addColumn('submission', 'text')
    // The delivery file submission.json was attached as (at the send), so a repeated send attaches it once.
    .addColumn('file_uuid', 'text')
    // Lower-cased form name and JSON: what `q` searches.
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema.createIndex('flow_hand_offs_delivery').on('flow_hand_offs').column('delivery_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('flow_hand_offs').execute();
  await db.schema.dropTable('form_flows').execute();
}
