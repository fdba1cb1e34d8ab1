import { ROOM_RETENTION_ENDPOINTS } from '@shared/contract/endpoints/room-retention';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../core/endpoint-route';
import { requestContext } from '../../core/request-context';
import { getRetention, previewRetention, setRetention } from './retention';

/** A room's retention policy (plain and Secure rooms), registered inside the room routes' plugin. */
export function registerRoomRetentionRoutes(app: FastifyInstance): void {
  registerEndpoint(app, ROOM_RETENTION_ENDPOINTS.policy, async (request) => getRetention(requestContext(app, request), request.params.roomUuid));
  registerEndpoint(app, ROOM_RETENTION_ENDPOINTS.setPolicy, async (request) => setRetention(requestContext(app, request), request.params.roomUuid, request.body));
  registerEndpoint(app, ROOM_RETENTION_ENDPOINTS.preview, async (request) =>
    previewRetention(requestContext(app, request), request.params.roomUuid, request.query.periodDays),
  );
}
