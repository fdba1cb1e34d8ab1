import { call } from '@shared/api/call';
import { ROOM_OPS_ENDPOINTS } from '@shared/contract/endpoints/room-ops';
import type { StorageQuota } from '@shared/contract/room-ops';
import { quotaNearlyFull } from '@shared/contract/storage-quotas';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { formatSize } from '@web/lib/format-size';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { Alert } from './alert';

/** GET /rooms/quota through the contract (with `roomUuid`: that room's figures too); a failure leaves the views away. */
export const useStorageQuota = (roomUuid?: string) => {
  const { user } = useAuthState();
  return useSWR(user ? ['rooms/quota', user.uuid, roomUuid ?? ''] : null, (): Promise<StorageQuota> => call(apiClient, ROOM_OPS_ENDPOINTS.quota, { query: roomUuid ? { roomUuid } : {} }));
};

type Scope = 'room' | 'user';

/** The first quota of `scopes` at or past the warning share (QUOTA_WARNING_RATIO), with whether it is full. */
export function quotaWarning(quota: StorageQuota | undefined, scopes: readonly Scope[]): { scope: Scope; used: number; total: number; full: boolean } | null {
  for (const scope of scopes) {
    const figures = quota?.[scope];
    if (figures && figures.total !== null && quotaNearlyFull(figures.used, figures.total)) {
      return { scope, used: figures.used, total: figures.total, full: figures.used >= figures.total };
    }
  }
  return null;
}

/** The warning bar of the upload and send pages (issue 32 §3): shown from 90 % of the room's or the user's quota. */
export function StorageWarning({ roomUuid }: { roomUuid?: string }) {
  const { t, i18n } = useTranslation();
  const warning = quotaWarning(useStorageQuota(roomUuid).data, roomUuid ? ['room', 'user'] : ['user']);
  if (!warning) return null;
  const values = { used: formatSize(warning.used, i18n.language), total: formatSize(warning.total, i18n.language) };
  return <Alert type="warning">{t(`common:storage.${warning.scope}${warning.full ? 'Full' : 'NearlyFull'}`, values)}</Alert>;
}
