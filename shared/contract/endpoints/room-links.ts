import { endpointArea, NoContentSchema } from '../endpoint';
import { RoomFileParamsSchema } from '../room-files';
import { RoomParamsSchema } from '../rooms';
import {
  CreatedRoomLinkSchema,
  CreateRoomLinkBodySchema,
  RoomLinkInfoSchema,
  RoomLinkListSchema,
  RoomLinkOverviewSchema,
  RoomLinkParamsSchema,
  RoomLinkTokenHeadersSchema,
} from '../room-links';

const area = endpointArea({ tag: 'rooms', access: 'authenticated' });

/**
 * Public links to a plain room's file (shared/contract/room-links.ts, server/README "Public links
 * to room files"). Create, list and revoke need the edit right on the file (OWNER, EDITOR; VIEWER
 * and PREVIEWER 403, a non-member 404); an E2E room answers 409 `encryptedRoom`. The token calls
 * are public: the link's token is the credential, sent in the `x-room-link-token` header (never in
 * the path: issue 28; a missing or malformed one 400, an unknown one 404); expired or revoked 410;
 * one budget per client address (ROOM_LINK_IP_LIMIT, 429 beyond). A link may have a password (issue
 * 32 §2; the `x-room-link-password` header, URI-encoded: none 403 `passwordRequired`, wrong 403
 * `passwordWrong`, ROOM_LINK_PASSWORD_LIMIT wrong ones per link 429), an expiry date and a download
 * limit (reached: 410 `linkUsedUp`).
 */
export const ROOM_LINK_ENDPOINTS = {
  create: area.post('/rooms/{roomUuid}/files/{fileUuid}/links', 'createRoomFileLink', 'Makes a public download link for a plain room’s file (OWNER, EDITOR), optionally with a password, an expiry date and a download limit; the URL is answered once. An E2E room answers 409', {
    params: RoomFileParamsSchema, body: CreateRoomLinkBodySchema, response: { 201: CreatedRoomLinkSchema }, errors: [400, 401, 403, 404, 409],
  }),
  list: area.get('/rooms/{roomUuid}/files/{fileUuid}/links', 'listRoomFileLinks', 'The file’s links with their state: active, expired, revoked, usedUp (OWNER, EDITOR)', {
    params: RoomFileParamsSchema, response: { 200: RoomLinkListSchema }, errors: [401, 403, 404],
  }),
  overview: area.get('/rooms/{roomUuid}/links', 'listRoomLinks', 'Every public link of a plain room — file links, folder links and upload links of its live files and folders — with kind, target and path, maker, expiry, password yes/no, downloads, limit and state, newest first (the room’s OWNER; an EDITOR 403: managing the room’s sharing is the OWNER’s, SPEC §6). A Secure room answers 409 `encryptedRoom`: it has no public links', {
    params: RoomParamsSchema, response: { 200: RoomLinkOverviewSchema }, errors: [401, 403, 404, 409],
  }),
  revoke: area.delete('/rooms/{roomUuid}/files/{fileUuid}/links/{linkUuid}', 'revokeRoomFileLink', 'Revokes a link: its URL answers 410 from now on (OWNER, EDITOR)', {
    params: RoomLinkParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404],
  }),
  info: area.get('/room-links/by-token', 'getRoomFileLink', 'Name, size, expiry and downloads left of the linked file; the token in the x-room-link-token header, a protected link’s password in x-room-link-password (public; 403 without the right password; 410 when expired, revoked, used up or the file deleted)', {
    headers: RoomLinkTokenHeadersSchema, response: { 200: RoomLinkInfoSchema }, errors: [400, 403, 404, 410, 429], access: 'public',
  }),
  content: area.get('/room-links/by-token/content', 'downloadRoomFileLink', 'The linked file’s current content as a download; the token in the x-room-link-token header, a protected link’s password in x-room-link-password (public; Range answers 206; a complete download counts towards the limit; 410 when expired, revoked, used up or the file deleted; 403 without the right password or while not scanned clean)', {
    headers: RoomLinkTokenHeadersSchema, response: {}, errors: [400, 403, 404, 410, 416, 429], produces: ['application/octet-stream'], access: 'public',
  }),
};
