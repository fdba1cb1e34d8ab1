import type { IncomingMessage } from 'node:http';
import { API_BASE } from '@shared/contract/constants';
import { contentDisposition } from '@shared/contract/content-disposition';
import {
  ActivityResponseSchema,
  AddFileBodySchema,
  CONTENT_SHA256_HEADER,
  CreateDeliveryBodySchema,
  DELIVERY_PATHS as PATHS,
  DELIVERY_TOKEN_HEADER,
  DeliveryDetailSchema,
  DeliveryListQuerySchema,
  DeliveryPageSchema,
  DeliveryParamsSchema,
  DeliveryUploadFileSchema,
  E2E_MAX_RECORD_SIZE,
  e2ePartLayout,
  OwnFileKeySchema,
  FileParamsSchema,
  PartParamsSchema,
  PartSchema,
  PartsResponseSchema,
  ResendNotificationBodySchema,
  ResendNotificationResponseSchema,
  TokenQuerySchema,
  UpdateDeliveryBodySchema,
  isValidMimeType,
} from '@shared/contract/deliveries';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../core/http-error';
import { sendPooledBody } from '../storage/pooled-body';
import { routePlugin } from '../core/route-plugin';
import { requestContext } from '../core/request-context';
import { scheduleDeliverySweep } from './cleanup';
import { activityLog, deleteDelivery, deliveryDetail } from './detail';
import { downloadableFile, fileRangeReader, fileStream, markDownloaded } from './downloads';
import { createDraft, updateDraft } from './drafts';
import { putOwnKey } from './e2e-keys';
import { inbox, sentList } from './lists';
import { addFile, commitFile, listParts, putPart, removeFile } from './parts';
import { parseRange } from './range';
import { resendNotification, sendDelivery } from './sending';
import { shareProofOf } from './share-proof';
import { resolveViewer } from './viewer';
import { errors, noContent, SENDER } from './route-options';

/** Room for the part plus nothing else: parts are raw bytes, no envelope. */
const PART_BODY_SLACK_BYTES = 1024;
/** Largest E2E part: the header plus 8 records of the largest record size the server takes. */
const E2E_MAX_PART_BYTES = e2ePartLayout(E2E_MAX_RECORD_SIZE).partSize + e2ePartLayout(E2E_MAX_RECORD_SIZE).leadingBytes;

const tokenOf = (request: Pick<FastifyRequest, 'headers'> & { query: { token?: string | undefined } }): string | undefined => {
  const header = request.headers[DELIVERY_TOKEN_HEADER];
  const value = request.query.token ?? (typeof header === 'string' ? header : undefined);
  return value?.trim() || undefined;
};

/** Deliveries (levels 1–4): drafts, resumable uploads, send, inbox, sent, download, delete, resend, activity. */
export const deliveryRoutes = routePlugin('kuvert-delivery-routes', async (app) => {
  scheduleDeliverySweep(app);
  // Raw part bodies: handed to the route as the request stream, never buffered (the blob
  // store enforces the exact size while streaming). Only these routes accept the type.
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));

  app.post(
    `${API_BASE}${PATHS.create}`,
    {
      config: { access: SENDER },
      schema: {
        summary: 'Creates a draft delivery',
        tags: ['deliveries'],
        body: CreateDeliveryBodySchema,
        response: { 201: DeliveryDetailSchema, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const draft = await createDraft(requestContext(app, request), request.body);
      void reply.code(201);
      return deliveryDetail(app, { kind: 'sender', delivery: draft });
    },
  );

  app.patch(
    `${API_BASE}${PATHS.oneRoute}`,
    {
      config: { access: SENDER },
      schema: {
        summary: "Changes a draft's fields (checked like a new draft)",
        tags: ['deliveries'],
        params: DeliveryParamsSchema,
        body: UpdateDeliveryBodySchema,
        response: { 200: DeliveryDetailSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const draft = await updateDraft(requestContext(app, request), request.params.deliveryUuid, request.body);
      return deliveryDetail(app, { kind: 'sender', delivery: draft });
    },
  );

  app.post(
    `${API_BASE}${PATHS.filesRoute}`,
    {
      config: { access: SENDER },
      schema: {
        summary: 'Announces a file of a draft: name, size and type are checked, space is reserved; answers the part layout',
        tags: ['deliveries'],
        params: DeliveryParamsSchema,
        body: AddFileBodySchema,
        response: { 201: DeliveryUploadFileSchema, ...errors(400, 401, 403, 404, 409, 413, 507) },
      },
    },
    async (request, reply) => {
      const file = await addFile(requestContext(app, request), request.params.deliveryUuid, request.body);
      void reply.code(201);
      return file;
    },
  );

  app.delete(
    `${API_BASE}${PATHS.fileRoute}`,
    {
      config: { access: SENDER },
      schema: { summary: 'Removes a file from a draft', tags: ['deliveries'], params: FileParamsSchema, response: { 204: noContent, ...errors(401, 403, 404, 409) } },
    },
    async (request, reply) => {
      await removeFile(requestContext(app, request), request.params.deliveryUuid, request.params.fileId);
      return reply.code(204).send(null);
    },
  );

  app.put(
    `${API_BASE}${PATHS.partRoute}`,
    {
      config: { access: SENDER },
      // The exact size of each part is enforced while streaming; this only caps the worst case.
      bodyLimit: Math.max(app.config.uploadPartSize, E2E_MAX_PART_BYTES) + PART_BODY_SLACK_BYTES,
      schema: {
        summary: 'Uploads one part (application/octet-stream, header x-content-sha256); idempotent',
        tags: ['deliveries'],
        params: PartParamsSchema,
        response: { 200: PartSchema, ...errors(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request, reply) => {
      const lengthHeader = request.headers['content-length'];
      const sha = request.headers[CONTENT_SHA256_HEADER];
      try {
        return await putPart(requestContext(app, request), {
          deliveryUuid: request.params.deliveryUuid,
          fileId: request.params.fileId,
          index: request.params.index,
          sha256: typeof sha === 'string' ? sha : undefined,
          contentLength: lengthHeader === undefined ? undefined : Number(lengthHeader),
          body: (request.body as IncomingMessage | undefined) ?? request.raw,
        });
      } catch (error) {
        // A refused body may still be arriving: close the connection instead of draining it.
        void reply.header('connection', 'close');
        throw error;
      }
    },
  );

  app.get(
    `${API_BASE}${PATHS.partsRoute}`,
    {
      config: { access: SENDER },
      schema: { summary: 'Parts received so far (to resume an upload)', tags: ['deliveries'], params: FileParamsSchema, response: { 200: PartsResponseSchema, ...errors(401, 403, 404) } },
    },
    async (request) => listParts(requestContext(app, request), request.params.deliveryUuid, request.params.fileId),
  );

  app.put(
    `${API_BASE}${PATHS.ownKeyRoute}`,
    {
      config: { access: SENDER },
      schema: {
        summary: "Levels 3/4: the file key wrapped to the sender's own key, kept on the draft for a resume (the draft's sender)",
        tags: ['deliveries'],
        params: FileParamsSchema,
        body: OwnFileKeySchema,
        response: { 204: noContent, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await putOwnKey(requestContext(app, request), request.params.deliveryUuid, request.params.fileId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${API_BASE}${PATHS.commitRoute}`,
    {
      config: { access: SENDER },
      schema: {
        summary: 'Completes a file once every part is in; before this nothing of it can be downloaded',
        tags: ['deliveries'],
        params: FileParamsSchema,
        response: { 200: DeliveryUploadFileSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => commitFile(requestContext(app, request), request.params.deliveryUuid, request.params.fileId),
  );

  app.post(
    `${API_BASE}${PATHS.sendRoute}`,
    {
      config: { access: SENDER },
      schema: {
        summary: 'Sends a draft: every rule is checked, recipients are mailed',
        tags: ['deliveries'],
        params: DeliveryParamsSchema,
        response: { 200: DeliveryDetailSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const sent = await sendDelivery(requestContext(app, request), request.params.deliveryUuid);
      return deliveryDetail(app, { kind: 'sender', delivery: sent });
    },
  );

  app.get(
    `${API_BASE}${PATHS.inbox}`,
    {
      config: { access: 'authenticated' },
      schema: { summary: 'Deliveries to the caller, newest first', tags: ['deliveries'], querystring: DeliveryListQuerySchema, response: { 200: DeliveryPageSchema, ...errors(400, 401) } },
    },
    async (request) => inbox(requestContext(app, request), request.query),
  );

  app.get(
    `${API_BASE}${PATHS.sent}`,
    {
      config: { access: 'authenticated' },
      schema: { summary: "The caller's sent deliveries, newest first", tags: ['deliveries'], querystring: DeliveryListQuerySchema, response: { 200: DeliveryPageSchema, ...errors(400, 401) } },
    },
    async (request) => sentList(requestContext(app, request), request.query),
  );

  app.get(
    `${API_BASE}${PATHS.oneRoute}`,
    {
      // Public: level-1 token holders have no session. resolveViewer checks sender, recipient or token.
      config: { access: 'public' },
      schema: {
        summary: 'One delivery (sender, recipient, or level-1 token holder)',
        tags: ['deliveries'],
        params: DeliveryParamsSchema,
        querystring: TokenQuerySchema,
        response: { 200: DeliveryDetailSchema, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const viewer = await resolveViewer(app.db, request.params.deliveryUuid, { user: request.user, token: tokenOf(request), proof: shareProofOf(request) });
      void reply.header('cache-control', 'no-store');
      return deliveryDetail(app, viewer);
    },
  );

  app.delete(
    `${API_BASE}${PATHS.oneRoute}`,
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'The sender deletes for everyone; a recipient removes it from their inbox',
        tags: ['deliveries'],
        params: DeliveryParamsSchema,
        response: { 204: noContent, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await deleteDelivery(requestContext(app, request), request.params.deliveryUuid);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${API_BASE}${PATHS.contentRoute}`,
    {
      // Public: level-1 token holders have no session. resolveViewer checks sender, recipient or token.
      config: { access: 'public' },
      schema: {
        summary: 'The bytes of a committed file; Range requests answer 206',
        tags: ['deliveries'],
        produces: ['application/octet-stream'],
        params: FileParamsSchema,
        querystring: TokenQuerySchema,
        response: errors(401, 403, 404, 416),
      },
    },
    async (request, reply) => {
      const viewer = await resolveViewer(app.db, request.params.deliveryUuid, { user: request.user, token: tokenOf(request), proof: shareProofOf(request) });
      const file = await downloadableFile(app, viewer, request.params.fileId);
      const size = Number(file.size);
      const range = parseRange(request.headers.range, size);
      void reply
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "sandbox; default-src 'none'")
        .header('content-disposition', contentDisposition(file.name));
      if (range.kind === 'unsatisfiable') {
        throw new HttpError(416, 'ValidationException', 'The requested range cannot be satisfied', { size }, { 'content-range': `bytes */${size}` });
      }
      const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, size - 1];
      if (request.method === 'GET' && end === size - 1) {
        // The download counts once the last byte has gone out.
        reply.raw.once('finish', () => {
          markDownloaded(app, viewer, file).catch((err: unknown) => request.log.error({ err }, 'recording a download failed'));
        });
      }
      // A type stored before the MIME check existed may be malformed (a CR/LF): never put it in a header.
      void reply.type(isValidMimeType(file.mime_type) ? file.mime_type : 'application/octet-stream').header('content-length', String(end - start + 1));
      if (range.kind === 'partial') void reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
      const reader = fileRangeReader(app, viewer.delivery, file, start, end);
      if (reader) return sendPooledBody(reply, reader, end - start + 1);
      return reply.send(fileStream(app, viewer.delivery, file, start, end) as never);
    },
  );

  app.post(
    `${API_BASE}${PATHS.resendRoute}`,
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'Mails the recipients again (level 1: with a fresh link)',
        tags: ['deliveries'],
        params: DeliveryParamsSchema,
        body: ResendNotificationBodySchema.optional(),
        response: { 200: ResendNotificationResponseSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => resendNotification(requestContext(app, request), request.params.deliveryUuid, request.body?.shareUuid),
  );

  app.get(
    `${API_BASE}${PATHS.activityRoute}`,
    {
      config: { access: 'authenticated' },
      schema: { summary: 'Activity log of a delivery', tags: ['deliveries'], params: DeliveryParamsSchema, response: { 200: ActivityResponseSchema, ...errors(401, 404) } },
    },
    async (request) => ({ entries: await activityLog(requestContext(app, request), request.params.deliveryUuid) }),
  );
});
