import type { Kysely } from 'kysely';

/**
 * The confirmation mail's placeholders (issue 33 §1.3, server/README.md "Web forms"): the submitted
 * values the mail's `{field:<name>}` placeholders are filled from. The mail goes when the delivery is
 * sent, later than the submission, so the values wait here as JSON — only while a confirmation is due
 * (levels 1/2 with a confirmation text); set to null once the mail left.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('form_submissions').addColumn('confirmation_values', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('form_submissions').dropColumn('confirmation_values').execute();
}
