import { endpointArea, NoContentSchema } from '../endpoint';
import {
  CreateFolderBodySchema,
  CreateRoomBodySchema,
  FolderParamsSchema,
  RenameBodySchema,
  RoomAccessListSchema,
  RoomAccessQuerySchema,
  RoomContentsSchema,
  RoomFolderSchema,
  RoomListQuerySchema,
  RoomListSchema,
  RoomParamsSchema,
  RoomSchema,
  SetRoomAccessBodySchema,
  UpdateFolderBodySchema,
} from '../rooms';

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
  contents: area.get('/rooms/{roomUuid}', 'getRoom', 'A room with its top-level folders (any role)', {
    params: RoomParamsSchema, response: { 200: RoomContentsSchema }, errors: [401, 404],
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
  folder: area.get('/rooms/{roomUuid}/folders/{folderUuid}', 'getRoomFolder', 'A folder with its sub-folders (any role there)', {
    params: FolderParamsSchema, response: { 200: RoomContentsSchema }, errors: [401, 404],
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
  setAccess: area.put('/rooms/{roomUuid}/access', 'setRoomAccess', 'Grants, changes or revokes a registered user’s role on the room or a folder (OWNER only)', {
    params: RoomParamsSchema, body: SetRoomAccessBodySchema, response: { 200: RoomAccessListSchema }, errors: [400, 401, 403, 404, 409],
  }),
};
