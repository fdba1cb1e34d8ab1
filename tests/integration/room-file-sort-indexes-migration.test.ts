// Migration 0051 adds the listing indexes of the `size` and `updatedAt` orders (server/rooms/
// file-pages.ts); down drops them and up adds them again (SQLite and PostgreSQL).
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { withMigrationDatabase } from './migration-helpers';

const ADDED = ['room_files_listing_size', 'room_files_listing_updated'];

it('0051-room-file-sort-indexes adds the size and modified listing indexes, and rolls back', async () => {
  await withMigrationDatabase(async ({ db, migrator }) => {
    const indexes = async () => {
      const { rows } = process.env.KUVERT_TEST_DATABASE_URL
        ? await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'room_files' and schemaname = current_schema()`.execute(db)
        : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'room_files'`.execute(db);
      return rows.map((r) => r.name).filter((name) => name.startsWith('room_files_listing'));
    };
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect((await indexes()).sort()).toEqual(['room_files_listing', ...ADDED]);
    expect((await migrator.migrateTo('0050-room-links')).error).toBeUndefined();
    expect(await indexes()).toEqual(['room_files_listing']);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect((await indexes()).sort()).toEqual(['room_files_listing', ...ADDED]);
  });
});
