import { isApiError } from '@shared/api/api-error';
import { parseAuthorizationErrors } from '@shared/auth/authorization-errors';
import { AUTHORIZATION_ERROR } from '@shared/contract/errors';

/**
 * Whether a pre-login call (TOTP registration, verification resend) was refused because a
 * captcha is due after repeated failed sign-ins: 'required', 'wrong' (the answer sent was
 * wrong), or null for any other outcome.
 */
export function refusedForCaptcha(error: unknown): 'required' | 'wrong' | null {
  const entries = isApiError(error) ? parseAuthorizationErrors(error.headers) : null;
  const entry = entries?.find((candidate) => candidate.authorizationError === AUTHORIZATION_ERROR.CAPTCHA_REQUIRED);
  if (!entry) return null;
  return entry.message === 'wrong' ? 'wrong' : 'required';
}
