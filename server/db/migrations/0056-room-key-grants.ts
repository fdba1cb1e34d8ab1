import type { Kysely } from 'kysely';

/**
 * Signed room-key copies (issue 28 §2 case 1; shared/crypto/README.md section 7 "Who made my copy
 * of the room key"): beside each member's copy (an access descriptor), the grant its granter
 * signed — the server stores and hands it out, it cannot make one. One row per member and room:
 * a new grant replaces the row; `recipient_key_id` says which copy it signs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('room_e2e_key_grants')
    .addColumn('room_id', 'integer', (c) => c.notNull().references('data_rooms.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('recipient_key_id', 'text', (c) => c.notNull())
    // null once the granter's account is gone (readers then cannot verify: the copy is not used to encrypt).
    .addColumn('granted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('signed_grant', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('room_e2e_key_grants_pk', ['room_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('room_e2e_key_grants').execute();
}
