import { ROOM_OPS_ENDPOINTS } from '@shared/contract/endpoints/room-ops';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../core/endpoint-route';
import { requestContext } from '../../core/request-context';
import { previewFile } from './preview';
import { storageQuota } from '../kind/quota';
import { downloadVersion, listVersions } from './versions';
import { zipDownload } from './zip';

/** Room file operations (versions, preview, ZIP, quota), registered inside the room routes' plugin. */
export function registerRoomOpsRoutes(app: FastifyInstance): void {
  registerEndpoint(app, ROOM_OPS_ENDPOINTS.versions, async (request) => listVersions(requestContext(app, request), request.params.roomUuid, request.params.fileUuid));

  registerEndpoint(app, ROOM_OPS_ENDPOINTS.versionContent, async (request, reply) =>
    downloadVersion(requestContext(app, request), request, reply, request.params.roomUuid, request.params.fileUuid, request.params.versionUuid),
  );

  registerEndpoint(app, ROOM_OPS_ENDPOINTS.preview, async (request, reply) =>
    previewFile(requestContext(app, request), request, reply, request.params.roomUuid, request.params.fileUuid),
  );

  registerEndpoint(app, ROOM_OPS_ENDPOINTS.roomZip, async (request, reply) =>
    zipDownload(requestContext(app, request), request, reply, request.params.roomUuid, undefined, request.query.items),
  );

  registerEndpoint(app, ROOM_OPS_ENDPOINTS.folderZip, async (request, reply) =>
    zipDownload(requestContext(app, request), request, reply, request.params.roomUuid, request.params.folderUuid),
  );

  registerEndpoint(app, ROOM_OPS_ENDPOINTS.quota, async (request) => storageQuota(requestContext(app, request), request.query));
}
