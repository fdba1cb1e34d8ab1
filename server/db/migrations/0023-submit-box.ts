import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * The submit box (issue 16 §1): one box per owner and the single-use tickets. A ticket's token is
 * stored as its SHA-256 only; `used_at` is set once by an atomic UPDATE … WHERE used_at IS NULL
 * (the submission's start), `delivery_id` and `session_id` name the draft and the limited session
 * the use created.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('submit_boxes')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('active', 'integer', (c) => c.notNull())
    // JSON array of wire security levels.
    .addColumn('allowed_levels', 'text', (c) => c.notNull())
    .addColumn('validity_days', 'integer')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('submit_tickets')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('box_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('delivery_id', 'integer', (c) => c.references('deliveries.id').onDelete('set null'))
    .addColumn('session_id', 'text')
    .execute();
  await db.schema.createIndex('submit_tickets_session').on('submit_tickets').column('session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('submit_tickets').execute();
  await db.schema.dropTable('submit_boxes').execute();
}
