import type { Kysely } from 'kysely';

/**
 * Storage quotas per room and per user (issue 32, server/README "Storage quotas"): bytes, null = none
 * (a user without an override falls back to the setting `kuvert.storage.userQuota`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('data_rooms').addColumn('storage_quota', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('storage_quota', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('storage_quota').execute();
  await db.schema.alterTable('data_rooms').dropColumn('storage_quota').execute();
}
