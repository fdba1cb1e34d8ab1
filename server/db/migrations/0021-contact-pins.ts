import type { Kysely } from 'kysely';

/**
 * Contact pins on the server (DESIGN §9 "Contact pins", issue 12 §4): one row per user with the
 * user's pin list, signed and encrypted by the client with the user's own keys (shared/crypto
 * contact-pins.ts) — the server stores it opaque. `counter` only ever grows (each save is
 * counter + 1, checked by the server; the client refuses lower counters than it saw). A SecuPass
 * reset drops the envelope (it opens only with the old keys) and keeps the counter.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('contact_pins')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('counter', 'integer', (c) => c.notNull())
    // shared/crypto SealedContactPins, JSON text; null after a SecuPass reset.
    .addColumn('envelope', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('contact_pins').execute();
}
