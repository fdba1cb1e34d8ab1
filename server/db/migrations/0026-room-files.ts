import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Files in plain data rooms (issue 15, server/README "Data rooms"): the files (uploaded through
 * the resumable parts of server/uploads, bytes under `blob_prefix`), their parts while uploading,
 * and the room activity log (SPEC §4 activity types). A deleted file goes to the trash
 * (`deleted_at`); its bytes stay until it is purged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  const id = (name: string) =>
    db.schema.createTable(name).addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()));
  await id('room_files')
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    // null: at the room's top level.
    .addColumn('folder_id', 'integer', (c) => c.references('room_folders.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('part_size', 'integer', (c) => c.notNull())
    .addColumn('part_count', 'integer', (c) => c.notNull())
    // SHA-256 of the whole file, computed at the commit.
    .addColumn('sha256', 'text')
    .addColumn('blob_prefix', 'text', (c) => c.notNull())
    // 'uploading' until the commit, then 'complete'.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .addColumn('deleted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('room_files_folder').on('room_files').columns(['room_id', 'folder_id']).execute();
  await db.schema
    .createTable('room_file_parts')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('room_files.id').onDelete('cascade'))
    .addColumn('part_index', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('room_file_parts_pk', ['file_id', 'part_index'])
    .execute();
  await id('room_activity')
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    // The folder the entry is about, or the one holding the file; null: the top level (or purged).
    .addColumn('folder_id', 'integer', (c) => c.references('room_folders.id').onDelete('set null'))
    .addColumn('file_id', 'integer', (c) => c.references('room_files.id').onDelete('set null'))
    // What the entry is about, kept when the item is purged: 'room' | 'folder' | 'file' and its uuid.
    .addColumn('item_type', 'text', (c) => c.notNull())
    .addColumn('item_uuid', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // The actor's address then (kept when the account goes) and the item's name then.
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('item_name', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('room_activity_room').on('room_activity').columns(['room_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_activity').execute();
  await db.schema.dropTable('room_file_parts').execute();
  await db.schema.dropTable('room_files').execute();
}
