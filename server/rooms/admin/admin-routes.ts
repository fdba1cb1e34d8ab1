import { ROOM_ADMIN_ENDPOINTS } from '@shared/contract/endpoints/room-admin';
import { registerEndpoint } from '../../core/endpoint-route';
import { requestContext } from '../../core/request-context';
import { routePlugin } from '../../core/route-plugin';
import { listTrashBin, restoreTrashBinItem } from './admin-trash';

/** Administration of data rooms: the trash bin of every room (ROLE_ADMIN; server/README "Room administration"). */
export const roomAdminRoutes = routePlugin('kuvert-room-admin-routes', async (app) => {
  registerEndpoint(app, ROOM_ADMIN_ENDPOINTS.trashBin, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return listTrashBin(requestContext(app, request), request.query);
  });

  registerEndpoint(app, ROOM_ADMIN_ENDPOINTS.restoreTrashBinItem, async (request, reply) => {
    await restoreTrashBinItem(requestContext(app, request), request.params.itemUuid);
    return reply.code(204).send(null);
  });
});
