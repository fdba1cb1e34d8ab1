import { AUTHORIZATION_ERROR, AUTHORIZATION_ERRORS_HEADER, type AuthorizationErrorEntry } from '@shared/contract/errors';
import { HttpError } from './http-error';

// The login codes other areas answer too (signups in external/, data-room requests and invitations
// in rooms/): here in core/ so those areas need not import auth/ (which imports external/).

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
