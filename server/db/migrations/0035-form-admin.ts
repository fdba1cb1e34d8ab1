import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Form administration (issue 16 §2, server/README.md "Form administration"):
 * - `forms.admin`: JSON of the form's administration settings (notifications, subject template,
 *   confirmation mail text, appearance; shared/contract/form-admin.ts). Editors and allowed
 *   submitters live in their own tables, by user id, so a changed address keeps its rights.
 * - `form_editors`: ROLE_SECUFORMS users who may edit a form besides its creator.
 * - `form_submitters`: users who may submit an only-authenticated form.
 * - `form_history`: who changed what, when. Keyed by the form's uuid, not a reference, so a
 *   deleted form keeps its history (an administrator still reads it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema.alterTable('forms').addColumn('admin', 'text', (c) => c.notNull().defaultTo('{}')).execute();
  for (const name of ['form_editors', 'form_submitters']) {
    await db.schema
      .createTable(name)
      .addColumn('form_id', 'integer', (c) => c.notNull().references('forms.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addPrimaryKeyConstraint(`${name}_pk`, ['form_id', 'user_id'])
      .execute();
  }
  await db.schema.createIndex('form_editors_user').on('form_editors').column('user_id').execute();
  await db.schema
    .createTable('form_history')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('form_uuid', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // The actor's address at the time (stays readable when the account is gone).
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('action', 'varchar(20)', (c) => c.notNull())
    // JSON array of { field, before, after }.
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('form_history_form').on('form_history').columns(['form_uuid', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('form_history').execute();
  await db.schema.dropTable('form_submitters').execute();
  await db.schema.dropTable('form_editors').execute();
  await db.schema.alterTable('forms').dropColumn('admin').execute();
}
