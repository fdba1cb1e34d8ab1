import { DAY_MS } from '@shared/contract/reports';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import './active-days-table';

/**
 * Marks `userId` active on the UTC day of `at` (the active-users report). Called by the sessions
 * store when a session is created and when it is touched (at most once a minute per session), so
 * the cost is one idempotent insert per session and minute.
 */
export async function recordActiveDay(db: Kysely<Database>, userId: number, at: number): Promise<void> {
  await db
    .insertInto('user_active_days')
    .values({ day: Math.floor(at / DAY_MS), user_id: userId })
    .onConflict((oc) => oc.columns(['day', 'user_id']).doNothing())
    .execute();
}
