import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Issue 31 §1 (server/README "Comments, classification and file status"): comments on a room's
 * files and folders, and the SPEC §4 classification and file status of plain-room files and
 * folders. A comment goes with its room, file or folder (cascade); its author's account may go
 * (author_id null). In a Secure room `text` holds the sealed comment and `signature` its author's
 * signature (the server never sees the text); plain rooms leave `signature` null.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('room_comments')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    .addColumn('folder_id', 'integer', (c) => c.references('room_folders.id').onDelete('cascade'))
    .addColumn('file_id', 'integer', (c) => c.references('room_files.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('signature', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('room_comments_item').on('room_comments').columns(['room_id', 'file_id', 'folder_id', 'id']).execute();
  for (const table of ['room_files', 'room_folders']) {
    await db.schema.alterTable(table).addColumn('classification', 'text', (c) => c.notNull().defaultTo('none')).execute();
    await db.schema.alterTable(table).addColumn('file_status', 'text', (c) => c.notNull().defaultTo('none')).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['room_files', 'room_folders']) {
    await db.schema.alterTable(table).dropColumn('file_status').execute();
    await db.schema.alterTable(table).dropColumn('classification').execute();
  }
  await db.schema.dropTable('room_comments').execute();
}
