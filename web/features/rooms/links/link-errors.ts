import { isApiError } from '@shared/api/api-error';

/** The server's refusals of a link (server/README "Public links to room files"), as `roomLinks:page.errors.*` keys. */
const REASONS = ['linkInvalid', 'linkExpired', 'linkRevoked', 'linkUsedUp', 'passwordRequired', 'passwordWrong', 'fileDeleted', 'folderDeleted', 'wrongLinkKind', 'creatorLostAccess', 'scanInProgress', 'virusDetected', 'scanFailed'] as const;

export function linkErrorKey(error: unknown): string {
  if (!isApiError(error)) return 'general';
  if (error.status === 429) return 'rateLimited';
  // A malformed token (400) is as unknown as a wrong one.
  if (error.status === 400) return 'linkInvalid';
  const reason = (error.error?.metadata as { reason?: unknown } | undefined)?.reason;
  return REASONS.includes(reason as (typeof REASONS)[number]) ? (reason as string) : 'general';
}

/** A protected link's refusal until the right password is entered: the page asks for it instead of a message page. */
export const isPasswordRefusal = (error: unknown): boolean => ['passwordRequired', 'passwordWrong'].includes(linkErrorKey(error));
