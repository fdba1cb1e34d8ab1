import type { Kysely } from 'kysely';

/**
 * Room administration (issue 15, server/README "Room administration"): indexes on `deleted_at` of
 * rooms, folders and files — the administrators' trash bin lists them newest deletion first and
 * the retention job looks for the old ones.
 */
const TABLES = ['data_rooms', 'room_folders', 'room_files'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await db.schema.createIndex(`${table}_deleted`).on(table).columns(['deleted_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await db.schema.dropIndex(`${table}_deleted`).execute();
}
