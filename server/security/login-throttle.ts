import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { systemClock, type Clock } from './clock';

/**
 * Sign-in throttling (issue 12 §2), shared by every server through the database:
 *
 * - **per account, progressive delays**: after LOGIN_DELAY_FREE_FAILURES failed sign-ins the
 *   account's next try must wait `delayMs`, doubling with each further failure up to `maxDelayMs`.
 *   Nothing sleeps: the next allowed time is stored, and a try before it is answered 429 with
 *   `Retry-After` without looking at the password (so it costs the attacker a try, not the server
 *   an Argon2 hash). A successful sign-in clears the account; a quiet hour starts it over.
 * - **per address, distinct accounts**: an address that failed for LOGIN_ADDRESS_ACCOUNT_LIMIT
 *   different accounts within LOGIN_ADDRESS_WINDOW_MS is refused (429) until the oldest leaves the
 *   window. Counting accounts, not tries, means one account's burst (many wrong passwords for alice)
 *   never locks out the other people behind the same address (bob behind the office proxy): that
 *   burst is the account delay's business. It stops password spraying across accounts.
 * - **notice**: at LOGIN_NOTICE_AFTER_FAILURES the owner is told by mail, at most once per
 *   LOGIN_NOTICE_INTERVAL_MS (one conditional UPDATE decides, so one server sends it).
 *
 * The captcha rule (DESIGN §9: after 3 failures for the account or the address) stays as it was.
 */

/** Failures an account may have before delays start: enough for a person who mistypes a few times. */
export const LOGIN_DELAY_FREE_FAILURES = 5;
/** A failure after this long without one starts the account's count over. */
export const LOGIN_THROTTLE_QUIET_MS = 60 * 60_000;
/** Failures after which the account owner gets the notice mail: clearly more than mistyping. */
export const LOGIN_NOTICE_AFTER_FAILURES = 10;
/** At most one notice mail per account in this time: an attack lasting a day is one mail, not hundreds. */
export const LOGIN_NOTICE_INTERVAL_MS = 24 * 60 * 60_000;
/**
 * Distinct accounts one address may fail for in LOGIN_ADDRESS_WINDOW_MS. A person mistypes their
 * own account; an office behind one NAT address rarely has 20 people failing within 15 minutes.
 */
export const LOGIN_ADDRESS_ACCOUNT_LIMIT = 20;
export const LOGIN_ADDRESS_WINDOW_MS = 15 * 60_000;

export interface LoginThrottleOptions {
  /** First delay (ms); 0 = no delays. */
  delayMs: number;
  /** Longest delay (ms). */
  maxDelayMs: number;
  clock?: Clock;
}

export interface FailureOutcome {
  /** Failures of the account since its last quiet period, including this one. */
  failures: number;
  /** The owner should be told now (this server won the notice). */
  notify: boolean;
}

export interface LoginThrottle {
  /** ms until the account may try again (0 = now). */
  accountWait(account: string): Promise<number>;
  /** ms until the address may try again because it failed for too many accounts (0 = now). */
  addressWait(address: string): Promise<number>;
  /** Records a failed sign-in of `account` from `address`; sets the next delay. */
  recordFailure(account: string, address: string): Promise<FailureOutcome>;
  /** A successful sign-in: the account starts over. */
  clear(account: string): Promise<void>;
  /** Deletes what no longer counts. */
  prune(): Promise<void>;
}

/** The delay after the `failures`-th failure. */
export function loginDelayAfter(failures: number, options: Pick<LoginThrottleOptions, 'delayMs' | 'maxDelayMs'>): number {
  if (options.delayMs <= 0 || failures < LOGIN_DELAY_FREE_FAILURES) return 0;
  const doublings = Math.min(failures - LOGIN_DELAY_FREE_FAILURES, 30);
  return Math.min(options.maxDelayMs, options.delayMs * 2 ** doublings);
}

const normalize = (s: string) => s.trim().toLowerCase();

export function createLoginThrottle(db: Kysely<Database>, options: LoginThrottleOptions): LoginThrottle {
  const clock = options.clock ?? systemClock;
  return {
    async accountWait(account) {
      const row = await db.selectFrom('login_throttles').select('next_allowed_at').where('account', '=', normalize(account)).executeTakeFirst();
      return row ? Math.max(0, Number(row.next_allowed_at) - clock()) : 0;
    },

    async addressWait(address) {
      const since = clock() - LOGIN_ADDRESS_WINDOW_MS;
      const rows = await db
        .selectFrom('login_address_failures')
        .select('last_failure_at')
        .where('address', '=', address)
        .where('last_failure_at', '>', since)
        .orderBy('last_failure_at', 'desc')
        .limit(LOGIN_ADDRESS_ACCOUNT_LIMIT)
        .execute();
      if (rows.length < LOGIN_ADDRESS_ACCOUNT_LIMIT) return 0;
      // Free again when the oldest of the newest LIMIT accounts leaves the window.
      const oldest = Number(rows[rows.length - 1]!.last_failure_at);
      return Math.max(1, oldest + LOGIN_ADDRESS_WINDOW_MS - clock());
    },

    async recordFailure(rawAccount, address) {
      const account = normalize(rawAccount);
      const now = clock();
      await db
        .insertInto('login_address_failures')
        .values({ address, account, last_failure_at: now })
        .onConflict((oc) => oc.columns(['address', 'account']).doUpdateSet({ last_failure_at: now }))
        .execute();
      // One statement counts the failure, so concurrent servers never lose one.
      await db
        .insertInto('login_throttles')
        .values({ account, failures: 1, last_failure_at: now, next_allowed_at: now, notified_at: null })
        .onConflict((oc) =>
          oc.column('account').doUpdateSet((eb) => ({
            failures: eb
              .case()
              .when('login_throttles.last_failure_at', '<=', now - LOGIN_THROTTLE_QUIET_MS)
              .then(1)
              .else(eb('login_throttles.failures', '+', 1))
              .end(),
            last_failure_at: now,
          })),
        )
        .execute();
      const row = await db.selectFrom('login_throttles').select(['failures', 'next_allowed_at']).where('account', '=', account).executeTakeFirstOrThrow();
      const failures = Number(row.failures);
      const next = now + loginDelayAfter(failures, options);
      if (next > Number(row.next_allowed_at)) {
        await db.updateTable('login_throttles').set({ next_allowed_at: next }).where('account', '=', account).where('next_allowed_at', '<', next).execute();
      }
      let notify = false;
      if (failures >= LOGIN_NOTICE_AFTER_FAILURES) {
        const claimed = await db
          .updateTable('login_throttles')
          .set({ notified_at: now })
          .where('account', '=', account)
          .where((eb) => eb.or([eb('notified_at', 'is', null), eb('notified_at', '<=', now - LOGIN_NOTICE_INTERVAL_MS)]))
          .executeTakeFirst();
        notify = Number(claimed.numUpdatedRows) === 1;
      }
      return { failures, notify };
    },

    async clear(account) {
      // The notice time stays: a successful sign-in between two waves of an attack does not mean two mails a day.
      await db.updateTable('login_throttles').set({ failures: 0, next_allowed_at: 0 }).where('account', '=', normalize(account)).execute();
    },

    async prune() {
      const now = clock();
      await db.deleteFrom('login_address_failures').where('last_failure_at', '<=', now - LOGIN_ADDRESS_WINDOW_MS).execute();
      await db
        .deleteFrom('login_throttles')
        .where('last_failure_at', '<=', now - Math.max(LOGIN_THROTTLE_QUIET_MS, LOGIN_NOTICE_INTERVAL_MS))
        .where('next_allowed_at', '<=', now)
        .execute();
    },
  };
}

/** Tables of sign-in throttling (migration 0019-login-throttle). */
export interface LoginThrottlesTable {
  /** `login:` + the lower-cased login name as typed (also for names without an account: the answer must not differ). */
  account: string;
  failures: number;
  last_failure_at: number;
  /** Epoch ms before which a try is answered 429. */
  next_allowed_at: number;
  notified_at: number | null;
}

export interface LoginAddressFailuresTable {
  address: string;
  account: string;
  last_failure_at: number;
}

declare module '../db/schema' {
  interface Database {
    login_throttles: LoginThrottlesTable;
    login_address_failures: LoginAddressFailuresTable;
  }
}
