import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Room administration (issue 15, server/README "Room administration"):
 * - indexes on `deleted_at` of rooms, folders and files: the administrators' trash bin lists them
 *   newest deletion first and the retention job looks for the old ones;
 * - `room_invitations`: a room shared with an address that has no account yet. The mailed link
 *   carries a random token (only its SHA-256 is stored); signing up through it makes the person a
 *   member with the invited role. `used_at` set or `expires_at` past: "invitation expired or used".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  for (const table of ['data_rooms', 'room_folders', 'room_files']) {
    await db.schema.createIndex(`${table}_deleted`).on(table).columns(['deleted_at']).execute();
  }
  await db.schema
    .createTable('room_invitations')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    // null: invited to the room itself.
    .addColumn('folder_id', 'integer', (c) => c.references('room_folders.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('room_invitations_room').on('room_invitations').columns(['room_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_invitations').execute();
  for (const table of ['data_rooms', 'room_folders', 'room_files']) await db.schema.dropIndex(`${table}_deleted`).execute();
}
