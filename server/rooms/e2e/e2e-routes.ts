import { ROOM_E2E_ENDPOINTS } from '@shared/contract/endpoints/rooms-e2e';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../core/endpoint-route';
import { requestContext } from '../../core/request-context';
import { commitE2eFile, createE2eFile, createE2eFolder, e2eFileKeys, renameE2eItem } from './e2e-items';
import { getE2eMemberList, putE2eMemberList } from './e2e-member-list';
import { grantE2eKey, listE2eMembers } from './e2e-members';
import { createE2eRoom, e2eRoomState } from './e2e-rooms';
import { previewE2eFile } from './e2e-preview';
import { listE2eVersions } from './e2e-versions';
import { listE2eFolderLabels, putE2eFolderLabels } from './e2e-folder-labels';
import { listRooms } from '../plain/rooms';

/** End-to-end encrypted rooms (server/README "End-to-end encrypted rooms"), registered inside the room routes plugin. */
export function registerE2eRoomRoutes(app: FastifyInstance): void {
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.list, async (request) => listRooms(requestContext(app, request), request.query, 'secure'));
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.create, async (request, reply) => {
    const room = await createE2eRoom(requestContext(app, request), request.body);
    void reply.code(201);
    return room;
  });
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.state, async (request) => e2eRoomState(requestContext(app, request), request.params.roomUuid));
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.members, async (request) => listE2eMembers(requestContext(app, request), request.params.roomUuid));
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.grant, async (request) =>
    grantE2eKey(requestContext(app, request), request.params.roomUuid, request.params.userUuid, request.body),
  );
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.memberList, async (request) => getE2eMemberList(requestContext(app, request), request.params.roomUuid, request.query.version));
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.putMemberList, async (request) => putE2eMemberList(requestContext(app, request), request.params.roomUuid, request.body));
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.createFolder, async (request, reply) => {
    const folder = await createE2eFolder(requestContext(app, request), request.params.roomUuid, request.body);
    void reply.code(201);
    return folder;
  });
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.createFile, async (request, reply) => {
    const file = await createE2eFile(requestContext(app, request), request.params.roomUuid, request.body);
    void reply.code(201);
    return file;
  });
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.files, async (request) => e2eFileKeys(requestContext(app, request), request.params.roomUuid, request.query.folderUuid, request.query.uuids));
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.rename, async (request, reply) => {
    await renameE2eItem(requestContext(app, request), request.params.roomUuid, request.params.itemUuid, request.body);
    return reply.code(204).send(null);
  });
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.folderLabels, async (request) => listE2eFolderLabels(requestContext(app, request), request.params.roomUuid, request.query.parentUuid));
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.putFolderLabels, async (request, reply) => {
    await putE2eFolderLabels(requestContext(app, request), request.params.roomUuid, request.params.folderUuid, request.body);
    return reply.code(204).send(null);
  });
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.commitFile, async (request) =>
    commitE2eFile(requestContext(app, request), request.params.roomUuid, request.params.fileUuid, request.body, request.headers['if-match']),
  );
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.preview, async (request, reply) =>
    previewE2eFile(requestContext(app, request), request, reply, request.params.roomUuid, request.params.fileUuid),
  );
  registerEndpoint(app, ROOM_E2E_ENDPOINTS.versions, async (request) => listE2eVersions(requestContext(app, request), request.params.roomUuid, request.params.fileUuid));
}
