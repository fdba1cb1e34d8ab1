import { API_BASE } from '@shared/contract/constants';
import {
  DELIVERY_PATHS as PATHS,
  DeliveryParamsSchema,
  E2eResponseSchema,
  MAX_E2E_MANIFEST_CHARS,
  PutE2eBodySchema,
  RecipientKeysResponseSchema,
  RecipientStatusBodySchema,
  RecipientStatusResponseSchema,
  ReleaseBodySchema,
  ReleaseListSchema,
} from '@shared/contract/deliveries';
import { requestContext } from '../core/request-context';
import { routePlugin } from '../core/route-plugin';
import { getE2e, putE2e } from './e2e-keys';
import { recipientKeys, recipientStatus } from './e2e-lookups';
import { releaseDelivery, releaseList } from './e2e-release';
import { errors, noContent, SENDER } from './route-options';

/** The E2E body: the manifest (base64url) plus descriptors (~300 bytes each). */
const E2E_BODY_LIMIT = MAX_E2E_MANIFEST_CHARS + 8 * 1_048_576;

/** Levels 3/4 (e2e-*.ts): recipients' keys and chip warnings, manifest and wrapped keys, release. */
export const deliveryE2eRoutes = routePlugin('kuvert-delivery-e2e-routes', async (app) => {
  app.get(
    `${API_BASE}${PATHS.recipientKeysRoute}`,
    {
      config: { access: SENDER },
      schema: {
        summary: "Levels 3/4: the recipients' SecuPass state and public keys (the draft's sender)",
        tags: ['deliveries'],
        params: DeliveryParamsSchema,
        response: { 200: RecipientKeysResponseSchema, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => recipientKeys(requestContext(app, request), request.params.deliveryUuid),
  );

  app.put(
    `${API_BASE}${PATHS.e2eRoute}`,
    {
      config: { access: SENDER },
      bodyLimit: E2E_BODY_LIMIT,
      schema: {
        summary: 'Levels 3/4: the encrypted signed manifest and the wrapped file keys (the draft\'s sender)',
        tags: ['deliveries'],
        params: DeliveryParamsSchema,
        body: PutE2eBodySchema,
        response: { 204: noContent, ...errors(400, 401, 403, 404, 409, 413) },
      },
    },
    async (request, reply) => {
      await putE2e(requestContext(app, request), request.params.deliveryUuid, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${API_BASE}${PATHS.e2eRoute}`,
    {
      config: { access: 'authenticated' },
      schema: {
        summary: "Levels 3/4: the encrypted manifest and the caller's own wrapped file keys",
        tags: ['deliveries'],
        params: DeliveryParamsSchema,
        response: { 200: E2eResponseSchema, ...errors(401, 404) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return getE2e(requestContext(app, request), request.params.deliveryUuid);
    },
  );

  app.post(
    `${API_BASE}${PATHS.recipientStatus}`,
    {
      config: { access: SENDER },
      schema: {
        summary: 'Registered / has a passphrase, per address (the send page chip warnings); rate limited',
        tags: ['deliveries'],
        body: RecipientStatusBodySchema,
        response: { 200: RecipientStatusResponseSchema, ...errors(400, 401, 403, 429) },
      },
    },
    async (request) => recipientStatus(requestContext(app, request), request.body.emails, request.body.withKeys === true),
  );

  app.get(
    `${API_BASE}${PATHS.releaseList}`,
    {
      config: { access: SENDER },
      schema: { summary: 'Recipients waiting for the caller to release a level 3/4 delivery', tags: ['deliveries'], response: { 200: ReleaseListSchema, ...errors(401, 403) } },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return releaseList(requestContext(app, request));
    },
  );

  app.post(
    `${API_BASE}${PATHS.releaseRoute}`,
    {
      config: { access: SENDER },
      schema: {
        summary: "Release: the file keys re-wrapped to one waiting recipient's key; the recipient is mailed",
        tags: ['deliveries'],
        params: DeliveryParamsSchema,
        body: ReleaseBodySchema,
        response: { 204: noContent, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await releaseDelivery(requestContext(app, request), request.params.deliveryUuid, request.body.descriptors);
      return reply.code(204).send(null);
    },
  );
});
