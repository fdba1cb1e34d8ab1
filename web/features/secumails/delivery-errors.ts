import { ApiError } from '@shared/api/api-error';
import { EMAIL_CONFIRMATION_REQUIRED } from '@shared/contract/deliveries';

/** SPEC §8 delivery page message for a failed load: not found, no access permission, unable to load. */
export function deliveryLoadMessageKey(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 404) return 'deliveries:messages.notFound';
    if (error.status === 401 || error.status === 403) return 'deliveries:messages.noPermission';
  }
  return 'deliveries:messages.unableToLoad';
}

/** The server wants a sign-in (level 2, or no valid token). */
export const needsSignIn = (error: unknown) => error instanceof ApiError && error.status === 401;

/** A valid level-1 link whose address was not confirmed (yet, or the proof ran out): back to the email prompt. */
export const needsEmailConfirmation = (error: unknown) =>
  error instanceof ApiError && error.status === 403 && error.error?.metadata?.reason === EMAIL_CONFIRMATION_REQUIRED;
