import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Who may send what (SPEC §3 senders, administrator's group settings):
 * - `users.licensed`: licensed senders. Existing accounts (made by administrators, the wizard or the
 *   first start) are licensed; delivery signup makes unlicensed ones.
 * - `sender_groups` with their allowed security levels, `users.sender_group_id` (none = global levels).
 * - `share_proofs`: the level-1 email prompt's short-lived proof (hash of the cookie value) bound to
 *   one share, so the link token alone no longer opens a level-1 delivery.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('sender_groups')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    // JSON array of SPEC §4 level wire values (0, 10, 20, 30).
    .addColumn('levels', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('users').addColumn('licensed', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema
    .alterTable('users')
    .addColumn('sender_group_id', 'integer', (c) => c.references('sender_groups.id').onDelete('set null'))
    .execute();
  await db.schema
    .createTable('share_proofs')
    // SHA-256 hex of the cookie value: a database leak hands out no proof.
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('recipient_id', 'integer', (c) => c.notNull().references('delivery_recipients.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_proofs_expires_at').on('share_proofs').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('share_proofs').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('sender_group_id').execute();
  await db.schema.alterTable('users').dropColumn('licensed').execute();
  await db.schema.dropTable('sender_groups').ifExists().execute();
}
