import { ROOM_ENDPOINTS } from '@shared/contract/endpoints/rooms';
import { registerEndpoint } from '../core/endpoint-route';
import { requestContext } from '../core/request-context';
import { routePlugin } from '../core/route-plugin';
import { listAccess, setAccess } from './access';
import { createFolder, deleteFolder, updateFolder } from './folders';
import { contents, createRoom, deleteRoom, listRooms, renameRoom } from './rooms';

/** Data rooms (plain rooms): rooms, folders, access roles (server/README "Data rooms"). */
export const roomRoutes = routePlugin('kuvert-room-routes', async (app) => {
  registerEndpoint(app, ROOM_ENDPOINTS.list, async (request) => listRooms(requestContext(app, request), request.query));

  registerEndpoint(app, ROOM_ENDPOINTS.create, async (request, reply) => {
    const room = await createRoom(requestContext(app, request), request.body);
    void reply.code(201);
    return room;
  });

  registerEndpoint(app, ROOM_ENDPOINTS.contents, async (request) => contents(requestContext(app, request), request.params.roomUuid));

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
    contents(requestContext(app, request), request.params.roomUuid, request.params.folderUuid),
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
});
