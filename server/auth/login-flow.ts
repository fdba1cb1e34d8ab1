import { SETTING_KEYS } from '@shared/contract/settings';
import type { LoginQuery } from '@shared/contract/auth';
import { AUTHORIZATION_ERROR, AUTHORIZATION_ERRORS_HEADER, type AuthorizationErrorEntry } from '@shared/contract/errors';
import { VERIFICATION_CODE_TTL_MS } from '@shared/contract/auth-escalation';
import { CAPTCHA_AFTER_FAILED_LOGINS, reduceLanguage } from '@shared/contract/constants';
import type { FastifyInstance } from 'fastify';
import { HttpError, rateLimitExceeded } from '../core/http-error';
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

/** The `authorization-errors` header with one code (SPEC §7, §8), for answers outside POST /auth too. */
export function authorizationErrorHeader(code: AuthorizationErrorEntry['authorizationError']): Record<string, string> {
  return { [AUTHORIZATION_ERRORS_HEADER]: JSON.stringify([{ authorizationError: code }]) };
}

/** A signup for an address that has a proven account already: 409 with code 40 in body and header (SPEC §8). */
export function userAlreadyRegistered(): HttpError {
  return new HttpError(
    409,
    'ConflictException',
    'An account with this address exists already; please sign in',
    { reason: 'userAlreadyRegistered', authorizationError: AUTHORIZATION_ERROR.USER_ALREADY_REGISTERED },
    authorizationErrorHeader(AUTHORIZATION_ERROR.USER_ALREADY_REGISTERED),
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

/** 429 for a throttled sign-in (SPEC §8 shape, `Retry-After`); `reason` says which limit. */
export function loginThrottled(waitMs: number, reason: 'accountDelay' | 'addressLimit'): HttpError {
  const error = rateLimitExceeded(waitMs);
  return new HttpError(error.statusCode, error.errorClass, 'Too many failed sign-ins, please try again later', { ...error.metadata, reason }, error.headers);
}

/**
 * The throttle key: the login name as typed (lower-cased), whether or not it names an account.
 * NB: not the account id — a delay shared by username and email would answer "these two are the
 * same account" to anyone who failed five times with one and tried the other.
 */
const throttleKeyOf = (login: string) => `login:${login}`;

export interface CheckedCredentials {
  user: UserRow;
  /** Counts a later failure (a wrong TOTP code) like a wrong password. */
  recordFailure(): Promise<void>;
}

/**
 * Limits, captcha and password — the part every call with Basic credentials shares (POST /auth and
 * the pre-login calls), so none of them is a side door for guessing:
 * 1. per-address limit (distinct accounts failed from this address) → 429;
 * 2. the account's progressive delay → 429 (the password is not even looked at);
 * 3. captcha after 3 failures for the account or the address (DESIGN §9);
 * 4. the password (unknown users cost the same time as known ones).
 * Every failure feeds the captcha counts, the delay and the address limit; at
 * LOGIN_NOTICE_AFTER_FAILURES the owner gets one notice mail per day.
 */
export async function checkCredentials(app: FastifyInstance, attempt: LoginAttempt): Promise<CheckedCredentials> {
  const { rateLimiter, captchas, users, loginThrottle } = app;
  const login = (attempt.credentials?.login ?? '').trim().toLowerCase();

  const addressWait = await loginThrottle.addressWait(attempt.ip);
  if (addressWait > 0) throw loginThrottled(addressWait, 'addressLimit');
  const user = attempt.credentials && login ? await users.findByLogin(login) : undefined;
  const key = throttleKeyOf(login);
  if (login) {
    const accountWait = await loginThrottle.accountWait(key);
    if (accountWait > 0) throw loginThrottled(accountWait, 'accountDelay');
  }

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
    const [, , outcome] = await Promise.all([
      login ? rateLimiter.record(RATE_LIMIT_BUCKETS.loginFailureAccount, login) : undefined,
      rateLimiter.record(RATE_LIMIT_BUCKETS.loginFailureIp, attempt.ip),
      login ? loginThrottle.recordFailure(key, attempt.ip) : undefined,
    ]);
    if (user && outcome?.notify) notifyAccountUnderAttack(app, user, outcome.failures, attempt.ip);
  };

  const passwordOk = user
    ? await verifyPassword(user.password_hash, attempt.credentials!.password)
    : await verifyAgainstDecoy(attempt.credentials?.password ?? '');
  if (!user || !passwordOk) {
    await recordFailure();
    throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.WRONG_CREDENTIALS });
  }
  return { user, recordFailure };
}

/** The notice mail to the owner of an account under attack (in the background; a failure is logged). */
function notifyAccountUnderAttack(app: FastifyInstance, user: UserRow, failures: number, address: string): void {
  const at = new Date().toISOString().replace('T', ' ').slice(0, 16);
  void app.mailer
    .send({ to: user.email, template: 'signInAttempts', language: reduceLanguage(user.language), data: { failures, address, at } })
    .catch((error: unknown) => app.log.error({ err: error }, 'sign-in attempts notice failed'));
}

/** A successful sign-in (or a password reset): the account starts over, by its username and its email. */
export async function clearLoginFailures(app: FastifyInstance, user: Pick<UserRow, 'username' | 'email'>): Promise<void> {
  const names = [...new Set([user.username, user.email].map((n) => n.trim().toLowerCase()))];
  await Promise.all(
    names.flatMap((name) => [app.rateLimiter.clear(RATE_LIMIT_BUCKETS.loginFailureAccount, name), app.loginThrottle.clear(throttleKeyOf(name))]),
  );
}

/**
 * The sign-in escalation (agreed order): limits and captcha → credentials → disabled → email
 * verification → TOTP → disclaimer. Returns the user when every step passed; throws
 * `loginRefused(...)` (or 429 `loginThrottled`) at the first step that stops it.
 */
export async function runLoginFlow(app: FastifyInstance, attempt: LoginAttempt): Promise<UserRow> {
  const { rateLimiter, users, settings } = app;

  // 1–2. Limits, captcha, credentials.
  const { user, recordFailure } = await checkCredentials(app, attempt);

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

  // 7. Success: the account's failure count and delay start over.
  await clearLoginFailures(app, user);
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
