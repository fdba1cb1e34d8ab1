import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/**
 * SecuPass (DESIGN §3): the per-user wrapped private-key blob, the public keys, the
 * wrapped file-key copies ("access descriptors") later features write, and the audit log.
 * The server only ever stores wrapped secrets and public keys.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  const serialId = postgres ? 'serial' : 'integer';

  await db.schema
    .createTable('secupass')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // 'none' | 'active' | 'reset'
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('version', 'integer')
    // The wrapped blob (JSON text); null unless active.
    .addColumn('blob', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('public_keys')
    .addColumn('id', serialId, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key_id', 'text', (c) => c.notNull())
    // 'encryption' | 'signing'
    .addColumn('usage', 'text', (c) => c.notNull())
    // SPKI, base64url
    .addColumn('spki', 'text', (c) => c.notNull())
    // SHA-256 hex of the SPKI bytes (display only)
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('public_keys_user').on('public_keys').columns(['user_id', 'revoked_at']).execute();

  await db.schema
    .createTable('access_descriptors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('recipient_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('recipient_key_id', 'text', (c) => c.notNull())
    // 'delivery' | 'dataRoom'
    .addColumn('resource_kind', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('file_id', 'text', (c) => c.notNull())
    // shared/crypto WrappedFileKey, JSON text
    .addColumn('wrapped_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('invalidated_at', 'bigint')
    .execute();
  await db.schema.createIndex('access_descriptors_recipient').on('access_descriptors').columns(['recipient_user_id', 'invalidated_at']).execute();
  await db.schema
    .createIndex('access_descriptors_resource')
    .on('access_descriptors')
    .columns(['resource_kind', 'resource_id', 'file_id'])
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', serialId, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // JSON object text
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('access_descriptors').execute();
  await db.schema.dropTable('public_keys').execute();
  await db.schema.dropTable('secupass').execute();
}
