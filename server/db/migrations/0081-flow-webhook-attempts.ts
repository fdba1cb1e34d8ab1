import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Issue 33 §3: the webhook's delivery log (server/forms/flow-attempts.ts). One row per POST to a
 * form's webhook — a hand-off's attempt or a test — with the status code (null: not reached), the
 * duration and our error text; the newest 50 per form are kept, and they go with their form.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('flow_webhook_attempts')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('form_id', 'integer', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('hand_off_id', 'integer', (c) => c.references('flow_hand_offs.id').onDelete('set null'))
    .addColumn('test', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'varchar(500)')
    .execute();
  await db.schema.createIndex('flow_webhook_attempts_form').on('flow_webhook_attempts').columns(['form_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('flow_webhook_attempts').execute();
}
