import { isApiError } from '@shared/api/api-error';

/** True when the crypto API says the passphrase does not open the blob (errors keep their code across the Worker). */
export function isWrongPassphrase(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'secupass-wrong-passphrase';
}

/** The server's exception class name of a failed call, if any. */
export function apiErrorClass(error: unknown): string | undefined {
  return isApiError(error) ? error.errorClass : undefined;
}
