import type { Kysely } from 'kysely';

/**
 * Issue 31 §1: a Secure room folder's classification and status (shared/crypto/README.md section 7
 * "Folder labels"). One row per labelled folder: the values sealed under the room key (`labels`),
 * the signer's signature over them and who signed; the server can open neither. Goes with its folder.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('room_e2e_folder_labels')
    .addColumn('folder_id', 'integer', (c) => c.primaryKey().references('room_folders.id').onDelete('cascade'))
    .addColumn('labels', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('signed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_e2e_folder_labels').execute();
}
