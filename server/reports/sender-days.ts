import { DAY_MS } from '@shared/contract/reports';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Migration 0029: a user sent a delivery on a UTC day — the "senders" of the active-users report. */
export interface SenderDaysTable {
  day: number;
  sender_id: number;
}

export interface SenderDaysTables {
  sender_days: SenderDaysTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends SenderDaysTables {}
}

/**
 * Marks `senderId` a sender on the UTC day of `at`: one idempotent insert per send, in the send's
 * transaction, so counting distinct senders reads (days × senders) rows, not every delivery.
 */
export async function recordSenderDay(db: Kysely<Database>, senderId: number, at: number): Promise<void> {
  await db
    .insertInto('sender_days')
    .values({ day: Math.floor(at / DAY_MS), sender_id: senderId })
    .onConflict((oc) => oc.columns(['day', 'sender_id']).doNothing())
    .execute();
}
