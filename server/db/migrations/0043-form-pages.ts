import type { Kysely } from 'kysely';

/**
 * Process pages of web forms (issue 16, shared/contract/form-pages.ts): `forms.process_pages`,
 * the JSON array of the form's pages in order (`[]`: one page, as every form before). A field's
 * page is its `page` in the field's JSON settings (form_custom_fields.settings), so fields need
 * no column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('forms').addColumn('process_pages', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('forms').dropColumn('process_pages').execute();
}
