import { LICENCE_ENDPOINTS } from '@shared/contract/endpoints/licence';
import { registerEndpoint } from '../core/endpoint-route';
import { routePlugin } from '../core/route-plugin';
import { licenceOverview } from './licence-counts';

/** GET /admin/licence: counts against the operator's caps, with their holders. */
export const licenceRoutes = routePlugin('kuvert-licence-routes', async (app) => {
  registerEndpoint(app, LICENCE_ENDPOINTS.overview, async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    return { licences: await licenceOverview(app.db, app.config) };
  });
});
