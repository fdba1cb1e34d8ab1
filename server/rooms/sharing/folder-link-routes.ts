import { ROOM_FOLDER_LINK_ENDPOINTS as E } from '@shared/contract/endpoints/room-folder-links';
import { ROOM_LINK_TOKEN_HEADER } from '@shared/contract/link-token';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../core/endpoint-route';
import { HttpError } from '../../core/http-error';
import { requestContext } from '../../core/request-context';
import { tokenHeader } from '../../core/token-header';
import { closingOnRefusal, PART_BODY_SLACK_BYTES, partRequestOf } from '../../uploads/part-request';
import { announceDropFile, commitDropFile, putDropPart } from './drop-links';
import { createFolderLink, folderLinkDownload, folderLinkInfo, folderLinkZip, listFolderLinks, revokeFolderLink } from './folder-links';
import { linkBudget, passwordOf } from './link-routes';

/**
 * A drop upload's part and commit calls: a right token costs nothing (a large file has many parts),
 * a wrong one counts towards the address's budget as every public link call does.
 */
async function budgetOnUnknownToken<T>(app: FastifyInstance, ip: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError && error.metadata.reason === 'linkInvalid') await linkBudget(app, ip);
    throw error;
  }
}

/** Folder and drop links (rooms/sharing/folder-links.ts, drop-links.ts), registered inside the room routes' plugin. */
export function registerRoomFolderLinkRoutes(app: FastifyInstance): void {
  registerEndpoint(app, E.create, async (request, reply) => {
    const created = await createFolderLink(requestContext(app, request), request.params.roomUuid, request.params.folderUuid, request.body);
    void reply.code(201);
    return created;
  });

  registerEndpoint(app, E.list, async (request) => listFolderLinks(requestContext(app, request), request.params.roomUuid, request.params.folderUuid));

  registerEndpoint(app, E.revoke, async (request, reply) => {
    await revokeFolderLink(requestContext(app, request), request.params.roomUuid, request.params.folderUuid, request.params.linkUuid);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, E.info, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    await linkBudget(app, request.ip);
    return folderLinkInfo(app, tokenHeader(request, ROOM_LINK_TOKEN_HEADER), passwordOf(request), request.query.folderUuid);
  });

  registerEndpoint(app, E.fileContent, async (request, reply) => {
    await linkBudget(app, request.ip);
    return folderLinkDownload(app, request, reply, tokenHeader(request, ROOM_LINK_TOKEN_HEADER), passwordOf(request), request.params.fileUuid);
  });

  registerEndpoint(app, E.zip, async (request, reply) => {
    await linkBudget(app, request.ip);
    return folderLinkZip(app, request, reply, tokenHeader(request, ROOM_LINK_TOKEN_HEADER), passwordOf(request), request.query.folderUuid);
  });

  registerEndpoint(app, E.dropFile, async (request, reply) => {
    await linkBudget(app, request.ip);
    const file = await announceDropFile(app, tokenHeader(request, ROOM_LINK_TOKEN_HEADER), passwordOf(request), request.body);
    void reply.code(201);
    return file;
  });

  // As a member's part: the exact size is enforced while streaming; the body limit caps the worst case.
  registerEndpoint(app, E.dropPart, async (request, reply) =>
    closingOnRefusal(reply, () =>
      budgetOnUnknownToken(app, request.ip, () =>
        putDropPart(app, tokenHeader(request, ROOM_LINK_TOKEN_HEADER), { fileUuid: request.params.fileUuid, index: request.params.index, ...partRequestOf(request) }),
      ),
    ), { bodyLimit: app.config.uploadPartSize + PART_BODY_SLACK_BYTES });

  registerEndpoint(app, E.dropCommit, async (request) =>
    budgetOnUnknownToken(app, request.ip, () => commitDropFile(app, tokenHeader(request, ROOM_LINK_TOKEN_HEADER), request.params.fileUuid)),
  );
}
