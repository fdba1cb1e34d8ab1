import type { Kysely } from 'kysely';

/**
 * Sign-in throttling (issue 12 §2): per-account progressive delays and per-address limits, in the
 * database so every server shares them (DESIGN §5).
 *
 * - `login_throttles`: one row per login name (lower-cased) with failed sign-ins: how many since the
 *   last quiet period, when the next try is allowed, when the owner was last told.
 * - `login_address_failures`: one row per (client address, login name) with a failure: the
 *   per-address limit counts distinct accounts, so one account's burst never locks out an address.
 * - `recipient_lookups`: one row per (account, address) it asked about (recipient status, recipient
 *   keys): the enumeration budget counts distinct addresses, so re-asking the same chips is free.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_throttles')
    .addColumn('account', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
    .addColumn('next_allowed_at', 'bigint', (c) => c.notNull())
    .addColumn('notified_at', 'bigint')
    .execute();
  await db.schema.createIndex('login_throttles_last_failure').on('login_throttles').column('last_failure_at').execute();

  await db.schema
    .createTable('login_address_failures')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('login_address_failures_pk', ['address', 'account'])
    .execute();
  await db.schema.createIndex('login_address_failures_recent').on('login_address_failures').columns(['address', 'last_failure_at']).execute();

  await db.schema
    .createTable('recipient_lookups')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('recipient_lookups_pk', ['user_id', 'address'])
    .execute();
  await db.schema.createIndex('recipient_lookups_recent').on('recipient_lookups').columns(['user_id', 'last_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('recipient_lookups').execute();
  await db.schema.dropTable('login_address_failures').execute();
  await db.schema.dropTable('login_throttles').execute();
}
