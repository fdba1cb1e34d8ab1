import { MAX_E2E_MANIFEST_CHARS } from '@shared/contract/deliveries';
import { DELIVERY_ENDPOINTS } from '@shared/contract/endpoints/deliveries';
import { registerEndpoint } from '../core/endpoint-route';
import { requestContext } from '../core/request-context';
import { routePlugin } from '../core/route-plugin';
import { getE2e, putE2e } from './e2e-keys';
import { recipientKeys, recipientStatus } from './e2e-lookups';
import { releaseDelivery, releaseList } from './e2e-release';

/** The E2E body: the manifest (base64url) plus descriptors (~300 bytes each). */
const E2E_BODY_LIMIT = MAX_E2E_MANIFEST_CHARS + 8 * 1_048_576;

/** Levels 3/4 (e2e-*.ts): recipients' keys and chip warnings, manifest and wrapped keys, release. */
export const deliveryE2eRoutes = routePlugin('kuvert-delivery-e2e-routes', async (app) => {
  registerEndpoint(app, DELIVERY_ENDPOINTS.recipientKeys, async (request) => recipientKeys(requestContext(app, request), request.params.deliveryUuid));

  registerEndpoint(app, DELIVERY_ENDPOINTS.putE2e, async (request, reply) => {
    await putE2e(requestContext(app, request), request.params.deliveryUuid, request.body);
    return reply.code(204).send(null);
  }, { bodyLimit: E2E_BODY_LIMIT });

  registerEndpoint(app, DELIVERY_ENDPOINTS.e2e, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return getE2e(requestContext(app, request), request.params.deliveryUuid);
  });

  registerEndpoint(app, DELIVERY_ENDPOINTS.recipientStatus, async (request) => recipientStatus(requestContext(app, request), request.body.emails, request.body.withKeys === true));

  registerEndpoint(app, DELIVERY_ENDPOINTS.releaseList, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return releaseList(requestContext(app, request));
  });

  registerEndpoint(app, DELIVERY_ENDPOINTS.release, async (request, reply) => {
    await releaseDelivery(requestContext(app, request), request.params.deliveryUuid, request.body.descriptors);
    return reply.code(204).send(null);
  });
});
