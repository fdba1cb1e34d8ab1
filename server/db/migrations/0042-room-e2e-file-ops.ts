import type { Kysely } from 'kysely';

/**
 * Issue 15 (E2E file rename and new version; shared/crypto/README.md "7. Data rooms"):
 *
 * - `room_e2e_files.signed_by`: who signed the current metadata when that is not the uploader
 *   (a member who renamed the file re-signs it); null = the uploader. Readers verify against it.
 * - `room_e2e_versions`: for an earlier version of an E2E file (room_file_versions row) its sealed
 *   file key, signed metadata and signer, so the versions dialog can decrypt and verify it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('room_e2e_files').addColumn('signed_by', 'integer', (c) => c.references('users.id').onDelete('set null')).execute();
  await db.schema
    .createTable('room_e2e_versions')
    .addColumn('version_id', 'integer', (c) => c.primaryKey().references('room_file_versions.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('plaintext_size', 'bigint', (c) => c.notNull())
    .addColumn('wrapped_file_key', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('signed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_e2e_versions').execute();
  await db.schema.alterTable('room_e2e_files').dropColumn('signed_by').execute();
}
