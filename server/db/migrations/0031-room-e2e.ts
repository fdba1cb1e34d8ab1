import type { Kysely } from 'kysely';

/**
 * End-to-end encrypted data rooms (issue 15, shared/crypto/README.md "7. Data rooms"). Names of
 * E2E rooms, folders and files are stored sealed in the existing `name` columns; the members'
 * room-key copies are access descriptors (kind `dataRoom`, file id `room-key`). New here:
 *
 * - `room_e2e_files`: per file version the file key sealed under the room key and the sealed,
 *   signed metadata (name, size, hashes, uploader), plus the plaintext size the lists show;
 * - `room_e2e_declines`: an OWNER's "not approved" for a member's key (cleared by a grant).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('room_e2e_files')
    .addColumn('file_id', 'integer', (c) => c.primaryKey().references('room_files.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('plaintext_size', 'bigint', (c) => c.notNull())
    .addColumn('wrapped_file_key', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('room_e2e_declines')
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The member's encryption key id declined: a new SecuPass (new key) is pending again.
    .addColumn('key_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('declined_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('declined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('room_e2e_declines_pk', ['room_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_e2e_declines').execute();
  await db.schema.dropTable('room_e2e_files').execute();
}
