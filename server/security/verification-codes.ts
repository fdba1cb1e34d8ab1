import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { VERIFICATION_CODE_LENGTH, VERIFICATION_CODE_TTL_MS } from '@shared/contract/auth-escalation';
import type { Database } from '../db/schema';
import { systemClock, type Clock } from './clock';
import './tables';

/**
 * Email verification codes: 6 digits, only a salted hash stored, valid 15 minutes, a few
 * attempts per code (then a new code is needed), not re-sent within a minute unless the
 * user asks for it.
 */

/** Five guesses in a 10^6 space leave a 1-in-200,000 chance per code. */
export const VERIFICATION_MAX_ATTEMPTS = 5;
/** Sign-in retries within this time do not mail another code (the user is still reading). */
export const VERIFICATION_RESEND_INTERVAL_MS = 60_000;

export type VerificationResult = 'valid' | 'wrong' | 'expired' | 'missing' | 'locked';

export interface VerificationCodes {
  /**
   * Makes a new code unless one was sent less than a minute ago and `force` is false.
   * Returns the plain code to mail, or null when nothing needs sending.
   */
  issue(userId: number, options?: { force?: boolean }): Promise<string | null>;
  /** Checks a code; a valid code is consumed. */
  verify(userId: number, code: string): Promise<VerificationResult>;
  discard(userId: number): Promise<void>;
}

function hashCode(salt: string, code: string): string {
  return createHash('sha256').update(`${salt}:${code}`).digest('hex');
}

function randomCode(): string {
  return String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');
}

export function createVerificationCodes(db: Kysely<Database>, clock: Clock = systemClock): VerificationCodes {
  return {
    async issue(userId, options = {}) {
      const now = clock();
      const existing = await db.selectFrom('verification_codes').select(['sent_at', 'expires_at', 'attempts']).where('user_id', '=', userId).executeTakeFirst();
      const stillFresh =
        existing &&
        now - Number(existing.sent_at) < VERIFICATION_RESEND_INTERVAL_MS &&
        Number(existing.expires_at) > now &&
        existing.attempts < VERIFICATION_MAX_ATTEMPTS;
      if (stillFresh && !options.force) return null;

      const code = randomCode();
      const salt = randomBytes(16).toString('hex');
      const row = { code_hash: hashCode(salt, code), salt, attempts: 0, sent_at: now, expires_at: now + VERIFICATION_CODE_TTL_MS };
      await db
        .insertInto('verification_codes')
        .values({ user_id: userId, ...row })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
        .execute();
      return code;
    },
    async verify(userId, code) {
      const row = await db.selectFrom('verification_codes').selectAll().where('user_id', '=', userId).executeTakeFirst();
      if (!row) return 'missing';
      if (Number(row.expires_at) <= clock()) return 'expired';
      if (row.attempts >= VERIFICATION_MAX_ATTEMPTS) return 'locked';
      const given = Buffer.from(hashCode(row.salt, code.replace(/\s+/g, '')), 'hex');
      const expected = Buffer.from(row.code_hash, 'hex');
      if (given.length === expected.length && timingSafeEqual(given, expected)) {
        await db.deleteFrom('verification_codes').where('user_id', '=', userId).execute();
        return 'valid';
      }
      await db
        .updateTable('verification_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('user_id', '=', userId)
        .execute();
      return 'wrong';
    },
    async discard(userId) {
      await db.deleteFrom('verification_codes').where('user_id', '=', userId).execute();
    },
  };
}
