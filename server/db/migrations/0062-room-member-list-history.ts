import { sql, type Kysely } from 'kysely';

/**
 * Every signed member list of an E2E room, not only the latest (issue 28 §2; shared/crypto/README.md
 * section 7 "Roles at signing time"): file metadata names the list version it was signed under and a
 * reader checks the signer's role in that very list, so the server keeps each version it stored.
 * Filled with the latest list of every room that has one (earlier versions were not kept before).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('room_e2e_member_list_versions')
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('signed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('signed_list', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('room_e2e_member_list_versions_pk', ['room_id', 'version'])
    .execute();
  await sql`insert into room_e2e_member_list_versions (room_id, version, signed_by, signed_list, created_at)
            select room_id, version, signed_by, signed_list, created_at from room_e2e_member_lists`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_e2e_member_list_versions').execute();
}
