import { isApiError } from '@shared/api/api-error';

/** The server's exception class name of a failed call, if any. */
export function apiErrorClass(error: unknown): string | undefined {
  return isApiError(error) ? error.errorClass : undefined;
}
