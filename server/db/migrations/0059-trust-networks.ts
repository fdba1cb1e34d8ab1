import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Trust networks, slice 1 (issue 30; server/trust-networks): the connections two administrators set
 * up, and the nonces of partner calls already accepted (in the database, so a replay is refused by
 * every server behind the load balancer). A deleted connection keeps its row (`deleted_at`) so a
 * later call signed by its key is refused and logged as revoked, not as unknown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  await db.schema
    .createTable('trust_connections')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('partner_url', 'text', (c) => c.notNull())
    // JSON list of lowercase domains.
    .addColumn('partner_domains', 'text', (c) => c.notNull())
    .addColumn('own_public_key', 'text', (c) => c.notNull())
    .addColumn('own_key_fingerprint', 'text', (c) => c.notNull().unique())
    // Sealed with the server's secret key (secret box, `trust_connections.private_key`, bound to the id); null only inside the creating transaction.
    .addColumn('own_private_key', 'text')
    .addColumn('partner_public_key', 'text')
    .addColumn('partner_key_fingerprint', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('last_test_step', 'text')
    .addColumn('last_test_reason', 'text')
    .addColumn('last_tested_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('trust_connections_partner_key').on('trust_connections').column('partner_key_fingerprint').execute();
  await db.schema
    .createTable('trust_nonces')
    .addColumn('key_fingerprint', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('trust_nonces_pk', ['key_fingerprint', 'nonce'])
    .execute();
  await db.schema.createIndex('trust_nonces_expiry').on('trust_nonces').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trust_nonces').execute();
  await db.schema.dropTable('trust_connections').execute();
}
