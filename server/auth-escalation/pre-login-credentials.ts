import { AUTHORIZATION_ERROR } from '@shared/contract/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseBasicCredentials } from '../auth/basic-credentials';
import { checkCredentials, loginRefused } from '../auth/login-flow';
import type { UserRow } from '../users/users-repository';

/**
 * The password check of the pre-login calls that carry Basic credentials (TOTP
 * registration, verification resend). They count failures and honour the captcha rule and
 * the sign-in throttling exactly like POST /auth (`checkCredentials`), so they are no side door for guessing passwords.
 */
export async function authenticatePreLogin(app: FastifyInstance, request: FastifyRequest): Promise<UserRow> {
  const credentials = parseBasicCredentials(request.headers.authorization);
  const query = (request.query ?? {}) as { j_captcha?: string; j_captcha_id?: string };
  const { user } = await checkCredentials(app, { credentials, query, ip: request.ip });
  if (user.disabled) throw loginRefused({ authorizationError: AUTHORIZATION_ERROR.USER_DISABLED }, 403);
  return user;
}
