import { sql, type Kysely } from 'kysely';

/**
 * Issue 15 (rooms at scale): a folder's files are listed a page at a time by name (server/rooms/
 * file-pages.ts). This index serves that order, so the first page of a folder of 10 000 files reads
 * a page's rows, not the folder's (the old index (room_id, folder_id) made every page sort all of
 * them); with `deleted_at` in it, counting a folder reads the index only. lower(name) is an
 * expression index on both SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index room_files_listing on room_files (room_id, folder_id, state, deleted_at, lower(name), id)`.execute(db);
  // Its first two columns are the old index: keeping both let PostgreSQL pick the old one and sort
  // the whole folder for every page (before ANALYZE had seen the table grow).
  await db.schema.dropIndex('room_files_folder').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('room_files_folder').on('room_files').columns(['room_id', 'folder_id']).execute();
  await sql`drop index room_files_listing`.execute(db);
}
