import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * The installation's logo and favicon (issue 17 §2): one row per asset, the image bytes in the
 * database (at most 512 KiB, every server of a cluster serves the same without a shared folder or
 * bucket). Title and colours stay settings. No row = the product's own image.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytesType = databaseKindOf(db) === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('theme_assets')
    .addColumn('asset', 'text', (c) => c.primaryKey())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', bytesType, (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('theme_assets').execute();
}
