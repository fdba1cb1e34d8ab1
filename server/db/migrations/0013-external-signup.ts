import type { Kysely } from 'kysely';

/**
 * External recipients (SPEC §2 email prompt, delivery signup, SMS code): one row per share that
 * got a phone number from its sender, a signup token, or an SMS code. Kept beside
 * `delivery_recipients` rather than in it so the delivery tables stay the deliveries' own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('delivery_signups')
    .addColumn('recipient_id', 'integer', (c) => c.primaryKey().references('delivery_recipients.id').onDelete('cascade'))
    .addColumn('phone_number', 'text')
    // SHA-256 hex of the signup link token (unregistered recipients of level ≥ 2).
    .addColumn('token_hash', 'text', (c) => c.unique())
    // The open SMS code: salted SHA-256, tries, when sent and until when it is valid.
    .addColumn('code_hash', 'text')
    .addColumn('code_salt', 'text')
    .addColumn('code_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('code_sent_at', 'bigint')
    .addColumn('code_expires_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('delivery_signups').ifExists().execute();
}
