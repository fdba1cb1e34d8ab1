import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { systemClock, type Clock } from './clock';
import './tables';

/**
 * Database-backed rate limiter (DESIGN §5: several server instances share it). Counts
 * events per bucket and subject in a sliding window.
 */

export const RATE_LIMIT_BUCKETS = {
  loginFailureAccount: 'login-failure:account',
  loginFailureIp: 'login-failure:ip',
  passwordResetIp: 'password-reset:ip',
  passwordResetAddress: 'password-reset:address',
  verificationResend: 'verification-resend:user',
  captchaIssueIp: 'captcha-issue:ip',
  passwordChangeFailure: 'password-change-failure:user',
  /** Time steps of TOTP codes already used, per user (`userId:step`): refuses replays. */
  totpUsedStep: 'totp-used:step',
  /** Email prompt: wrong addresses per share and client address (`shareUuid ip`), every try per IP; SMS sent per share (external recipients). */
  emailCheckShare: 'email-check:share',
  emailCheckIp: 'email-check:ip',
  smsSentShare: 'sms-sent:share',
  /** Recipient-status look-ups (chip warnings) per sender: keeps the address book from being enumerated. */
  recipientStatusUser: 'recipient-status:user',
  /** GET /users/{userUuid}/public-keys per caller (opening level 3/4 deliveries asks once per sender). */
  publicKeysUser: 'public-keys:user',
  /** Self-registrations per client address (user-admin/signup-routes.ts). */
  signupIp: 'signup:ip',
  /** Submit-box tickets per address and per client address (server/submit-box). */
  submitTicketAddress: 'submit-ticket:address',
  submitTicketIp: 'submit-ticket:ip',
  /** Public form submissions per client address and per form (server/forms/hardening.ts). */
  formSubmitIp: 'form-submit:ip',
  formSubmitForm: 'form-submit:form',
  /** Data-room invitation check and signup per client address (rooms/sharing/invitations.ts). */
  roomInvitationIp: 'room-invitation:ip',
  /** Data-room request token calls (info, signup, delivery) per client address, wrong tokens too (server/rooms/requests/requests-routes.ts). */
  roomRequestIp: 'room-request:ip',
  /** Public room file link calls (info, download) per client address, wrong tokens too (server/rooms/sharing/link-routes.ts). */
  roomLinkIp: 'room-link:ip',
  /** Wrong passwords of a protected room link, per link (server/rooms/sharing/links.ts). */
  roomLinkPassword: 'room-link:password',
  /** Refused partner-server calls per client address (server/trust-networks/ping.ts): keeps the audit log from being flooded. */
  trustRefusalIp: 'trust-refusal:ip',
} as const;
export type RateLimitBucket = (typeof RATE_LIMIT_BUCKETS)[keyof typeof RATE_LIMIT_BUCKETS];

export interface RateLimitWindow {
  /** Events allowed in the window; the next one is refused. */
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Events in the window including this one. */
  count: number;
  /** How long until the oldest counted event leaves the window (0 when allowed). */
  retryAfterMs: number;
}

export interface RateLimiter {
  /** Records one event and tells whether it stays within `limit` for the window. */
  hit(bucket: RateLimitBucket, subject: string, window: RateLimitWindow): Promise<RateLimitResult>;
  /** Records an event without judging it (e.g. a failed sign-in). */
  record(bucket: RateLimitBucket, subject: string): Promise<void>;
  /** Events of the subject in the bucket within the last `windowMs`. */
  count(bucket: RateLimitBucket, subject: string, windowMs: number): Promise<number>;
  /** Forgets the subject's events in the bucket (e.g. after a successful sign-in). */
  clear(bucket: RateLimitBucket, subject: string): Promise<void>;
  /** Deletes events older than `maxAgeMs` in every bucket. */
  prune(maxAgeMs: number): Promise<number>;
}

/** Subjects are compared case-insensitively (addresses, login names). */
function normalize(subject: string): string {
  return subject.trim().toLowerCase();
}

export function createRateLimiter(db: Kysely<Database>, clock: Clock = systemClock): RateLimiter {
  async function record(bucket: RateLimitBucket, subject: string): Promise<void> {
    await db
      .insertInto('rate_limit_events')
      .values({ bucket, subject: normalize(subject), created_at: clock() })
      .execute();
  }

  async function count(bucket: RateLimitBucket, subject: string, windowMs: number): Promise<number> {
    const row = await db
      .selectFrom('rate_limit_events')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('bucket', '=', bucket)
      .where('subject', '=', normalize(subject))
      .where('created_at', '>', clock() - windowMs)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  return {
    record,
    count,
    async hit(bucket, subject, { limit, windowMs }) {
      await record(bucket, subject);
      const since = clock() - windowMs;
      const rows = await db
        .selectFrom('rate_limit_events')
        .select('created_at')
        .where('bucket', '=', bucket)
        .where('subject', '=', normalize(subject))
        .where('created_at', '>', since)
        .orderBy('created_at', 'asc')
        .execute();
      const n = rows.length;
      if (n <= limit) return { allowed: true, count: n, retryAfterMs: 0 };
      // The window frees a slot when the event `n - limit` back from now ages out.
      const freeing = rows[n - limit - 1]?.created_at ?? clock();
      return { allowed: false, count: n, retryAfterMs: Math.max(1, Number(freeing) + windowMs - clock()) };
    },
    async clear(bucket, subject) {
      await db
        .deleteFrom('rate_limit_events')
        .where('bucket', '=', bucket)
        .where('subject', '=', normalize(subject))
        .execute();
    },
    async prune(maxAgeMs) {
      const result = await db.deleteFrom('rate_limit_events').where('created_at', '<=', clock() - maxAgeMs).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
