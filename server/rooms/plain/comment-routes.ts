import { ROOM_COMMENT_ENDPOINTS } from '@shared/contract/endpoints/room-comments';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../core/endpoint-route';
import { requestContext } from '../../core/request-context';
import { createComment, deleteComment, listComments, updateComment } from './comments';

/** Comments on files and folders (issue 31 §1), registered inside the room routes' plugin. */
export function registerRoomCommentRoutes(app: FastifyInstance): void {
  registerEndpoint(app, ROOM_COMMENT_ENDPOINTS.list, async (request) => listComments(requestContext(app, request), request.params.roomUuid, request.query));

  registerEndpoint(app, ROOM_COMMENT_ENDPOINTS.create, async (request, reply) => {
    const comment = await createComment(requestContext(app, request), request.params.roomUuid, request.body);
    void reply.code(201);
    return comment;
  });

  registerEndpoint(app, ROOM_COMMENT_ENDPOINTS.update, async (request) =>
    updateComment(requestContext(app, request), request.params.roomUuid, request.params.commentUuid, request.body),
  );

  registerEndpoint(app, ROOM_COMMENT_ENDPOINTS.remove, async (request, reply) => {
    await deleteComment(requestContext(app, request), request.params.roomUuid, request.params.commentUuid);
    return reply.code(204).send(null);
  });
}
