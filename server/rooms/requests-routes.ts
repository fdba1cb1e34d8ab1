import { ROOM_REQUEST_ENDPOINTS } from '@shared/contract/endpoints/room-requests';
import { registerEndpoint } from '../core/endpoint-route';
import { requestContext } from '../core/request-context';
import { routePlugin } from '../core/route-plugin';
import { createRequest, listRequests, requestInfo, requestSignup, revokeRequest } from './requests';
import { createRequestDelivery } from './requests-delivery';

/** Data-room requests (server/README "Data-room requests"). */
export const roomRequestRoutes = routePlugin('kuvert-room-request-routes', async (app) => {
  registerEndpoint(app, ROOM_REQUEST_ENDPOINTS.create, async (request, reply) => {
    const created = await createRequest(requestContext(app, request), request.params.roomUuid, request.body);
    void reply.code(201);
    return created;
  });

  registerEndpoint(app, ROOM_REQUEST_ENDPOINTS.list, async (request) => listRequests(requestContext(app, request), request.params.roomUuid));

  registerEndpoint(app, ROOM_REQUEST_ENDPOINTS.revoke, async (request, reply) => {
    await revokeRequest(requestContext(app, request), request.params.roomUuid, request.params.requestUuid);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, ROOM_REQUEST_ENDPOINTS.info, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return requestInfo(app, request.params.token);
  });

  registerEndpoint(app, ROOM_REQUEST_ENDPOINTS.signup, async (request, reply) => {
    const created = await requestSignup(app, request.params.token, request.body);
    void reply.code(201);
    return created;
  });

  registerEndpoint(app, ROOM_REQUEST_ENDPOINTS.delivery, async (request, reply) => {
    const draft = await createRequestDelivery(requestContext(app, request), request.params.token, request.body);
    void reply.code(201);
    return draft;
  });
});
