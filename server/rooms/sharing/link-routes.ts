import { ROOM_LINK_ENDPOINTS } from '@shared/contract/endpoints/room-links';
import { ROOM_LINK_TOKEN_HEADER } from '@shared/contract/link-token';
import { ROOM_LINK_IP_LIMIT, ROOM_LINK_PASSWORD_HEADER } from '@shared/contract/room-links';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerEndpoint } from '../../core/endpoint-route';
import { rateLimitExceeded } from '../../core/http-error';
import { requestContext } from '../../core/request-context';
import { tokenHeader } from '../../core/token-header';
import { RATE_LIMIT_BUCKETS } from '../../security/rate-limiter';
import { listRoomLinks } from './link-overview';
import { createLink, linkDownload, linkInfo, listLinks, revokeLink } from './links';

/** Counted before the token is looked up: a wrong token costs as much as a right one (database-backed, across servers). */
export async function linkBudget(app: FastifyInstance, ip: string): Promise<void> {
  const byIp = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.roomLinkIp, ip, ROOM_LINK_IP_LIMIT);
  if (!byIp.allowed) throw rateLimitExceeded(byIp.retryAfterMs);
}

/** A protected link's password header (the headers schema has checked it: a string when present). */
export function passwordOf(request: FastifyRequest): string | undefined {
  const value = request.headers[ROOM_LINK_PASSWORD_HEADER];
  return typeof value === 'string' ? value : undefined;
}

/** Public links to room files (rooms/sharing/links.ts), registered inside the room routes' plugin. */
export function registerRoomLinkRoutes(app: FastifyInstance): void {
  registerEndpoint(app, ROOM_LINK_ENDPOINTS.create, async (request, reply) => {
    const created = await createLink(requestContext(app, request), request.params.roomUuid, request.params.fileUuid, request.body);
    void reply.code(201);
    return created;
  });

  registerEndpoint(app, ROOM_LINK_ENDPOINTS.list, async (request) => listLinks(requestContext(app, request), request.params.roomUuid, request.params.fileUuid));

  registerEndpoint(app, ROOM_LINK_ENDPOINTS.overview, async (request) => listRoomLinks(requestContext(app, request), request.params.roomUuid));

  registerEndpoint(app, ROOM_LINK_ENDPOINTS.revoke, async (request, reply) => {
    await revokeLink(requestContext(app, request), request.params.roomUuid, request.params.fileUuid, request.params.linkUuid);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, ROOM_LINK_ENDPOINTS.info, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    await linkBudget(app, request.ip);
    return linkInfo(app, tokenHeader(request, ROOM_LINK_TOKEN_HEADER), passwordOf(request));
  });

  registerEndpoint(app, ROOM_LINK_ENDPOINTS.content, async (request, reply) => {
    await linkBudget(app, request.ip);
    return linkDownload(app, request, reply, tokenHeader(request, ROOM_LINK_TOKEN_HEADER), passwordOf(request));
  });
}
