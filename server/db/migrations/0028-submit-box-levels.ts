import type { Kysely } from 'kysely';

/**
 * The submit box's notification setting and levels 3/4 (issue 16 §1):
 *
 * - `submit_boxes.notify`: 1 = the owner is mailed about each submission (the ordinary delivery
 *   mail), 0 = the submission only appears in the inbox.
 * - `deliveries.quiet`: 1 = sending does not mail the recipients (set by the submit box when its
 *   owner switched the notification off); the delivery is in their inbox all the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Existing boxes keep mailing their owners (default 1).
  await db.schema.alterTable('submit_boxes').addColumn('notify', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('deliveries').addColumn('quiet', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('deliveries').dropColumn('quiet').execute();
  await db.schema.alterTable('submit_boxes').dropColumn('notify').execute();
}
