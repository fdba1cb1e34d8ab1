import type { Generated } from 'kysely';

/**
 * Tables of the sign-in escalations, merged into the core's `Database` type. Same
 * conventions as the core: times are epoch milliseconds (bigint), flags 0/1.
 */

/** One row per counted event (a failed sign-in, a reset request, …) in a bucket. */
export interface RateLimitEventsTable {
  id: Generated<number>;
  /** What is counted, e.g. `login-failure:account`; see RATE_LIMIT_BUCKETS. */
  bucket: string;
  /** Who it is counted for: a lower-cased login name, an IP address, an email address. */
  subject: string;
  created_at: number;
}

export interface CaptchasTable {
  id: string;
  /** Lower-cased expected answer. */
  answer: string;
  expires_at: number;
}

/** At most one open email verification code per user. */
export interface VerificationCodesTable {
  user_id: number;
  /** SHA-256 hex of `salt:code`. */
  code_hash: string;
  salt: string;
  attempts: number;
  sent_at: number;
  expires_at: number;
}

export interface PasswordResetTokensTable {
  /** SHA-256 hex of the token in the link: a database leak does not hand out resets. */
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface EscalationTables {
  rate_limit_events: RateLimitEventsTable;
  captchas: CaptchasTable;
  verification_codes: VerificationCodesTable;
  password_reset_tokens: PasswordResetTokensTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends EscalationTables {}
}
