import { endpointArea, NoContentSchema } from '../endpoint';
import { RoomParamsSchema } from '../rooms';
import {
  CreateRoomCommentBodySchema,
  RoomCommentListSchema,
  RoomCommentParamsSchema,
  RoomCommentSchema,
  RoomCommentsQuerySchema,
  UpdateRoomCommentBodySchema,
} from '../room-comments';

const area = endpointArea({ tag: 'rooms', access: 'authenticated' });

/**
 * Comments on files and folders (shared/contract/room-comments.ts, issue 31 §1), plain and Secure
 * rooms. Signed-in users; the room role (SPEC §6) is checked on the item: a non-member 404, a
 * member without the right 403.
 */
export const ROOM_COMMENT_ENDPOINTS = {
  list: area.get('/rooms/{roomUuid}/comments', 'listRoomComments', 'The comments on a file or folder, oldest first (every role there, PREVIEWER too)', {
    params: RoomParamsSchema, query: RoomCommentsQuerySchema, response: { 200: RoomCommentListSchema }, errors: [400, 401, 404],
  }),
  create: area.post('/rooms/{roomUuid}/comments', 'createRoomComment', 'Comments on a file or folder (OWNER, EDITOR there)', {
    params: RoomParamsSchema, body: CreateRoomCommentBodySchema, response: { 201: RoomCommentSchema }, errors: [400, 401, 403, 404],
  }),
  update: area.patch('/rooms/{roomUuid}/comments/{commentUuid}', 'updateRoomComment', 'Edits one’s own comment (its author, while OWNER or EDITOR there)', {
    params: RoomCommentParamsSchema, body: UpdateRoomCommentBodySchema, response: { 200: RoomCommentSchema }, errors: [400, 401, 403, 404],
  }),
  remove: area.delete('/rooms/{roomUuid}/comments/{commentUuid}', 'deleteRoomComment', 'Deletes a comment (its author while OWNER or EDITOR there, or an OWNER there)', {
    params: RoomCommentParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404],
  }),
};
