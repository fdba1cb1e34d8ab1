import { ApiError } from '@shared/api/api-error';

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
