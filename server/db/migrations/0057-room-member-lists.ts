import type { Kysely } from 'kysely';

/**
 * Signed member lists of E2E rooms (issue 28 §2 case 4; shared/crypto/README.md section 7 "Who is
 * a member: the signed member list"): the latest list an OWNER signed, stored as the opaque JSON her
 * browser sent — the server cannot make one. One row per room; a new list (version + 1) replaces it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('room_e2e_member_lists')
    .addColumn('room_id', 'integer', (c) => c.primaryKey().references('data_rooms.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    // null once the signer's account is gone (readers then cannot verify and write a new list).
    .addColumn('signed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('signed_list', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_e2e_member_lists').execute();
}
