import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Data-room requests (issue 15 §2, server/README "Data-room requests"): an OWNER or EDITOR asks an
 * address for files for a folder; the mailed token is stored as its SHA-256 only. `delivery_id` is
 * the answering delivery's draft (set when the sender starts it); `used_at` marks the send (single
 * use), `copied_at` the files copied into the folder.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('room_requests')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    // null: the room's top level.
    .addColumn('folder_id', 'integer', (c) => c.references('room_folders.id').onDelete('cascade'))
    .addColumn('requester_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Lower-cased address asked for files.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('delivery_id', 'integer', (c) => c.references('deliveries.id').onDelete('set null'))
    .addColumn('used_at', 'bigint')
    .addColumn('copied_at', 'bigint')
    .addColumn('files_copied', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON array of the delivery file uuids copied so far (a retried copy job skips them).
    .addColumn('copied_files', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('room_requests_room').on('room_requests').columns(['room_id', 'created_at']).execute();
  await db.schema.createIndex('room_requests_email').on('room_requests').columns(['email']).execute();
  await db.schema.createIndex('room_requests_delivery').on('room_requests').columns(['delivery_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_requests').execute();
}
