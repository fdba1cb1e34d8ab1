import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Form layout images and submission completion (issue 16 §2, server/README.md "Web forms"):
 * - `form_layout_images`: a form's background image (one row per form and kind); the bytes live
 *   in the blob store under `blob_key` (server/forms/layout-images.ts), the type and size checked
 *   from the bytes.
 * - `form_submissions`: what the completion needs (server/forms/submission-completion.ts): the
 *   confirmation mail's address and language (sent when the delivery is sent, not at the start),
 *   the per-submission submitter account of levels 3/4 and when it was closed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('form_layout_images')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('form_id', 'integer', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('form_layout_images_form_kind').on('form_layout_images').columns(['form_id', 'kind']).unique().execute();
  await db.schema.alterTable('form_submissions').addColumn('confirmation_to', 'text').execute();
  await db.schema.alterTable('form_submissions').addColumn('language', 'text').execute();
  await db.schema.alterTable('form_submissions').addColumn('completed_at', 'bigint').execute();
  await db.schema.alterTable('form_submissions').addColumn('confirmation_sent_at', 'bigint').execute();
  await db.schema.alterTable('form_submissions').addColumn('submitter_user_id', 'integer', (c) => c.references('users.id').onDelete('set null')).execute();
  await db.schema.alterTable('form_submissions').addColumn('account_closed_at', 'bigint').execute();
  await db.schema.createIndex('form_submissions_delivery').on('form_submissions').column('delivery_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('form_submissions_delivery').execute();
  for (const column of ['account_closed_at', 'submitter_user_id', 'confirmation_sent_at', 'completed_at', 'language', 'confirmation_to']) {
    await db.schema.alterTable('form_submissions').dropColumn(column).execute();
  }
  await db.schema.dropTable('form_layout_images').execute();
}
