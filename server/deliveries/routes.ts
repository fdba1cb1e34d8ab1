import {
  DELIVERY_TOKEN_HEADER,
  E2E_MAX_RECORD_SIZE,
  e2ePartLayout,
} from '@shared/contract/deliveries';
import { DELIVERY_ENDPOINTS } from '@shared/contract/endpoints/deliveries';
import type { FastifyRequest } from 'fastify';
import { closingOnRefusal, PART_BODY_SLACK_BYTES, partRequestOf } from '../uploads/part-request';
import { sendStoredFile } from '../uploads/send';
import { registerEndpoint } from '../core/endpoint-route';
import { routePlugin } from '../core/route-plugin';
import { requestContext } from '../core/request-context';
import { scheduleTemporaryBlobSweep } from './cleanup';
import { activityLog, deleteDelivery, deliveryDetail } from './detail';
import { downloadableFile, markDownloaded } from './downloads';
import { layoutOf, partKey } from './records';
import { createDraft, updateDraft } from './drafts';
import { putOwnKey } from './e2e-keys';
import { inbox, sentList } from './lists';
import { addFile, commitFile, listParts, putPart, removeFile } from './parts';
import { resendNotification, sendDelivery } from './sending';
import { shareProofOf } from './share-proof';
import { resolveViewer } from './viewer';

/** Largest E2E part: the header plus 8 records of the largest record size the server takes. */
const E2E_MAX_PART_BYTES = e2ePartLayout(E2E_MAX_RECORD_SIZE).partSize + e2ePartLayout(E2E_MAX_RECORD_SIZE).leadingBytes;

const tokenOf = (request: Pick<FastifyRequest, 'headers'> & { query: { token?: string | undefined } }): string | undefined => {
  const header = request.headers[DELIVERY_TOKEN_HEADER];
  const value = request.query.token ?? (typeof header === 'string' ? header : undefined);
  return value?.trim() || undefined;
};

/** Deliveries (levels 1–4): drafts, resumable uploads, send, inbox, sent, download, delete, resend, activity. */
export const deliveryRoutes = routePlugin('kuvert-delivery-routes', async (app) => {
  scheduleTemporaryBlobSweep(app);
  // Raw part bodies: handed to the route as the request stream, never buffered (the blob
  // store enforces the exact size while streaming). Only these routes accept the type.
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));

  registerEndpoint(app, DELIVERY_ENDPOINTS.create, async (request, reply) => {
    const draft = await createDraft(requestContext(app, request), request.body);
    void reply.code(201);
    return deliveryDetail(app, { kind: 'sender', delivery: draft });
  });

  registerEndpoint(app, DELIVERY_ENDPOINTS.update, async (request) => {
    const draft = await updateDraft(requestContext(app, request), request.params.deliveryUuid, request.body);
    return deliveryDetail(app, { kind: 'sender', delivery: draft });
  });

  registerEndpoint(app, DELIVERY_ENDPOINTS.addFile, async (request, reply) => {
    const file = await addFile(requestContext(app, request), request.params.deliveryUuid, request.body);
    void reply.code(201);
    return file;
  });

  registerEndpoint(app, DELIVERY_ENDPOINTS.removeFile, async (request, reply) => {
    await removeFile(requestContext(app, request), request.params.deliveryUuid, request.params.fileId);
    return reply.code(204).send(null);
  });

  // The exact size of each part is enforced while streaming; this only caps the worst case.
  registerEndpoint(app, DELIVERY_ENDPOINTS.putPart, async (request, reply) =>
    closingOnRefusal(reply, () =>
      putPart(requestContext(app, request), { deliveryUuid: request.params.deliveryUuid, fileId: request.params.fileId, index: request.params.index, ...partRequestOf(request) }),
    ), { bodyLimit: Math.max(app.config.uploadPartSize, E2E_MAX_PART_BYTES) + PART_BODY_SLACK_BYTES });

  registerEndpoint(app, DELIVERY_ENDPOINTS.parts, async (request) => listParts(requestContext(app, request), request.params.deliveryUuid, request.params.fileId));

  registerEndpoint(app, DELIVERY_ENDPOINTS.putOwnKey, async (request, reply) => {
    await putOwnKey(requestContext(app, request), request.params.deliveryUuid, request.params.fileId, request.body);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, DELIVERY_ENDPOINTS.commitFile, async (request) => commitFile(requestContext(app, request), request.params.deliveryUuid, request.params.fileId));

  registerEndpoint(app, DELIVERY_ENDPOINTS.send, async (request) => {
    const sent = await sendDelivery(requestContext(app, request), request.params.deliveryUuid);
    return deliveryDetail(app, { kind: 'sender', delivery: sent });
  });

  registerEndpoint(app, DELIVERY_ENDPOINTS.inbox, async (request) => inbox(requestContext(app, request), request.query));

  registerEndpoint(app, DELIVERY_ENDPOINTS.sent, async (request) => sentList(requestContext(app, request), request.query));

  // Public: level-1 token holders have no session. resolveViewer checks sender, recipient or token.
  registerEndpoint(app, DELIVERY_ENDPOINTS.one, async (request, reply) => {
    const viewer = await resolveViewer(app.db, request.params.deliveryUuid, { user: request.user, token: tokenOf(request), proof: shareProofOf(request) });
    void reply.header('cache-control', 'no-store');
    return deliveryDetail(app, viewer);
  });

  registerEndpoint(app, DELIVERY_ENDPOINTS.remove, async (request, reply) => {
    await deleteDelivery(requestContext(app, request), request.params.deliveryUuid);
    return reply.code(204).send(null);
  });

  // Public: level-1 token holders have no session. resolveViewer checks sender, recipient or token.
  registerEndpoint(app, DELIVERY_ENDPOINTS.content, async (request, reply) => {
    const viewer = await resolveViewer(app.db, request.params.deliveryUuid, { user: request.user, token: tokenOf(request), proof: shareProofOf(request) });
    const file = await downloadableFile(app, viewer, request.params.fileId);
    return sendStoredFile(request, reply, app.blobs, { name: file.name, mimeType: file.mime_type, layout: layoutOf(file), keyOf: (i) => partKey(viewer.delivery.uuid, file.uuid, i) }, () =>
      markDownloaded(app, viewer, file),
    );
  });

  registerEndpoint(app, DELIVERY_ENDPOINTS.resend, async (request) => resendNotification(requestContext(app, request), request.params.deliveryUuid, request.body?.shareUuid));

  registerEndpoint(app, DELIVERY_ENDPOINTS.activity, async (request) => ({ entries: await activityLog(requestContext(app, request), request.params.deliveryUuid) }));
});
