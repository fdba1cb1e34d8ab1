import type { Kysely } from 'kysely';

/**
 * Web forms, issue 16 §2 (server/forms/hardening.ts): `form_submission_files` — the files a
 * submission declared (and a signature's PNG), per field, keyed by the limited session it opened;
 * the upload calls of that session are re-checked against them and the field's limits (at file
 * create and at commit).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('form_submission_files')
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('field_name', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('form_submission_files_session').on('form_submission_files').column('session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('form_submission_files').execute();
}
