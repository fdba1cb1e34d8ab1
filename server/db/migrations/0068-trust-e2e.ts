import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Trust networks, levels 3/4 across a connection (issue 30 §2; server/trust-networks/e2e.ts).
 * The sender's server keeps, per draft and partner recipient, the key the partner answered in a
 * signed look-up and the file keys the sender's browser wrapped to it (they travel with the
 * announce; this server has no account for that reader). The recipient's server keeps who signed
 * an E2E delivery that came through a connection: the sender's user id and public keys on the
 * sender's server, which the recipient's browser checks the manifest signature against.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  const id = postgres ? 'serial' : 'integer';
  await db.schema
    .createTable('trust_partner_readers')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    // The reader's user id and live encryption key on the partner, as its signed look-up answered.
    .addColumn('user_uuid', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text')
    // JSON list of { recipientKeyId, fileId, wrappedKey } (null until the sender's browser wrapped them).
    .addColumn('descriptors', 'text')
    .addColumn('partner_url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('trust_partner_readers_delivery_email', ['delivery_id', 'email'])
    .execute();
  await db.schema.alterTable('trust_inbound').addColumn('sender_user_uuid', 'text').execute();
  // JSON list of the sender's public keys (signing, as its server announced them).
  await db.schema.alterTable('trust_inbound').addColumn('sender_keys', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('trust_inbound').dropColumn('sender_keys').execute();
  await db.schema.alterTable('trust_inbound').dropColumn('sender_user_uuid').execute();
  await db.schema.dropTable('trust_partner_readers').execute();
}
