import { createHash, randomBytes } from 'node:crypto';
import { PASSWORD_LINK_INVITATION_FLAG, PASSWORD_RESET_TTL_MS, PASSWORD_RESET_WEB_PATH } from '@shared/contract/auth-escalation';
import { reduceLanguage, type Language } from '@shared/contract/constants';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { rateLimitExceeded } from '../core/http-error';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import '../security/tables';
import { hashPassword } from '../users/passwords';

/**
 * Password reset by mailed link (SPEC §2, §8 "rate limit on password reset"): a
 * single-use token of 256 bits, of which only the SHA-256 is stored, valid 60 minutes.
 * The request never tells whether the address belongs to an account.
 */

/** 256 random bits: unguessable (DESIGN §2 asks ≥128 bits for public links). */
const RESET_TOKEN_BYTES = 32;
/** Per address: a few mails an hour is plenty for a person and useless for mail bombing. */
export const PASSWORD_RESET_ADDRESS_LIMIT = { limit: 3, windowMs: 60 * 60_000 } as const;
/** Per IP: one office behind NAT may have several people forgetting passwords. */
export const PASSWORD_RESET_IP_LIMIT = { limit: 10, windowMs: 60 * 60_000 } as const;

export const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex');


/**
 * A new one-time link to set the account's password (a reset, or an invitation: user-admin.ts),
 * valid for `ttlMs`; only its SHA-256 is stored. Only the newest link works: an older mail lying
 * around is worthless.
 */
export async function issuePasswordLink(app: FastifyInstance, userId: number, ttlMs: number, options: { invitation?: boolean } = {}): Promise<string> {
  const token = randomBytes(RESET_TOKEN_BYTES).toString('base64url');
  const now = Date.now();
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('password_reset_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await trx
      .insertInto('password_reset_tokens')
      .values({ token_hash: hashResetToken(token), user_id: userId, created_at: now, expires_at: now + ttlMs, used_at: null })
      .execute();
  });
  // In the fragment (issue 28 §1): never sent to a server, so no proxy log or Referer keeps it.
  // An invitation's link says so in the query (not secret, it only picks the first-password wording).
  const query = options.invitation ? `?${PASSWORD_LINK_INVITATION_FLAG}=1` : '';
  return `${app.config.publicUrl}${PASSWORD_RESET_WEB_PATH}${query}#token=${encodeURIComponent(token)}`;
}

export type ResetTokenState = 'valid' | 'unknown' | 'used' | 'expired';

export interface RequestPasswordResetInput {
  email: string;
  language: Language | undefined;
  ip: string;
  log: FastifyBaseLogger;
}

/**
 * Rate limits, then mails a link when the address belongs to an enabled account. The
 * mail goes out in the background, so the answer takes the same time either way.
 */
export async function requestPasswordReset(app: FastifyInstance, input: RequestPasswordResetInput): Promise<void> {
  const address = input.email.trim().toLowerCase();
  const byIp = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.passwordResetIp, input.ip, PASSWORD_RESET_IP_LIMIT);
  if (!byIp.allowed) throw rateLimitExceeded(byIp.retryAfterMs);
  const byAddress = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.passwordResetAddress, address, PASSWORD_RESET_ADDRESS_LIMIT);
  if (!byAddress.allowed) throw rateLimitExceeded(byAddress.retryAfterMs);

  const user = await app.db
    .selectFrom('users')
    .select(['id', 'email', 'language', 'disabled'])
    .where(sql<string>`lower(email)`, '=', address)
    .executeTakeFirst();
  if (!user || user.disabled || !address) return;

  const link = await issuePasswordLink(app, user.id, PASSWORD_RESET_TTL_MS);
  // The account's own language wins; the requester's choice only matters for nobody.
  const language = user.language ? reduceLanguage(user.language) : (input.language ?? 'en');
  void app.mailer
    .send({ to: user.email, template: 'passwordResetLink', language, data: { link, validMinutes: PASSWORD_RESET_TTL_MS / 60_000 } })
    .catch((error: unknown) => input.log.error({ err: error }, 'password reset mail failed'));
}

export async function resetTokenState(app: FastifyInstance, token: string): Promise<ResetTokenState> {
  const row = await app.db
    .selectFrom('password_reset_tokens')
    .select(['expires_at', 'used_at'])
    .where('token_hash', '=', hashResetToken(token))
    .executeTakeFirst();
  if (!row) return 'unknown';
  if (row.used_at !== null) return 'used';
  if (Number(row.expires_at) <= Date.now()) return 'expired';
  return 'valid';
}

/**
 * Consumes the token and sets the new password (already checked against the policy).
 * Returns the user id, or null when the token is unknown, used or expired. Every
 * session of the user ends: whoever knew the old password is out.
 */
export async function confirmPasswordReset(app: FastifyInstance, token: string, password: string): Promise<number | null> {
  const tokenHash = hashResetToken(token);
  const passwordHash = await hashPassword(password);
  const now = Date.now();
  return app.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('password_reset_tokens').select('user_id').where('token_hash', '=', tokenHash).executeTakeFirst();
    if (!row) return null;
    // The conditional update is the single-use guarantee, also against two parallel confirms.
    const consumed = await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(consumed.numUpdatedRows) !== 1) return null;
    // Following the link proves the address, so it counts as verified.
    await trx.updateTable('users').set({ password_hash: passwordHash, email_verified: 1, updated_at: now }).where('id', '=', row.user_id).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', row.user_id).execute();
    await trx.deleteFrom('password_reset_tokens').where('user_id', '=', row.user_id).where('used_at', 'is', null).execute();
    return row.user_id;
  });
}
