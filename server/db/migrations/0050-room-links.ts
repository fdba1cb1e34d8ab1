import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Public links to a plain room's file (issue 15, server/README "Public links to room files"): the
 * link's token is stored as its SHA-256 only (security/link-tokens.ts). A link goes with its file
 * and room (cascade); `downloads` counts complete downloads through it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('room_links')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('room_files.id').onDelete('cascade'))
    // null once the account is gone (the link stays the room's).
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('room_links_file').on('room_links').columns(['file_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_links').execute();
}
