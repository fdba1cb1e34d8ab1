import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Public links to a folder of a plain room (issue 32 §2, server/README "Public links to room
 * folders"): `kind` 'folder' (list and download) or 'drop' (upload only). A table of their own rather
 * than `room_links` with a nullable `file_id`: SQLite cannot drop a NOT NULL in place (it would mean
 * rebuilding `room_links` with its rows and indexes), and the file links keep their code and states
 * untouched. Token as its SHA-256 only; password as its Argon2id hash; with the folder and room
 * (cascade). `room_files.drop_link_id` marks an upload made through a drop link, so only that link's
 * token may add its parts and commit it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('room_folder_links')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    .addColumn('folder_id', 'integer', (c) => c.notNull().references('room_folders.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('uploads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_downloads', 'integer')
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('room_folder_links_folder').on('room_folder_links').columns(['folder_id', 'created_at']).execute();
  await db.schema.alterTable('room_files').addColumn('drop_link_id', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('room_files').dropColumn('drop_link_id').execute();
  await db.schema.dropTable('room_folder_links').execute();
}
