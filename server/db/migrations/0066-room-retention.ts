import type { Kysely } from 'kysely';

/**
 * Room retention (issue 31 §2, server/README "Room retention"): a room's period in days (null: none)
 * and a change waiting for the end of the day (`retention_next_at` set: `retention_next_days` takes
 * over then, null meaning "none"). The index serves the end-of-day job: a room's files by last change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('data_rooms').addColumn('retention_days', 'integer').execute();
  await db.schema.alterTable('data_rooms').addColumn('retention_next_days', 'integer').execute();
  await db.schema.alterTable('data_rooms').addColumn('retention_next_at', 'bigint').execute();
  await db.schema.createIndex('room_files_room_updated').on('room_files').columns(['room_id', 'updated_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('room_files_room_updated').execute();
  await db.schema.alterTable('data_rooms').dropColumn('retention_next_at').execute();
  await db.schema.alterTable('data_rooms').dropColumn('retention_next_days').execute();
  await db.schema.alterTable('data_rooms').dropColumn('retention_days').execute();
}
