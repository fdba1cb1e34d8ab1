import { CAPTCHA_AFTER_FAILED_LOGINS } from '@shared/contract/constants';
import { AUTHORIZATION_ERROR } from '@shared/contract/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseBasicCredentials } from '../auth/basic-credentials';
import { LOGIN_FAILURE_WINDOW_MS, loginRefused } from '../auth/login-flow';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { verifyAgainstDecoy, verifyPassword } from '../users/passwords';
import type { UserRow } from '../users/users-repository';

/**
 * The password check of the pre-login calls that carry Basic credentials (TOTP
 * registration, verification resend). They count failures and honour the captcha rule
 * exactly like POST /auth, so they are no side door for guessing passwords.
 */
export async function authenticatePreLogin(app: FastifyInstance, request: FastifyRequest): Promise<UserRow> {
  const credentials = parseBasicCredentials(request.headers.authorization);
  const login = (credentials?.login ?? '').trim().toLowerCase();
  const query = (request.query ?? {}) as { j_captcha?: string; j_captcha_id?: string };

  const [accountFailures, ipFailures] = await Promise.all([
    login ? app.rateLimiter.count(RATE_LIMIT_BUCKETS.loginFailureAccount, login, LOGIN_FAILURE_WINDOW_MS) : 0,
    app.rateLimiter.count(RATE_LIMIT_BUCKETS.loginFailureIp, request.ip, LOGIN_FAILURE_WINDOW_MS),
  ]);
  if (Math.max(accountFailures, ipFailures) >= CAPTCHA_AFTER_FAILED_LOGINS) {
    const ok = query.j_captcha && query.j_captcha_id && (await app.captchas.verify(query.j_captcha_id, query.j_captcha));
    if (!ok) throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.CAPTCHA_REQUIRED, message: query.j_captcha ? 'wrong' : 'required' });
  }

  const user = credentials && login ? await app.users.findByLogin(login) : undefined;
  const passwordOk = user ? await verifyPassword(user.password_hash, credentials!.password) : await verifyAgainstDecoy(credentials?.password ?? '');
  if (!user || !passwordOk) {
    await Promise.all([
      login ? app.rateLimiter.record(RATE_LIMIT_BUCKETS.loginFailureAccount, login) : undefined,
      app.rateLimiter.record(RATE_LIMIT_BUCKETS.loginFailureIp, request.ip),
    ]);
    throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.WRONG_CREDENTIALS });
  }
  if (user.disabled) throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.USER_DISABLED }, 403);
  return user;
}
