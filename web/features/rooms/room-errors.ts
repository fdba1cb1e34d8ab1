import { isApiError } from '@shared/api/api-error';

/**
 * What a refused room call means for the person (SPEC §8 data-room errors), as an i18n key of the
 * `rooms` namespace: `field` says whether the message belongs at the name or user field of a
 * dialog instead of a toast.
 */
export interface RoomErrorText {
  key: string;
  values?: Record<string, unknown>;
  field?: 'name' | 'user';
}

const NAME_REASONS = ['empty', 'tooLong', 'invalidCharacters', 'reserved'] as const;

export function roomErrorText(error: unknown): RoomErrorText {
  if (!isApiError(error)) return { key: 'errors.network' };
  const metadata = (error.error?.metadata ?? {}) as { reason?: unknown; field?: unknown; kind?: unknown };
  const reason = typeof metadata.reason === 'string' ? metadata.reason : undefined;
  if (error.status === 400 && metadata.field === 'name' && NAME_REASONS.includes(reason as (typeof NAME_REASONS)[number])) {
    return { key: `errors.name.${reason}`, field: 'name' };
  }
  if (error.status === 409 && reason === 'nameExists') return { key: metadata.kind === 'folder' ? 'errors.folderExists' : metadata.kind === 'file' ? 'errors.fileExists' : 'errors.roomExists', field: 'name' };
  if (error.errorClass === 'InviteUserToShareException') return { key: 'errors.notRegistered', field: 'user' };
  if (error.status === 400 && (reason === 'moveToOtherRoom' || reason === 'moveIntoItself')) return { key: `errors.${reason}` };
  if (error.status === 409 && reason === 'lastOwner') return { key: 'errors.lastOwner' };
  if (error.status === 409 && reason === 'confirmOwnChange') return { key: 'errors.confirmOwnChange' };
  if (error.status === 409 && reason === 'versionConflict') return { key: 'errors.versionConflict' };
  if (error.errorClass === 'LicenseLimitExceededException') return { key: 'errors.licence' };
  if (error.status === 507) return { key: 'errors.storageFull' };
  if (error.status === 403) return { key: 'errors.forbidden' };
  if (error.status === 404) return { key: 'errors.notFound' };
  if (error.status === 400) return { key: 'errors.invalid' };
  return { key: 'errors.general' };
}
