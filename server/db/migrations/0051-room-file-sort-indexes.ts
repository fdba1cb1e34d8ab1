import { sql, type Kysely } from 'kysely';

/**
 * Issue 15 (rooms listing at scale): the `size` and `updatedAt` orders of a folder's files
 * (server/rooms/plain/file-pages.ts) get indexes like `room_files_listing` (migration 0038, the `name`
 * order), so a page in those orders — the first or one far down by cursor — reads a page's rows
 * instead of sorting the whole folder. Without them SQLite sorted the folder for `size`, and for
 * `updatedAt` walked `room_files_state` (state, updated_at) across every room's files.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index room_files_listing_size on room_files (room_id, folder_id, state, deleted_at, size, id)`.execute(db);
  await sql`create index room_files_listing_updated on room_files (room_id, folder_id, state, deleted_at, updated_at, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index room_files_listing_updated`.execute(db);
  await sql`drop index room_files_listing_size`.execute(db);
}
