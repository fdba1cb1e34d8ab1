import { ROOM_INVITATION_ENDPOINTS } from '@shared/contract/endpoints/room-invitations';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../core/endpoint-route';
import { requestContext } from '../../core/request-context';
import { checkInvitation, completeInvitation, listInvitations, revokeInvitation } from './invitations';

/** Room invitations (rooms/sharing/invitations.ts): the OWNER's list and revoke, the invitee's public check and signup. */
export function registerRoomInvitationRoutes(app: FastifyInstance): void {
  registerEndpoint(app, ROOM_INVITATION_ENDPOINTS.list, async (request) => listInvitations(requestContext(app, request), request.params.roomUuid, request.query.folderUuid));

  registerEndpoint(app, ROOM_INVITATION_ENDPOINTS.revoke, async (request, reply) => {
    await revokeInvitation(requestContext(app, request), request.params.roomUuid, request.params.invitationUuid);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, ROOM_INVITATION_ENDPOINTS.check, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return checkInvitation(app, request.body.token, request.ip);
  });

  registerEndpoint(app, ROOM_INVITATION_ENDPOINTS.signup, async (request, reply) => {
    const created = await completeInvitation(app, request.body, request.ip);
    void reply.code(201);
    return created;
  });
}
