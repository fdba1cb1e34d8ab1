import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Data-room invitations of addresses without an account (issue 15, server/README "Room
 * invitations"): one row per invitation, the link token only as its SHA-256. `used_at` set: the
 * signup completed (single use, claimed with `used_at IS NULL` in the signup's transaction);
 * `revoked_at` set: revoked or replaced. Either way the link answers 410.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('room_invitations')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    // null: the invitation is for the room itself.
    .addColumn('folder_id', 'integer', (c) => c.references('room_folders.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    // Lower-cased address the link was mailed to; the account is made with it.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    // Set: the OWNER revoked it, or invited the address again there (a new link replaced it).
    .addColumn('revoked_at', 'bigint')
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('room_invitations_room').on('room_invitations').columns(['room_id', 'folder_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_invitations').ifExists().execute();
}
