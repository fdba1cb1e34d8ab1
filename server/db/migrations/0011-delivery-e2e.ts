import type { Kysely } from 'kysely';

/**
 * Levels 3/4 (DESIGN §3, §4): an E2E file's part 0 carries the 49-byte stream header on top of
 * its 8 records, so part boundaries stay record boundaries. 0 for plain files.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('delivery_files')
    .addColumn('leading_bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('delivery_files').dropColumn('leading_bytes').execute();
}
