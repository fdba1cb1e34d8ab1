import { IfMatchHeadersSchema } from '../room-preview';
import { endpointArea, NoContentSchema } from '../endpoint';
import { E2eRoomListQuerySchema, RoomFolderSchema, RoomListSchema, RoomParamsSchema, RoomSchema } from '../rooms';
import { RoomFileParamsSchema, RoomUploadFileSchema } from '../room-files';
import {
  CommitE2eFileBodySchema,
  CreateE2eFileBodySchema,
  CreateE2eFolderBodySchema,
  CreateE2eRoomBodySchema,
  E2eFileKeysListSchema,
  E2eFilesQuerySchema,
  E2eGrantBodySchema,
  E2eItemParamsSchema,
  E2eMemberListSchema,
  E2eMemberParamsSchema,
  E2eMemberSchema,
  E2eRenameBodySchema,
  E2eRoomStateSchema,
} from '../rooms-e2e';
import { PutRoomMemberListBodySchema, RoomMemberListQuerySchema, RoomMemberListStateSchema } from '../rooms-e2e-member-list';
import { E2eFileVersionListSchema } from '../rooms-e2e-versions';
import { E2eFolderLabelsListSchema, E2eFolderLabelsQuerySchema, E2eFolderParamsSchema, PutE2eFolderLabelsBodySchema } from '../rooms-e2e-folder-labels';

const area = endpointArea({ tag: 'rooms', access: 'authenticated' });

/**
 * End-to-end encrypted data rooms (server/README "End-to-end encrypted rooms"). Signed-in users;
 * the room role (SPEC §6) is checked per room and folder exactly as in plain rooms: a non-member
 * gets 404, a member without the right 403. Uploads continue through the plain parts and commit
 * calls, downloads through the plain content call (the bytes are ciphertext).
 */
export const ROOM_E2E_ENDPOINTS = {
  list: area.get('/rooms/e2e', 'listE2eRooms', 'The Secure (end-to-end encrypted) rooms the caller has a role in, newest first (cursor paging); the plain list leaves them out', {
    query: E2eRoomListQuerySchema, response: { 200: RoomListSchema }, errors: [400, 401],
  }),
  create: area.post('/rooms/e2e', 'createE2eRoom', 'Creates an end-to-end encrypted room (licensed users only) with the creator’s room-key copy; the creator is its OWNER', {
    body: CreateE2eRoomBodySchema, response: { 201: RoomSchema }, errors: [400, 401, 403, 409],
  }),
  state: area.get('/rooms/{roomUuid}/e2e', 'getE2eRoomState', 'The caller’s room-key copy and E2E state, and the uploaders’ keys (any member)', {
    params: RoomParamsSchema, response: { 200: E2eRoomStateSchema }, errors: [400, 401, 404],
  }),
  members: area.get('/rooms/{roomUuid}/e2e/members', 'listE2eRoomMembers', 'Every member’s E2E state with the missing-file-key and encryption-not-activated flags and live keys (OWNER)', {
    params: RoomParamsSchema, response: { 200: E2eMemberListSchema }, errors: [400, 401, 403, 404],
  }),
  grant: area.put('/rooms/{roomUuid}/e2e/members/{userUuid}/key', 'grantE2eRoomKey', 'Grants a member the room key (the OWNER’s copy re-wrapped to the member’s live key) or declines (approve false) (OWNER)', {
    params: E2eMemberParamsSchema, body: E2eGrantBodySchema, response: { 200: E2eMemberSchema }, errors: [400, 401, 403, 404],
  }),
  memberList: area.get('/rooms/{roomUuid}/e2e/member-list', 'getE2eRoomMemberList', 'The latest member list an OWNER signed (null: none yet), or with `version` that earlier one (404: none kept), and its signer’s signing keys (any member)', {
    params: RoomParamsSchema, query: RoomMemberListQuerySchema, response: { 200: RoomMemberListStateSchema }, errors: [400, 401, 404],
  }),
  putMemberList: area.put('/rooms/{roomUuid}/e2e/member-list', 'putE2eRoomMemberList', 'Stores the next signed member list (version = stored + 1, signed by the caller for this room) (OWNER)', {
    params: RoomParamsSchema, body: PutRoomMemberListBodySchema, response: { 200: RoomMemberListStateSchema }, errors: [400, 401, 403, 404, 409],
  }),
  createFolder: area.post('/rooms/{roomUuid}/e2e/folders', 'createE2eRoomFolder', 'Creates a folder with a sealed name (OWNER, EDITOR there)', {
    params: RoomParamsSchema, body: CreateE2eFolderBodySchema, response: { 201: RoomFolderSchema }, errors: [400, 401, 403, 404, 409],
  }),
  createFile: area.post('/rooms/{roomUuid}/e2e/files', 'createE2eRoomFile', 'Announces a ciphertext file with sealed name, file key and signed metadata (OWNER, EDITOR there); parts and commit as in plain rooms', {
    params: RoomParamsSchema, body: CreateE2eFileBodySchema, response: { 201: RoomUploadFileSchema }, errors: [400, 401, 403, 404, 409, 507],
  }),
  files: area.get('/rooms/{roomUuid}/e2e/files', 'listE2eRoomFileKeys', 'Sealed file keys and signed metadata of the complete files of the room’s top level or a folder (any role there)', {
    params: RoomParamsSchema, query: E2eFilesQuerySchema, response: { 200: E2eFileKeysListSchema }, errors: [400, 401, 404],
  }),
  folderLabels: area.get('/rooms/{roomUuid}/e2e/folder-labels', 'listE2eRoomFolderLabels', 'The sealed, signed classification and status records of the folders in the room’s top level or a folder (any role there)', {
    params: RoomParamsSchema, query: E2eFolderLabelsQuerySchema, response: { 200: E2eFolderLabelsListSchema }, errors: [400, 401, 404],
  }),
  putFolderLabels: area.put('/rooms/{roomUuid}/e2e/folders/{folderUuid}/labels', 'putE2eRoomFolderLabels', 'Stores a folder’s sealed classification and status signed by the caller, logged as the SPEC §4 types without the values (OWNER, EDITOR there)', {
    params: E2eFolderParamsSchema, body: PutE2eFolderLabelsBodySchema, response: { 204: NoContentSchema }, errors: [400, 401, 403, 404, 409],
  }),
  rename: area.patch('/rooms/{roomUuid}/e2e/items/{itemUuid}', 'renameE2eRoomItem', 'Replaces the sealed name of the room (OWNER) or a folder (OWNER, EDITOR)', {
    params: E2eItemParamsSchema, body: E2eRenameBodySchema, response: { 204: NoContentSchema }, errors: [400, 401, 403, 404],
  }),
  commitFile: area.post('/rooms/{roomUuid}/e2e/files/{fileUuid}/commit', 'commitE2eRoomFile', 'Stores the signed metadata of the caller’s own upload (it signs the plaintext hash, known once every part is sent) and commits it as the plain commit does (If-Match too: 412 saveConflict)', {
    params: RoomFileParamsSchema, headers: IfMatchHeadersSchema, body: CommitE2eFileBodySchema, response: { 200: RoomUploadFileSchema }, errors: [400, 401, 403, 404, 409, 412, 503],
  }),
  preview: area.get('/rooms/{roomUuid}/e2e/files/{fileUuid}/preview', 'previewE2eRoomFile', 'A Secure room file’s ciphertext for the browser to decrypt and show (every role, PREVIEWER too, unlike the download; Range answers 206; ETag for an editor’s If-Match)', {
    params: RoomFileParamsSchema, response: {}, errors: [401, 403, 404, 409, 416, 503], produces: ['application/octet-stream'],
  }),
  versions: area.get('/rooms/{roomUuid}/e2e/files/{fileUuid}/versions', 'listE2eRoomFileVersions', 'The earlier versions of an E2E file with their sealed file keys and signed metadata, newest first (OWNER, EDITOR); a plain room’s file answers 400', {
    params: RoomFileParamsSchema, response: { 200: E2eFileVersionListSchema }, errors: [400, 401, 403, 404],
  }),
};
