import type { Kysely } from 'kysely';

/**
 * Sessions get a kind: `cookie` (the web client, KUVERT_SESSION cookie) or `addin` (the Outlook
 * add-in's bearer token, DESIGN §2). A token only works the way it was issued, so an add-in
 * token is never accepted as a cookie and the reverse.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('kind', 'text', (c) => c.notNull().defaultTo('cookie')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('kind').execute();
}
