import { endpointArea, NoContentSchema } from '../endpoint';
import { DeliveryDetailSchema } from '../deliveries';
import { RoomParamsSchema } from '../rooms';
import {
  CreateRoomRequestBodySchema,
  RoomRequestDeliveryBodySchema,
  RoomRequestInfoSchema,
  RoomRequestListSchema,
  RoomRequestParamsSchema,
  RoomRequestSchema,
  RoomRequestSignupBodySchema,
  RoomRequestSignupResponseSchema,
  RoomRequestTokenHeadersSchema,
} from '../room-requests';

const area = endpointArea({ tag: 'rooms', access: 'authenticated' });

/**
 * Data-room requests (shared/contract/room-requests.ts, server/README "Data-room requests"). The
 * room calls need a role in the room (a non-member 404, a member without the right 403); the
 * token calls are public: the mailed token is the credential, sent in the `x-room-request-token`
 * header (never in the path: issue 28; a missing or malformed one 400, an unknown one 404); an
 * expired or used one answers 410; they share one budget per client address (ROOM_REQUEST_IP_LIMIT,
 * 429 beyond).
 */
export const ROOM_REQUEST_ENDPOINTS = {
  create: area.post('/rooms/{roomUuid}/requests', 'createRoomRequest', 'Asks an address for files for a folder of a plain room (OWNER, EDITOR); mails the link. An E2E room answers 409', {
    params: RoomParamsSchema, body: CreateRoomRequestBodySchema, response: { 201: RoomRequestSchema }, errors: [400, 401, 403, 404, 409],
  }),
  list: area.get('/rooms/{roomUuid}/requests', 'listRoomRequests', 'The room’s requests with their state: open, used, expired, revoked (OWNER)', {
    params: RoomParamsSchema, response: { 200: RoomRequestListSchema }, errors: [401, 403, 404],
  }),
  revoke: area.delete('/rooms/{roomUuid}/requests/{requestUuid}', 'revokeRoomRequest', 'Revokes an open request: its link stops working (OWNER)', {
    params: RoomRequestParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404],
  }),
  info: area.get('/room-requests/by-token', 'getRoomRequest', 'What the link asks for: requester, room, folder, message, expiry; the token in the x-room-request-token header (410 when expired, used or revoked)', {
    headers: RoomRequestTokenHeadersSchema, response: { 200: RoomRequestInfoSchema }, errors: [400, 404, 410, 429], access: 'public',
  }),
  signup: area.post('/room-requests/by-token/signup', 'signUpFromRoomRequest', 'Creates the account of the requested address (the token in the x-room-request-token header proves it); then sign in and send', {
    headers: RoomRequestTokenHeadersSchema, body: RoomRequestSignupBodySchema, response: { 201: RoomRequestSignupResponseSchema }, errors: [400, 404, 409, 410, 429], access: 'public',
  }),
  delivery: area.post('/room-requests/by-token/delivery', 'createRoomRequestDelivery', 'The answering delivery’s draft (the requested address’s account, the token in the x-room-request-token header; recipient fixed to the requester; levels 1/2); files and send through the draft calls', {
    headers: RoomRequestTokenHeadersSchema, body: RoomRequestDeliveryBodySchema, response: { 201: DeliveryDetailSchema }, errors: [400, 401, 403, 404, 409, 410, 429],
  }),
};
