import type { Kysely } from 'kysely';

/**
 * Terms of use and privacy agreement (issue 34, shared/contract/terms.ts): the version each user
 * agreed to and when (epoch milliseconds). Each agreement is also an audit-log entry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('terms_accepted_version', 'integer').execute();
  await db.schema.alterTable('users').addColumn('terms_accepted_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('terms_accepted_at').execute();
  await db.schema.alterTable('users').dropColumn('terms_accepted_version').execute();
}
