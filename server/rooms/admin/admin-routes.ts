import { ROOM_ADMIN_ENDPOINTS } from '@shared/contract/endpoints/room-admin';
import { STORAGE_QUOTA_ENDPOINTS } from '@shared/contract/endpoints/storage-quotas';
import { registerEndpoint } from '../../core/endpoint-route';
import { requestContext } from '../../core/request-context';
import { routePlugin } from '../../core/route-plugin';
import { listRoomQuotas, setRoomQuota, setUserQuota, userQuota } from './admin-quotas';
import { listTrashBin, restoreTrashBinItem } from './admin-trash';

/** Administration of data rooms: the trash bin of every room, storage quotas (ROLE_ADMIN; server/README "Room administration", "Storage quotas"). */
export const roomAdminRoutes = routePlugin('kuvert-room-admin-routes', async (app) => {
  registerEndpoint(app, ROOM_ADMIN_ENDPOINTS.trashBin, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return listTrashBin(requestContext(app, request), request.query);
  });

  registerEndpoint(app, ROOM_ADMIN_ENDPOINTS.restoreTrashBinItem, async (request, reply) => {
    await restoreTrashBinItem(requestContext(app, request), request.params.itemUuid);
    return reply.code(204).send(null);
  });

  // Storage quotas (issue 32): per room, and per user beside the user's administration page.
  registerEndpoint(app, STORAGE_QUOTA_ENDPOINTS.roomQuotas, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return listRoomQuotas(requestContext(app, request), request.query);
  });
  registerEndpoint(app, STORAGE_QUOTA_ENDPOINTS.setRoomQuota, async (request) => setRoomQuota(requestContext(app, request), request.params.roomUuid, request.body));
  registerEndpoint(app, STORAGE_QUOTA_ENDPOINTS.userQuota, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return userQuota(requestContext(app, request), request.params.userUuid);
  });
  registerEndpoint(app, STORAGE_QUOTA_ENDPOINTS.setUserQuota, async (request) => setUserQuota(requestContext(app, request), request.params.userUuid, request.body));
});
