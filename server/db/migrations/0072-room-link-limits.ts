import type { Kysely } from 'kysely';

/**
 * Room links with a password and a download limit (issue 32 §2, server/README "Public links to room
 * files"): the password is kept as its Argon2id hash only (users/passwords.ts); `max_downloads` null
 * means no limit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('room_links').addColumn('password_hash', 'text').execute();
  await db.schema.alterTable('room_links').addColumn('max_downloads', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('room_links').dropColumn('max_downloads').execute();
  await db.schema.alterTable('room_links').dropColumn('password_hash').execute();
}
