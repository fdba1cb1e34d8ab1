import { call } from '@shared/api/call';
import { ROOM_ADMIN_ENDPOINTS } from '@shared/contract/endpoints/room-admin';
import type { TrashBinList } from '@shared/contract/room-admin';
import { apiClient } from '@web/lib/api-client';

/** GET /admin/trash-bin (ROLE_ADMIN): one page of deleted rooms, folders and files, `q` on the name. */
export const loadTrashBin = (q: string, cursor: string | null): Promise<TrashBinList> =>
  call(apiClient, ROOM_ADMIN_ENDPOINTS.trashBin, { query: { pageSize: 50, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) } });

/** POST /admin/trash-bin/{itemUuid}/restore (ROLE_ADMIN). */
export const restoreTrashBinItem = (itemUuid: string): Promise<void> =>
  call(apiClient, ROOM_ADMIN_ENDPOINTS.restoreTrashBinItem, { params: { itemUuid } }).then(() => undefined);
