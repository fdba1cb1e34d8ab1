import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * Trust networks, slice 2 (issue 30 §2; server/trust-networks/transfers.ts, inbound.ts): deliveries
 * across a connection. The sender's server keeps one transfer per delivery and connection (which
 * recipients it carries, pending until the partner took it); the recipient's server keeps which of
 * its deliveries came from which connection and transfer, so a second push of the same transfer is
 * the same delivery and receipts find their way back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  const id = postgres ? 'serial' : 'integer';
  await db.schema
    .createTable('trust_transfers')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('connection_id', 'integer', (c) => c.notNull().references('trust_connections.id').onDelete('cascade'))
    // JSON list of the lower-cased recipient addresses this transfer carries.
    .addColumn('recipients', 'text', (c) => c.notNull())
    // 'pending' | 'delivered' | 'failed' | 'withdrawn'.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema.createIndex('trust_transfers_delivery').on('trust_transfers').column('delivery_id').execute();
  await db.schema
    .createTable('trust_inbound')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('connection_id', 'integer', (c) => c.notNull().references('trust_connections.id').onDelete('cascade'))
    .addColumn('transfer_uuid', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'integer', (c) => c.notNull().unique().references('deliveries.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('trust_inbound_transfer', ['connection_id', 'transfer_uuid'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trust_inbound').execute();
  await db.schema.dropTable('trust_transfers').execute();
}
