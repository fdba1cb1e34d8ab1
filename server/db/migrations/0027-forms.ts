import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Web forms (issue 16 §2): the form (options, disclaimer, layout and translations as JSON text),
 * its custom fields in order (the type's settings as JSON text), and the submissions (the draft
 * and the limited session each started, for the submit-session access check).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  const table = (name: string) =>
    db.schema.createTable(name).addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()));
  await table('forms')
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    // Lower-cased name: unique (SPEC §5 "name unique").
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('url', 'text', (c) => c.notNull().unique())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('security_level', 'integer', (c) => c.notNull())
    .addColumn('captcha', 'integer', (c) => c.notNull())
    .addColumn('only_authenticated', 'integer', (c) => c.notNull())
    // JSON arrays of addresses.
    .addColumn('mandatory_recipients', 'text', (c) => c.notNull())
    .addColumn('optional_recipients', 'text', (c) => c.notNull())
    .addColumn('sender_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('disclaimer_enabled', 'integer', (c) => c.notNull())
    .addColumn('disclaimer_text', 'text', (c) => c.notNull())
    // JSON object (description, success title and message, redirect URL).
    .addColumn('layout', 'text', (c) => c.notNull())
    // The translations tab's JSON text.
    .addColumn('translations', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await table('form_custom_fields')
    .addColumn('form_id', 'integer', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('required', 'integer', (c) => c.notNull())
    // JSON object: the rest of the field (hint, default, regex, options, sizes, dates …).
    .addColumn('settings', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('form_custom_fields_form').on('form_custom_fields').columns(['form_id', 'position']).unique().execute();
  await table('form_submissions')
    .addColumn('form_id', 'integer', (c) => c.references('forms.id').onDelete('set null'))
    .addColumn('delivery_id', 'integer', (c) => c.references('deliveries.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('form_submissions_session').on('form_submissions').column('session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('form_submissions').execute();
  await db.schema.dropTable('form_custom_fields').execute();
  await db.schema.dropTable('forms').execute();
}
