import { endpointArea, NoContentSchema } from '../endpoint';
import { RoomParamsSchema } from '../rooms';
import {
  InvitationDetailsSchema,
  InvitationSignupBodySchema,
  InvitationSignupResponseSchema,
  InvitationTokenBodySchema,
  RoomInvitationListSchema,
  RoomInvitationParamsSchema,
  RoomInvitationQuerySchema,
} from '../room-invitations';

const area = endpointArea({ tag: 'rooms', access: 'authenticated' });

/**
 * Data-room invitations of addresses without an account (shared/contract/room-invitations.ts).
 * The OWNER's calls list and revoke; the invitee's are public (the mailed token is the
 * credential), rate limited per client address like the delivery signup. The invitation itself
 * is made by PUT /rooms/{roomUuid}/access with an address that has no account.
 */
export const ROOM_INVITATION_ENDPOINTS = {
  list: area.get('/rooms/{roomUuid}/invitations', 'listRoomInvitations', 'Pending invitations of addresses without an account on the room or a folder (OWNER)', {
    params: RoomParamsSchema, query: RoomInvitationQuerySchema, response: { 200: RoomInvitationListSchema }, errors: [400, 401, 403, 404],
  }),
  revoke: area.delete('/rooms/{roomUuid}/invitations/{invitationUuid}', 'revokeRoomInvitation', 'Revokes a pending invitation: its link answers 410 from then on (OWNER)', {
    params: RoomInvitationParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404],
  }),
  check: area.post('/room-invitations/check', 'checkRoomInvitation', 'The invitation behind a mailed link: address, role, room name (not for E2E rooms); 410 when expired or used', {
    body: InvitationTokenBodySchema, response: { 200: InvitationDetailsSchema }, errors: [400, 404, 410, 429], access: 'public',
  }),
  signup: area.post('/room-invitations/signup', 'signUpFromRoomInvitation', "Dataroom registration completion: creates the invitee's account and access entry; single use (410 after)", {
    body: InvitationSignupBodySchema, response: { 201: InvitationSignupResponseSchema }, errors: [400, 404, 409, 410, 429], access: 'public',
  }),
};
