import type { ErrorClass } from '@shared/contract/errors';

/**
 * An error meant for the client: its status, the exception class named in the
 * backend error object (SPEC §8), a message safe to show, and figures in metadata.
 * Anything else thrown becomes a generic 500.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly errorClass: ErrorClass,
    message: string,
    readonly metadata: Record<string, unknown> = {},
    /** Extra response headers (e.g. `authorization-errors`, `retry-after`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, metadata: Record<string, unknown> = {}) =>
  new HttpError(400, 'ValidationException', message, metadata);
export const authenticationRequired = (message = 'Authentication required') =>
  new HttpError(401, 'AuthenticationRequiredException', message);
export const accessDenied = (message = "You don't have sufficient rights, please ask your administrator") =>
  new HttpError(403, 'AccessDeniedException', message);
export const notFound = (message = 'Not found', metadata: Record<string, unknown> = {}) => new HttpError(404, 'NotFoundException', message, metadata);
export const conflict = (message: string) => new HttpError(409, 'ConflictException', message);

/** 429 `RateLimitExceededException` with `Retry-After` and `metadata.retryAfterSeconds` (at least 1). */
export function rateLimitExceeded(retryAfterMs: number): HttpError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpError(
    429,
    'RateLimitExceededException',
    'Too many requests, please try again later',
    { retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );
}
