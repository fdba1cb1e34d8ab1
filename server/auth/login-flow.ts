import { SETTING_KEYS } from '@shared/contract/settings';
import type { LoginQuery } from '@shared/contract/auth';
import { AUTHORIZATION_ERROR, AUTHORIZATION_ERRORS_HEADER, type AuthorizationErrorEntry } from '@shared/contract/errors';
import { VERIFICATION_CODE_TTL_MS } from '@shared/contract/auth-escalation';
import { CAPTCHA_AFTER_FAILED_LOGINS, reduceLanguage } from '@shared/contract/constants';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../core/http-error';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { acceptTotpCodeOnce } from '../security/totp';
import { verifyAgainstDecoy, verifyPassword } from '../users/passwords';
import type { UserRow } from '../users/users-repository';
import type { BasicCredentials } from './basic-credentials';

/** Failed sign-ins are counted over this window for the captcha rule (DESIGN §9). */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

/** A refused sign-in: 401 (403 for a disabled user) with the code in `authorization-errors`. */
export function loginRefused(entry: AuthorizationErrorEntry, status: 401 | 403 = 401): HttpError {
  const message = entry.message ? `Sign-in refused (${entry.authorizationError}: ${entry.message})` : `Sign-in refused (${entry.authorizationError})`;
  return new HttpError(
    status,
    status === 403 ? 'AccessDeniedException' : 'AuthenticationRequiredException',
    message,
    { authorizationErrors: [entry] },
    { [AUTHORIZATION_ERRORS_HEADER]: JSON.stringify([entry]) },
  );
}

/** `jane.doe@example.org` → `j***@example.org`: enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

export interface LoginAttempt {
  credentials: BasicCredentials | null;
  query: LoginQuery;
  ip: string;
}

/**
 * The sign-in escalation (agreed order): captcha → credentials → disabled → email
 * verification → TOTP → disclaimer. Returns the user when every step passed; throws
 * `loginRefused(...)` at the first step that stops it.
 */
export async function runLoginFlow(app: FastifyInstance, attempt: LoginAttempt): Promise<UserRow> {
  const { rateLimiter, captchas, users, settings } = app;
  const login = (attempt.credentials?.login ?? '').trim().toLowerCase();

  // 1. Captcha after repeated failures for this account or this address.
  const [accountFailures, ipFailures] = await Promise.all([
    login ? rateLimiter.count(RATE_LIMIT_BUCKETS.loginFailureAccount, login, LOGIN_FAILURE_WINDOW_MS) : 0,
    rateLimiter.count(RATE_LIMIT_BUCKETS.loginFailureIp, attempt.ip, LOGIN_FAILURE_WINDOW_MS),
  ]);
  if (Math.max(accountFailures, ipFailures) >= CAPTCHA_AFTER_FAILED_LOGINS) {
    const { j_captcha: answer, j_captcha_id: captchaId } = attempt.query;
    if (!answer || !captchaId) throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.CAPTCHA_REQUIRED, message: 'required' });
    if (!(await captchas.verify(captchaId, answer))) {
      throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.CAPTCHA_REQUIRED, message: 'wrong' });
    }
  }

  const recordFailure = async () => {
    await Promise.all([
      login ? rateLimiter.record(RATE_LIMIT_BUCKETS.loginFailureAccount, login) : undefined,
      rateLimiter.record(RATE_LIMIT_BUCKETS.loginFailureIp, attempt.ip),
    ]);
  };

  // 2. Credentials. Unknown users cost the same time as known ones.
  const user = attempt.credentials && login ? await users.findByLogin(login) : undefined;
  const passwordOk = user
    ? await verifyPassword(user.password_hash, attempt.credentials!.password)
    : await verifyAgainstDecoy(attempt.credentials?.password ?? '');
  if (!user || !passwordOk) {
    await recordFailure();
    throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.WRONG_CREDENTIALS });
  }

  // 3. Disabled accounts.
  if (user.disabled) throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.USER_DISABLED }, 403);

  // 4. Email verification: a code is mailed (at most once a minute) and must come back.
  if (!user.email_verified) {
    const code = attempt.query.j_verification_code?.replace(/\s+/g, '');
    if (!code) {
      const fresh = await app.verificationCodes.issue(user.id);
      if (fresh) {
        await app.mailer.send({
          to: user.email,
          template: 'accountVerificationCode',
          language: reduceLanguage(user.language),
          data: { code: fresh, validMinutes: Math.round(VERIFICATION_CODE_TTL_MS / 60_000) },
        });
      }
      throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.ACCOUNT_VERIFICATION_REQUIRED, email: maskEmail(user.email) });
    }
    const result = await app.verificationCodes.verify(user.id, code);
    if (result !== 'valid') {
      throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.WRONG_ACCOUNT_VERIFICATION_CODE, email: maskEmail(user.email), message: result });
    }
    await users.update(user.id, { email_verified: 1 });
    user.email_verified = 1;
  }

  // 5. Authentication app (TOTP).
  const appCode = attempt.query.j_auth_app_code?.replace(/\s+/g, '') ?? '';
  if (user.totp_secret) {
    if (!appCode) throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.TOTP_AUTHORIZATION_FAILED, message: 'required' });
    const secret = openTotpSecret(app, user.id, 'totp_secret', user.totp_secret);
    if (!(await acceptTotpCodeOnce(rateLimiter, user.id, secret, appCode))) {
      await recordFailure();
      throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.TOTP_AUTHORIZATION_FAILED });
    }
  } else if (user.totp_pending_secret && appCode) {
    // Confirms a registration made just before (POST /auth/totp/registration).
    const pending = openTotpSecret(app, user.id, 'totp_pending_secret', user.totp_pending_secret);
    if (!(await acceptTotpCodeOnce(rateLimiter, user.id, pending, appCode))) {
      await recordFailure();
      throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.TOTP_AUTHORIZATION_FAILED });
    }
    const sealed = app.secretBox.seal(user.id, 'totp_secret', pending);
    await users.update(user.id, { totp_secret: sealed, totp_pending_secret: null });
    user.totp_secret = sealed;
    user.totp_pending_secret = null;
  } else if (user.totp_required || (await settings.get<boolean>(SETTING_KEYS.totpRequired)) === true) {
    throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.TOTP_REGISTRATION_REQUIRED });
  }

  // 6. Login disclaimer.
  if ((await settings.get<boolean>(SETTING_KEYS.loginDisclaimerEnabled)) === true && attempt.query.j_login_disclaimer_accepted !== 'true') {
    throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.LOGIN_DISCLAIMER_REQUIRED });
  }

  // 7. Success: the account's failure count starts over.
  await rateLimiter.clear(RATE_LIMIT_BUCKETS.loginFailureAccount, login);
  return user;
}

/**
 * A stored TOTP secret in clear, or a refused sign-in when it does not open (the database was
 * restored under another server key, `KUVERT_SECRET_KEY` changed): logged for the operator, an
 * administrator then removes the user's app (`POST /admin/users/{uuid}/totp/reset`). Never a 500.
 */
function openTotpSecret(app: FastifyInstance, userId: number, column: 'totp_secret' | 'totp_pending_secret', stored: string): string {
  try {
    return app.secretBox.open(userId, column, stored);
  } catch (error) {
    app.log.error({ userId, column, reason: (error as Error).message }, 'a TOTP secret does not open with this server key (restored database? other KUVERT_SECRET_KEY?)');
    throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.TOTP_AUTHORIZATION_FAILED, message: 'unavailable' });
  }
}
