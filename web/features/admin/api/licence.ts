import { isApiError } from '@shared/api/api-error';
import { call } from '@shared/api/call';
import { LICENCE_ENDPOINTS } from '@shared/contract/endpoints/licence';
import { LICENCE_KINDS, LICENCE_LIMIT_ERROR, type LicenceLimitMetadata } from '@shared/contract/licence';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** GET /admin/licence (ROLE_ADMIN, ROLE_USER_ADMIN): counts against the operator's caps, with holders. */
export const useLicenceOverview = () => useSWR('admin/licence', () => call(apiClient, LICENCE_ENDPOINTS.overview, {}), { revalidateOnFocus: false });

/** The figures of a refused grant (409 LicenseLimitExceededException), or null for any other failure. */
export function licenceLimitOf(error: unknown): LicenceLimitMetadata | null {
  if (!isApiError(error) || error.status !== 409 || error.error?.error !== LICENCE_LIMIT_ERROR) return null;
  const metadata = error.error.metadata as Partial<LicenceLimitMetadata>;
  if (!LICENCE_KINDS.includes(metadata.licence as never) || typeof metadata.cap !== 'number' || typeof metadata.used !== 'number') return null;
  return metadata as LicenceLimitMetadata;
}

/** The message for a refused grant, naming the licence and its figures; null when the error is something else. */
export function licenceLimitText(t: (key: string, options?: Record<string, unknown>) => string, error: unknown): string | null {
  const limit = licenceLimitOf(error);
  if (!limit) return null;
  return t('admin:licence.limitReached', { used: limit.used, cap: limit.cap, licence: t(`admin:licence.kinds.${limit.licence}.title`) });
}
