import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Data rooms (issue 15, server/README "Data rooms"): rooms, nested folders, access entries.
 * Deleting moves to the trash (`deleted_at`); names are unique among live siblings (checked by
 * the service case-insensitively, which an index cannot express on both databases alike).
 * `encrypted` and `room_access.wrapped_key` are the places E2E rooms need later.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  type Table = ReturnType<Kysely<unknown>['schema']['createTable']>;
  const id = (name: string) =>
    db.schema.createTable(name).addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()));
  // Who made an item and when; `deleted_*` set: in the trash.
  const trashable = (table: Table) =>
    table
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .addColumn('deleted_by', 'integer', (c) => c.references('users.id').onDelete('set null'));
  await trashable(
    id('data_rooms')
      .addColumn('uuid', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('encrypted', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();
  await trashable(
    id('room_folders')
      .addColumn('uuid', 'text', (c) => c.notNull().unique())
      .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
      .addColumn('parent_id', 'integer', (c) => c.references('room_folders.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('room_folders_parent').on('room_folders').columns(['room_id', 'parent_id']).execute();
  await id('room_access')
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    // null: the entry is set on the room itself.
    .addColumn('folder_id', 'integer', (c) => c.references('room_folders.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    // E2E rooms later: the room key wrapped for the user.
    .addColumn('wrapped_key', 'text')
    .addColumn('granted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('room_access_user').on('room_access').columns(['user_id', 'room_id']).execute();
  await db.schema.createIndex('room_access_room').on('room_access').columns(['room_id', 'folder_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_access').execute();
  await db.schema.dropTable('room_folders').execute();
  await db.schema.dropTable('data_rooms').execute();
}
