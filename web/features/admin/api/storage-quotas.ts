import { call } from '@shared/api/call';
import { STORAGE_QUOTA_ENDPOINTS } from '@shared/contract/endpoints/storage-quotas';
import type { RoomQuotaList, RoomQuotaRow, UserQuota } from '@shared/contract/storage-quotas';
import { apiClient } from '@web/lib/api-client';

/** GET /admin/storage-quotas/rooms (ROLE_ADMIN): rooms with used bytes and quota, `q` on plain rooms' names. */
export const loadRoomQuotas = (q: string): Promise<RoomQuotaList> => call(apiClient, STORAGE_QUOTA_ENDPOINTS.roomQuotas, { query: q ? { q } : {} });

/** PUT /admin/rooms/{roomUuid}/storage-quota (ROLE_ADMIN); null: no quota. */
export const saveRoomQuota = (roomUuid: string, quota: number | null): Promise<RoomQuotaRow> =>
  call(apiClient, STORAGE_QUOTA_ENDPOINTS.setRoomQuota, { params: { roomUuid }, body: { quota } });

/** GET /admin/users/{userUuid}/storage-quota (ROLE_ADMIN). */
export const loadUserQuota = (userUuid: string): Promise<UserQuota> => call(apiClient, STORAGE_QUOTA_ENDPOINTS.userQuota, { params: { userUuid } });

/** PUT /admin/users/{userUuid}/storage-quota (ROLE_ADMIN); null: the default applies. */
export const saveUserQuota = (userUuid: string, quota: number | null): Promise<UserQuota> =>
  call(apiClient, STORAGE_QUOTA_ENDPOINTS.setUserQuota, { params: { userUuid }, body: { quota } });
