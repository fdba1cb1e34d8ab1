import { ROOM_ENDPOINTS } from '@shared/contract/endpoints/rooms';
import { registerEndpoint } from '../core/endpoint-route';
import { requestContext } from '../core/request-context';
import { routePlugin } from '../core/route-plugin';
import { closingOnRefusal, PART_BODY_SLACK_BYTES, partRequestOf } from '../uploads/part-request';
import { listAccess, setAccess } from './sharing/access';
import { listActivity } from './kind/activity';
import { commitFile, createFile, listFileParts, putFilePart } from './plain/file-uploads';
import { deleteFile, downloadFile, fileDetails, updateFile } from './plain/files';
import { registerRoomOpsRoutes } from './plain/ops-routes';
import { registerRoomRetentionRoutes } from './plain/retention-routes';
import { registerRoomCommentRoutes } from './plain/comment-routes';
import { searchRoom } from './plain/search';
import { searchAllRooms } from './plain/search-all';
import { recentRoomFiles } from './plain/recent';
import { listTrash, purgeItem, restoreItem } from './plain/trash';
import { createFolder, deleteFolder, updateFolder } from './plain/folders';
import { contents, createRoom, deleteRoom, listRooms, renameRoom } from './plain/rooms';
import { registerE2eRoomRoutes } from './e2e/e2e-routes';
import { registerRoomInvitationRoutes } from './sharing/invitation-routes';
import { registerRoomLinkRoutes } from './sharing/link-routes';
import { registerRoomFolderLinkRoutes } from './sharing/folder-link-routes';
import { secureCommitHooks } from './e2e/secure-commit';
import { registerNoticeRoutes } from './kind/notice-inbox';


/** Data rooms (plain rooms): rooms, folders, files, access roles, activity (server/README "Data rooms"). */
export const roomRoutes = routePlugin('kuvert-room-routes', async (app) => {
  // Raw part bodies reach the route as the request stream (this plugin's routes only).
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));

  registerEndpoint(app, ROOM_ENDPOINTS.list, async (request) => listRooms(requestContext(app, request), request.query));

  registerEndpoint(app, ROOM_ENDPOINTS.create, async (request, reply) => {
    const room = await createRoom(requestContext(app, request), request.body);
    void reply.code(201);
    return room;
  });

  registerEndpoint(app, ROOM_ENDPOINTS.contents, async (request) => contents(requestContext(app, request), request.params.roomUuid, undefined, request.query));

  registerEndpoint(app, ROOM_ENDPOINTS.rename, async (request) => renameRoom(requestContext(app, request), request.params.roomUuid, request.body.name));

  registerEndpoint(app, ROOM_ENDPOINTS.remove, async (request, reply) => {
    await deleteRoom(requestContext(app, request), request.params.roomUuid);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, ROOM_ENDPOINTS.createFolder, async (request, reply) => {
    const folder = await createFolder(requestContext(app, request), request.params.roomUuid, request.body);
    void reply.code(201);
    return folder;
  });

  registerEndpoint(app, ROOM_ENDPOINTS.folder, async (request) =>
    contents(requestContext(app, request), request.params.roomUuid, request.params.folderUuid, request.query),
  );

  registerEndpoint(app, ROOM_ENDPOINTS.updateFolder, async (request) =>
    updateFolder(requestContext(app, request), request.params.roomUuid, request.params.folderUuid, request.body),
  );

  registerEndpoint(app, ROOM_ENDPOINTS.removeFolder, async (request, reply) => {
    await deleteFolder(requestContext(app, request), request.params.roomUuid, request.params.folderUuid);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, ROOM_ENDPOINTS.access, async (request) => listAccess(requestContext(app, request), request.params.roomUuid, request.query.folderUuid));

  registerEndpoint(app, ROOM_ENDPOINTS.setAccess, async (request) => setAccess(requestContext(app, request), request.params.roomUuid, request.body));

  registerEndpoint(app, ROOM_ENDPOINTS.createFile, async (request, reply) => {
    const file = await createFile(requestContext(app, request), request.params.roomUuid, request.body);
    void reply.code(201);
    return file;
  });

  // The exact size of each part is enforced while streaming; the body limit only caps the worst case.
  registerEndpoint(app, ROOM_ENDPOINTS.putFilePart, async (request, reply) =>
    closingOnRefusal(reply, () =>
      putFilePart(requestContext(app, request), { roomUuid: request.params.roomUuid, fileUuid: request.params.fileUuid, index: request.params.index, ...partRequestOf(request) }),
    ), { bodyLimit: app.config.uploadPartSize + PART_BODY_SLACK_BYTES });

  registerEndpoint(app, ROOM_ENDPOINTS.fileParts, async (request) => listFileParts(requestContext(app, request), request.params.roomUuid, request.params.fileUuid));

  registerEndpoint(app, ROOM_ENDPOINTS.commitFile, async (request) =>
    commitFile(requestContext(app, request), request.params.roomUuid, request.params.fileUuid, secureCommitHooks, request.headers['if-match']),
  );

  registerEndpoint(app, ROOM_ENDPOINTS.file, async (request) => fileDetails(requestContext(app, request), request.params.roomUuid, request.params.fileUuid));

  registerEndpoint(app, ROOM_ENDPOINTS.fileContent, async (request, reply) =>
    downloadFile(requestContext(app, request), request, reply, request.params.roomUuid, request.params.fileUuid),
  );

  registerEndpoint(app, ROOM_ENDPOINTS.updateFile, async (request) =>
    updateFile(requestContext(app, request), request.params.roomUuid, request.params.fileUuid, request.body),
  );

  registerEndpoint(app, ROOM_ENDPOINTS.removeFile, async (request, reply) => {
    await deleteFile(requestContext(app, request), request.params.roomUuid, request.params.fileUuid);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, ROOM_ENDPOINTS.search, async (request) => searchRoom(requestContext(app, request), request.params.roomUuid, request.query));

  registerEndpoint(app, ROOM_ENDPOINTS.activity, async (request) => listActivity(requestContext(app, request), request.params.roomUuid, request.query));

  registerEndpoint(app, ROOM_ENDPOINTS.trash, async (request) => listTrash(requestContext(app, request), request.params.roomUuid));

  registerEndpoint(app, ROOM_ENDPOINTS.restoreItem, async (request, reply) => {
    await restoreItem(requestContext(app, request), request.params.roomUuid, request.params.itemUuid);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, ROOM_ENDPOINTS.purgeItem, async (request, reply) => {
    await purgeItem(requestContext(app, request), request.params.roomUuid, request.params.itemUuid);
    return reply.code(204).send(null);
  });

  registerRoomOpsRoutes(app);
  registerRoomRetentionRoutes(app);
  registerRoomCommentRoutes(app);
  registerEndpoint(app, ROOM_ENDPOINTS.searchAll, async (request) => searchAllRooms(requestContext(app, request), request.query));

  registerEndpoint(app, ROOM_ENDPOINTS.recent, async (request) => recentRoomFiles(requestContext(app, request), request.query));
  registerE2eRoomRoutes(app);
  registerRoomInvitationRoutes(app);
  registerRoomLinkRoutes(app);
  registerRoomFolderLinkRoutes(app);
  // The bell's notices come from the rooms (room-notices.ts), so they register with them.
  registerNoticeRoutes(app);
});
