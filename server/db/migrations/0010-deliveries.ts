import type { Kysely } from 'kysely';
import { databaseKindOf } from '../database';

/** Deliveries, their recipients (shares), files, file parts and activity log. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = databaseKindOf(db) === 'postgres';
  const id = (table: ReturnType<Kysely<unknown>['schema']['createTable']>) =>
    table.addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()));

  await id(db.schema.createTable('deliveries'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('security_level', 'integer', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('validity_days', 'integer')
    .addColumn('expires_at', 'bigint')
    .addColumn('review_state', 'text', (c) => c.notNull().defaultTo('notReviewed'))
    .addColumn('manifest', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('deleted_at', 'bigint')
    // When the expiry sweep removed the bytes (the row stays for the lists and the log).
    .addColumn('purged_at', 'bigint')
    .execute();
  // The sent list: a sender's deliveries newest first.
  await db.schema.createIndex('deliveries_sender').on('deliveries').columns(['sender_id', 'status', 'sent_at']).execute();
  // The expiry cleanup job walks this.
  await db.schema.createIndex('deliveries_expires').on('deliveries').columns(['status', 'expires_at']).execute();

  await id(db.schema.createTable('delivery_recipients'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('notified_at', 'bigint')
    .addColumn('downloaded_at', 'bigint')
    .addColumn('decrypted_at', 'bigint')
    .addColumn('removed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The inbox: deliveries to an address.
  await db.schema.createIndex('delivery_recipients_email').on('delivery_recipients').columns(['email', 'delivery_id']).execute();
  await db.schema.createIndex('delivery_recipients_delivery').on('delivery_recipients').column('delivery_id').execute();

  await id(db.schema.createTable('delivery_files'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('part_size', 'integer', (c) => c.notNull())
    .addColumn('part_count', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('encrypted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('header_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('committed_at', 'bigint')
    .execute();
  await db.schema.createIndex('delivery_files_delivery').on('delivery_files').column('delivery_id').execute();

  await db.schema
    .createTable('delivery_file_parts')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('delivery_files.id').onDelete('cascade'))
    .addColumn('part_index', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_file_parts_pk', ['file_id', 'part_index'])
    .execute();

  await id(db.schema.createTable('delivery_activity'))
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('recipient_id', 'integer', (c) => c.references('delivery_recipients.id').onDelete('set null'))
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('delivery_activity_delivery').on('delivery_activity').column('delivery_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('delivery_activity').execute();
  await db.schema.dropTable('delivery_file_parts').execute();
  await db.schema.dropTable('delivery_files').execute();
  await db.schema.dropTable('delivery_recipients').execute();
  await db.schema.dropTable('deliveries').execute();
}
