import type { Kysely } from 'kysely';

/**
 * Issue 33: a form's submissions list and export, and submit-box guest tickets.
 * - `form_submissions.submission_values`: levels 1/2, the values as the export shows them (JSON
 *   field name → text); null for levels 3/4 and for submissions before this migration.
 * - `form_submissions.submitter_email`: the signed-in submitter of an only-authenticated form.
 * - `submit_tickets`: a ticket the box owner created for a named person (`owner_created` 1) has
 *   a `uuid` to list and revoke it by, the mail's `subject` and `message`, and `revoked_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('form_submissions').addColumn('submission_values', 'text').execute();
  await db.schema.alterTable('form_submissions').addColumn('submitter_email', 'varchar(320)').execute();
  await db.schema.alterTable('submit_tickets').addColumn('uuid', 'varchar(64)').execute();
  await db.schema.alterTable('submit_tickets').addColumn('owner_created', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('submit_tickets').addColumn('subject', 'varchar(500)').execute();
  await db.schema.alterTable('submit_tickets').addColumn('message', 'text').execute();
  await db.schema.alterTable('submit_tickets').addColumn('revoked_at', 'bigint').execute();
  await db.schema.createIndex('submit_tickets_uuid').unique().on('submit_tickets').column('uuid').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('submit_tickets_uuid').execute();
  for (const column of ['revoked_at', 'message', 'subject', 'owner_created', 'uuid']) await db.schema.alterTable('submit_tickets').dropColumn(column).execute();
  await db.schema.alterTable('form_submissions').dropColumn('submitter_email').execute();
  await db.schema.alterTable('form_submissions').dropColumn('submission_values').execute();
}
