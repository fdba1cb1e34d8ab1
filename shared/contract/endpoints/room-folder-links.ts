import { PartSchema } from '../deliveries';
import { endpointArea, NoContentSchema } from '../endpoint';
import {
  CreatedRoomFolderLinkSchema,
  CreateRoomFolderLinkBodySchema,
  RoomDropFileBodySchema,
  RoomDropFileSchema,
  RoomFolderLinkFileParamsSchema,
  RoomFolderLinkInfoSchema,
  RoomFolderLinkListSchema,
  RoomFolderLinkParamsSchema,
  RoomFolderLinkPartParamsSchema,
  RoomFolderLinkQuerySchema,
  RoomFolderLinkTokenHeadersSchema,
} from '../room-folder-links';
import { FolderParamsSchema } from '../rooms';

const area = endpointArea({ tag: 'rooms', access: 'authenticated' });
const headers = RoomFolderLinkTokenHeadersSchema;

/**
 * Public links to a plain room's folder (shared/contract/room-folder-links.ts, server/README "Public
 * links to room folders"): `folder` links list and download, `drop` links only upload. Create, list
 * and revoke need the edit right on the folder (OWNER, EDITOR; VIEWER/PREVIEWER 403, a non-member
 * 404); a Secure room answers 409 `encryptedRoom`. The token calls are public with the token in the
 * `x-room-link-token` header and the password in `x-room-link-password`, with the file links' answers
 * (400 header, 404 unknown, 410 expired/revoked/used up/folder deleted, 403 password, 429 budget); a
 * call of the other kind answers 404 `wrongLinkKind`.
 */
export const ROOM_FOLDER_LINK_ENDPOINTS = {
  create: area.post('/rooms/{roomUuid}/folders/{folderUuid}/links', 'createRoomFolderLink', 'Makes a public link to a plain room’s folder (OWNER, EDITOR): `folder` (list and download) or `drop` (upload only), optionally with a password, an expiry date and (folder links) a download limit; the URL is answered once. A Secure room answers 409', {
    params: FolderParamsSchema, body: CreateRoomFolderLinkBodySchema, response: { 201: CreatedRoomFolderLinkSchema }, errors: [400, 401, 403, 404, 409],
  }),
  list: area.get('/rooms/{roomUuid}/folders/{folderUuid}/links', 'listRoomFolderLinks', 'The folder’s links with kind and state (OWNER, EDITOR)', {
    params: FolderParamsSchema, response: { 200: RoomFolderLinkListSchema }, errors: [401, 403, 404],
  }),
  revoke: area.delete('/rooms/{roomUuid}/folders/{folderUuid}/links/{linkUuid}', 'revokeRoomFolderLink', 'Revokes a folder or drop link: its URL answers 410 from now on (OWNER, EDITOR)', {
    params: RoomFolderLinkParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404],
  }),
  info: area.get('/room-folder-links/by-token', 'getRoomFolderLink', 'A folder link: the listed folder (`folderUuid`: a subfolder below the linked one), its subfolders and files; a drop link: the folder’s name only (public)', {
    headers, query: RoomFolderLinkQuerySchema, response: { 200: RoomFolderLinkInfoSchema }, errors: [400, 403, 404, 410, 429], access: 'public',
  }),
  fileContent: area.get('/room-folder-links/by-token/files/{fileUuid}/content', 'downloadRoomFolderLinkFile', 'A file below the linked folder as a download (folder links; public; Range answers 206; a complete download counts towards the limit)', {
    headers, params: RoomFolderLinkFileParamsSchema, response: {}, errors: [400, 403, 404, 410, 416, 429], produces: ['application/octet-stream'], access: 'public',
  }),
  zip: area.get('/room-folder-links/by-token/zip', 'downloadRoomFolderLinkZip', 'The linked folder (or a subfolder) as one ZIP (folder links; public; counts as one download)', {
    headers, query: RoomFolderLinkQuerySchema, response: {}, errors: [400, 403, 404, 410, 429], produces: ['application/zip'], access: 'public',
  }),
  dropFile: area.post('/room-folder-links/by-token/uploads', 'announceRoomDropFile', 'Announces a file to upload through a drop link (public): size limits, file types and quota as every room upload', {
    headers, body: RoomDropFileBodySchema, response: { 201: RoomDropFileSchema }, errors: [400, 403, 404, 410, 429, 507], access: 'public',
  }),
  dropPart: area.put('/room-folder-links/by-token/uploads/{fileUuid}/parts/{index}', 'uploadRoomDropFilePart', 'One part of a drop upload (application/octet-stream, header x-content-sha256; public); idempotent', {
    headers, params: RoomFolderLinkPartParamsSchema, response: { 200: PartSchema }, errors: [400, 403, 404, 409, 410, 415, 429], consumes: 'application/octet-stream', access: 'public',
  }),
  dropCommit: area.post('/room-folder-links/by-token/uploads/{fileUuid}/commit', 'commitRoomDropFile', 'Completes a drop upload: the file lands in the folder, is scanned and logged as `upload` by "public link" (public)', {
    headers, params: RoomFolderLinkFileParamsSchema, response: { 200: RoomDropFileSchema }, errors: [400, 403, 404, 409, 410, 429, 507], access: 'public',
  }),
};
