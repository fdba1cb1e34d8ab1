import { endpointArea } from '../endpoint';
import { FolderParamsSchema, RoomParamsSchema } from '../rooms';
import { RoomFileParamsSchema } from '../room-files';
import { RoomFileVersionListSchema, RoomVersionParamsSchema, RoomZipQuerySchema, StorageQuotaQuerySchema, StorageQuotaSchema } from '../room-ops';

const area = endpointArea({ tag: 'rooms', access: 'authenticated' });

/**
 * File operations of plain data rooms (shared/contract/room-ops.ts; server/README "Data rooms").
 * Signed-in users; the room role (SPEC §6) is checked per room and folder: a non-member gets
 * 404, a member without the right 403.
 */
export const ROOM_OPS_ENDPOINTS = {
  versions: area.get('/rooms/{roomUuid}/files/{fileUuid}/versions', 'listRoomFileVersions', 'The file’s current content and its earlier versions, newest first (OWNER, EDITOR)', {
    params: RoomFileParamsSchema, response: { 200: RoomFileVersionListSchema }, errors: [401, 403, 404],
  }),
  versionContent: area.get('/rooms/{roomUuid}/files/{fileUuid}/versions/{versionUuid}/content', 'downloadRoomFileVersion', 'The bytes of an earlier version as a download (OWNER, EDITOR); Range answers 206', {
    params: RoomVersionParamsSchema, response: {}, errors: [401, 403, 404, 416], produces: ['application/octet-stream'],
  }),
  preview: area.get('/rooms/{roomUuid}/files/{fileUuid}/preview', 'previewRoomFile', 'An image, PDF or text file inline for the browser’s viewer (every role, PREVIEWER too; sandboxed, never stored); other types 415', {
    params: RoomFileParamsSchema, response: {}, errors: [401, 403, 404, 415, 416], produces: ['application/octet-stream'],
  }),
  roomZip: area.get('/rooms/{roomUuid}/zip', 'downloadRoomZip', 'The room’s files as a streamed ZIP (the ones the caller may download; OWNER, EDITOR, VIEWER); with `items`, only those files and folders of the room (issue 32 §2 multi-select)', {
    params: RoomParamsSchema, query: RoomZipQuerySchema, response: {}, errors: [400, 401, 403, 404], produces: ['application/zip'],
  }),
  folderZip: area.get('/rooms/{roomUuid}/folders/{folderUuid}/zip', 'downloadRoomFolderZip', 'A folder with everything below it as a streamed ZIP (OWNER, EDITOR, VIEWER)', {
    params: FolderParamsSchema, response: {}, errors: [401, 403, 404], produces: ['application/zip'],
  }),
  quota: area.get('/rooms/quota', 'getStorageQuota', 'Storage quota: used, total, other, secure rooms, free (SPEC §3); the caller’s own and, with roomUuid, that room’s used/total (a member’s room; else 404)', {
    query: StorageQuotaQuerySchema, response: { 200: StorageQuotaSchema }, errors: [400, 401, 404],
  }),
};
