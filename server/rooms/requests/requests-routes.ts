import { ROOM_REQUEST_ENDPOINTS } from '@shared/contract/endpoints/room-requests';
import { AUTHORIZATION_ERROR } from '@shared/contract/errors';
import { ROOM_REQUEST_TOKEN_HEADER } from '@shared/contract/link-token';
import { ROOM_REQUEST_IP_LIMIT } from '@shared/contract/room-requests';
import type { FastifyInstance } from 'fastify';
import { authorizationErrorHeader } from '../../core/authorization-errors';
import { registerEndpoint } from '../../core/endpoint-route';
import { rateLimitExceeded } from '../../core/http-error';
import { requestContext } from '../../core/request-context';
import { routePlugin } from '../../core/route-plugin';
import { tokenHeader } from '../../core/token-header';
import { RATE_LIMIT_BUCKETS } from '../../security/rate-limiter';
import { createRequest, listRequests, requestInfo, requestSignup, revokeRequest } from './requests';
import { createRequestDelivery } from './requests-delivery';

/**
 * The token calls' budget per client address, counted before the token is looked up (a wrong
 * token costs as much as a right one); database-backed, so it holds across server instances.
 */
async function tokenBudget(app: FastifyInstance, ip: string): Promise<void> {
  const byIp = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.roomRequestIp, ip, ROOM_REQUEST_IP_LIMIT);
  if (!byIp.allowed) throw rateLimitExceeded(byIp.retryAfterMs);
}

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
    await tokenBudget(app, request.ip);
    const info = await requestInfo(app, tokenHeader(request, ROOM_REQUEST_TOKEN_HEADER));
    // SPEC §8 code 10: an unregistered address signs up (the DAR variant) before answering.
    if (!info.registered) void reply.headers(authorizationErrorHeader(AUTHORIZATION_ERROR.DELIVERY_SIGNUP_REQUIRED));
    return info;
  });

  registerEndpoint(app, ROOM_REQUEST_ENDPOINTS.signup, async (request, reply) => {
    await tokenBudget(app, request.ip);
    const created = await requestSignup(app, tokenHeader(request, ROOM_REQUEST_TOKEN_HEADER), request.body);
    void reply.code(201);
    return created;
  });

  registerEndpoint(app, ROOM_REQUEST_ENDPOINTS.delivery, async (request, reply) => {
    await tokenBudget(app, request.ip);
    const draft = await createRequestDelivery(requestContext(app, request), tokenHeader(request, ROOM_REQUEST_TOKEN_HEADER), request.body);
    void reply.code(201);
    return draft;
  });
});
