import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Issue 32 §1: in-app notices (server/README "Room notices"), written beside the room mails. Each
 * belongs to one user (goes with the account); a Secure room's name is never stored (null).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('notices')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('room_uuid', 'text', (c) => c.notNull())
    .addColumn('secure', 'integer', (c) => c.notNull())
    .addColumn('room_name', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('role', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .execute();
  await db.schema.createIndex('notices_user').on('notices').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notices').execute();
}
