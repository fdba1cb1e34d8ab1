import { IfMatchHeadersSchema } from '../room-preview';
import { endpointArea, NoContentSchema } from '../endpoint';
import {
  CreateFolderBodySchema,
  CreateRoomBodySchema,
  FolderParamsSchema,
  RenameBodySchema,
  RoomAccessListSchema,
  RoomAccessQuerySchema,
  RoomContentsQuerySchema,
  RoomContentsSchema,
  RoomFolderSchema,
  RoomListQuerySchema,
  RoomListSchema,
  RoomParamsSchema,
  RoomSchema,
  SetRoomAccessBodySchema,
  UpdateFolderBodySchema,
} from '../rooms';
import {
  CreateRoomFileBodySchema,
  RoomActivityListSchema,
  RoomActivityQuerySchema,
  RoomFileParamsSchema,
  RoomFilePartParamsSchema,
  RoomFilePartsSchema,
  RoomSearchQuerySchema,
  RoomSearchResultSchema,
  RoomTrashItemParamsSchema,
  RoomTrashListSchema,
  RoomUploadFileSchema,
  UpdateRoomFileBodySchema,
} from '../room-files';
import { PartSchema } from '../deliveries';
import { RoomsSearchQuerySchema, RoomsSearchResultSchema } from '../room-search';
import { RoomAccessSetResultSchema } from '../room-invitations';
import { RoomRecentQuerySchema, RoomRecentSchema } from '../room-recent';

const SIGNED_IN = 'authenticated' as const;

const area = endpointArea({ tag: 'rooms', access: SIGNED_IN });

/**
 * Data rooms (plain rooms; server/README "Data rooms"). Every call is for signed-in users; the
 * room role (SPEC §6) is checked by the server per room and folder: a non-member gets 404,
 * a member without the right 403.
 */
export const ROOM_ENDPOINTS = {
  list: area.get('/rooms', 'listRooms', 'The data rooms the caller has a role in, newest first (cursor paging, q on the name)', {
    query: RoomListQuerySchema, response: { 200: RoomListSchema }, errors: [400, 401],
  }),
  create: area.post('/rooms', 'createRoom', 'Creates a data room (ROLE_SECUROOMS_CREATOR or a licensed user); the creator is its OWNER', {
    body: CreateRoomBodySchema, response: { 201: RoomSchema }, errors: [400, 401, 403, 409],
  }),
  contents: area.get('/rooms/{roomUuid}', 'getRoom', 'A room with its top-level folders and a page of its top-level files (any role)', {
    params: RoomParamsSchema, query: RoomContentsQuerySchema, response: { 200: RoomContentsSchema }, errors: [400, 401, 404],
  }),
  rename: area.patch('/rooms/{roomUuid}', 'renameRoom', 'Renames a room (OWNER)', {
    params: RoomParamsSchema, body: RenameBodySchema, response: { 200: RoomSchema }, errors: [400, 401, 403, 404, 409],
  }),
  remove: area.delete('/rooms/{roomUuid}', 'deleteRoom', 'Moves a room to the trash (OWNER)', {
    params: RoomParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404],
  }),
  createFolder: area.post('/rooms/{roomUuid}/folders', 'createRoomFolder', 'Creates a folder in the room or in a folder (OWNER, EDITOR there)', {
    params: RoomParamsSchema, body: CreateFolderBodySchema, response: { 201: RoomFolderSchema }, errors: [400, 401, 403, 404, 409],
  }),
  folder: area.get('/rooms/{roomUuid}/folders/{folderUuid}', 'getRoomFolder', 'A folder with its sub-folders and a page of its files (any role there)', {
    params: FolderParamsSchema, query: RoomContentsQuerySchema, response: { 200: RoomContentsSchema }, errors: [400, 401, 404],
  }),
  updateFolder: area.patch('/rooms/{roomUuid}/folders/{folderUuid}', 'updateRoomFolder', 'Renames a folder or moves it within its room (OWNER, EDITOR on the folder and the target)', {
    params: FolderParamsSchema, body: UpdateFolderBodySchema, response: { 200: RoomFolderSchema }, errors: [400, 401, 403, 404, 409],
  }),
  removeFolder: area.delete('/rooms/{roomUuid}/folders/{folderUuid}', 'deleteRoomFolder', 'Moves a folder (with its content) to the trash (OWNER, EDITOR)', {
    params: FolderParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404],
  }),
  access: area.get('/rooms/{roomUuid}/access', 'listRoomAccess', 'Who has which role on the room or a folder, inherited or set there (OWNER only)', {
    params: RoomParamsSchema, query: RoomAccessQuerySchema, response: { 200: RoomAccessListSchema }, errors: [400, 401, 403, 404],
  }),
  setAccess: area.put('/rooms/{roomUuid}/access', 'setRoomAccess', 'Grants, changes or revokes a registered user’s role on the room or a folder, or invites an address without an account (OWNER only)', {
    params: RoomParamsSchema, body: SetRoomAccessBodySchema, response: { 200: RoomAccessSetResultSchema }, errors: [400, 401, 403, 404, 409, 503],
  }),
  createFile: area.post('/rooms/{roomUuid}/files', 'createRoomFile', 'Announces a file in the room or a folder (OWNER, EDITOR there): name checked, part layout answered', {
    params: RoomParamsSchema, body: CreateRoomFileBodySchema, response: { 201: RoomUploadFileSchema }, errors: [400, 401, 403, 404, 409, 507],
  }),
  putFilePart: area.put('/rooms/{roomUuid}/files/{fileUuid}/parts/{index}', 'uploadRoomFilePart', 'Uploads one part (application/octet-stream, header x-content-sha256; the uploader); idempotent', {
    params: RoomFilePartParamsSchema, response: { 200: PartSchema }, errors: [400, 401, 403, 404, 409, 415, 503], consumes: 'application/octet-stream',
  }),
  fileParts: area.get('/rooms/{roomUuid}/files/{fileUuid}/parts', 'listRoomFileParts', 'Parts received so far, to resume an upload (the uploader)', {
    params: RoomFileParamsSchema, response: { 200: RoomFilePartsSchema }, errors: [401, 403, 404],
  }),
  commitFile: area.post('/rooms/{roomUuid}/files/{fileUuid}/commit', 'commitRoomFile', 'Completes an upload once every part is in; only then the file is listed and downloadable (the uploader). A new version with If-Match (an editor’s save) answers 412 saveConflict when the file changed since', {
    params: RoomFileParamsSchema, headers: IfMatchHeadersSchema, response: { 200: RoomUploadFileSchema }, errors: [400, 401, 403, 404, 409, 412, 503, 507],
  }),
  file: area.get('/rooms/{roomUuid}/files/{fileUuid}', 'getRoomFile', 'A complete file’s details (any role there)', {
    params: RoomFileParamsSchema, response: { 200: RoomUploadFileSchema }, errors: [401, 404],
  }),
  fileContent: area.get('/rooms/{roomUuid}/files/{fileUuid}/content', 'downloadRoomFile', 'The bytes of a complete file as a download (OWNER, EDITOR, VIEWER; never a PREVIEWER); Range answers 206', {
    params: RoomFileParamsSchema, response: {}, errors: [401, 403, 404, 416, 503], produces: ['application/octet-stream'],
  }),
  updateFile: area.patch('/rooms/{roomUuid}/files/{fileUuid}', 'updateRoomFile', 'Renames a file or moves it within its room (OWNER, EDITOR on the file and the target)', {
    params: RoomFileParamsSchema, body: UpdateRoomFileBodySchema, response: { 200: RoomUploadFileSchema }, errors: [400, 401, 403, 404, 409],
  }),
  removeFile: area.delete('/rooms/{roomUuid}/files/{fileUuid}', 'deleteRoomFile', 'Moves a file to the trash (OWNER, EDITOR)', {
    params: RoomFileParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404],
  }),
  search: area.get('/rooms/{roomUuid}/search', 'searchRoom', 'Folders and files of the room whose name contains q, where the caller has a role', {
    params: RoomParamsSchema, query: RoomSearchQuerySchema, response: { 200: RoomSearchResultSchema }, errors: [400, 401, 404],
  }),
  activity: area.get('/rooms/{roomUuid}/activity', 'roomActivity', 'The activity log of the room, a folder (with what is below it) or a file, newest first (OWNER only)', {
    params: RoomParamsSchema, query: RoomActivityQuerySchema, response: { 200: RoomActivityListSchema }, errors: [400, 401, 403, 404],
  }),
  trash: area.get('/rooms/{roomUuid}/trash', 'listRoomTrash', 'Folders and files of the room in the trash, newest first (OWNER, EDITOR: who may delete where the item was)', {
    params: RoomParamsSchema, response: { 200: RoomTrashListSchema }, errors: [401, 403, 404],
  }),
  restoreItem: area.post('/rooms/{roomUuid}/trash/{itemUuid}/restore', 'restoreRoomItem', 'Restores a folder or file from the trash to where it was (OWNER, EDITOR: who may delete where the item was)', {
    params: RoomTrashItemParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404, 409],
  }),
  purgeItem: area.delete('/rooms/{roomUuid}/trash/{itemUuid}', 'purgeRoomItem', 'Deletes a folder or file in the trash for good, with its bytes (OWNER, EDITOR: who may delete where the item was)', {
    params: RoomTrashItemParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404],
  }),
  searchAll: area.get('/rooms/search', 'searchRooms', 'Rooms, folders and files of every plain room the caller can see whose name contains q, each with its room and path (E2E rooms are searched by the client over the decrypted names)', {
    query: RoomsSearchQuerySchema, response: { 200: RoomsSearchResultSchema }, errors: [400, 401],
  }),
  recent: area.get('/rooms/recent', 'recentRoomFiles', 'Shared with me (issue 32 §2): rooms others shared with the caller (first page) and the files changed most recently in the plain rooms the caller can see, newest first, paged', {
    query: RoomRecentQuerySchema, response: { 200: RoomRecentSchema }, errors: [400, 401],
  }),
};
