import { endpointArea } from '../endpoint';
import {
  RoomQuotaListSchema,
  RoomQuotaParamsSchema,
  RoomQuotaQuerySchema,
  RoomQuotaRowSchema,
  StorageQuotaBodySchema,
  UserQuotaParamsSchema,
  UserQuotaSchema,
} from '../storage-quotas';

const area = endpointArea({ tag: 'admin', access: { roles: ['ROLE_ADMIN'] } });

/** Storage quotas per room and per user (shared/contract/storage-quotas.ts, server/README "Storage quotas"). */
export const STORAGE_QUOTA_ENDPOINTS = {
  roomQuotas: area.get('/admin/storage-quotas/rooms', 'listRoomQuotas', 'Rooms with their used bytes and quota, by name; q searches the name of plain rooms (at most 200)', {
    query: RoomQuotaQuerySchema, response: { 200: RoomQuotaListSchema }, errors: [400, 401, 403],
  }),
  setRoomQuota: area.put('/admin/rooms/{roomUuid}/storage-quota', 'setRoomQuota', "Sets a room's storage quota in bytes (null: none)", {
    params: RoomQuotaParamsSchema, body: StorageQuotaBodySchema, response: { 200: RoomQuotaRowSchema }, errors: [400, 401, 403, 404],
  }),
  userQuota: area.get('/admin/users/{userUuid}/storage-quota', 'getUserQuota', "A user's stored bytes, own quota and the quota in force", {
    params: UserQuotaParamsSchema, response: { 200: UserQuotaSchema }, errors: [400, 401, 403, 404],
  }),
  setUserQuota: area.put('/admin/users/{userUuid}/storage-quota', 'setUserQuota', "Sets a user's own storage quota in bytes (null: the default `kuvert.storage.userQuota`)", {
    params: UserQuotaParamsSchema, body: StorageQuotaBodySchema, response: { 200: UserQuotaSchema }, errors: [400, 401, 403, 404],
  }),
};
