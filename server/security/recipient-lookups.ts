import type { Kysely } from 'kysely';
import { HttpError, rateLimitExceeded } from '../core/http-error';
import type { Database } from '../db/schema';
import { systemClock, type Clock } from './clock';

/**
 * The enumeration budget of an account (issue 12 §2): how many distinct addresses it may learn
 * "registered / has a passphrase / its keys" about in RECIPIENT_LOOKUP_LIMIT.windowMs — through
 * POST /deliveries/recipient-status (the send page's chips) and GET …/recipient-keys (levels 3/4),
 * and every draft create, update and send: their answers differ for registered and unregistered
 * addresses (the detail's `registered`, SenderNotLicensedException / InviteUserToShareException,
 * the level-3/4 key copies), so the addresses of a draft cost the same budget (issue 12 §2).
 * Addresses asked again within the window are free, so the send page re-asking its chips after
 * every change costs nothing extra. Kept in the database (`recipient_lookups`, migration 0019), so
 * every server shares it.
 */

/**
 * Distinct addresses per account and hour: a busy sender writes to a few dozen people an hour
 * (MAX_RECIPIENTS is 100 per delivery); walking an address list takes thousands.
 */
export const RECIPIENT_LOOKUP_LIMIT = { limit: 300, windowMs: 60 * 60_000 } as const;

export type LookupOutcome = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Counts `addresses` (lower-cased) for the user; refuses all of them when the new ones do not fit. */
export async function spendLookupBudget(db: Kysely<Database>, userId: number, addresses: readonly string[], clock: Clock = systemClock): Promise<LookupOutcome> {
  const wanted = [...new Set(addresses.map((a) => a.trim().toLowerCase()))];
  if (wanted.length === 0) return { allowed: true };
  const now = clock();
  const since = now - RECIPIENT_LOOKUP_LIMIT.windowMs;
  const recent = await db
    .selectFrom('recipient_lookups')
    .select(['address', 'last_at'])
    .where('user_id', '=', userId)
    .where('last_at', '>', since)
    .orderBy('last_at', 'asc')
    .execute();
  const known = new Set(recent.map((r) => r.address));
  const fresh = wanted.filter((a) => !known.has(a));
  const overflow = recent.length + fresh.length - RECIPIENT_LOOKUP_LIMIT.limit;
  if (overflow > 0) {
    // Room for the new ones once `overflow` of the oldest have left the window.
    const freeing = recent[Math.min(overflow, recent.length) - 1];
    return { allowed: false, retryAfterMs: freeing ? Math.max(1, Number(freeing.last_at) + RECIPIENT_LOOKUP_LIMIT.windowMs - now) : RECIPIENT_LOOKUP_LIMIT.windowMs };
  }
  await db
    .insertInto('recipient_lookups')
    .values(wanted.map((address) => ({ user_id: userId, address, last_at: now })))
    .onConflict((oc) => oc.columns(['user_id', 'address']).doUpdateSet({ last_at: now }))
    .execute();
  return { allowed: true };
}

/** `spendLookupBudget`, or 429 `RateLimitExceededException` with `reason: lookupBudget` (and Retry-After) when it is spent. */
export async function spendLookupBudgetOrRefuse(db: Kysely<Database>, userId: number, addresses: readonly string[]): Promise<void> {
  const outcome = await spendLookupBudget(db, userId, addresses);
  if (!outcome.allowed) {
    const error = rateLimitExceeded(outcome.retryAfterMs);
    throw new HttpError(429, error.errorClass, 'Too many different addresses looked up, please try again later', { ...error.metadata, reason: 'lookupBudget' }, error.headers);
  }
}

export async function pruneRecipientLookups(db: Kysely<Database>, clock: Clock = systemClock): Promise<void> {
  await db.deleteFrom('recipient_lookups').where('last_at', '<=', clock() - RECIPIENT_LOOKUP_LIMIT.windowMs).execute();
}

export interface RecipientLookupsTable {
  user_id: number;
  /** Lower-cased address. */
  address: string;
  last_at: number;
}

declare module '../db/schema' {
  interface Database {
    recipient_lookups: RecipientLookupsTable;
  }
}
