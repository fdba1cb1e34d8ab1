import { FLOW_ENDPOINTS } from '@shared/contract/endpoints/flows';
import { registerEndpoint } from '../core/endpoint-route';
import { routePlugin } from '../core/route-plugin';
import { listHandOffs, retryHandOff } from './flow-handoff';
import { getProcessService, rotateSecret, saveProcessService } from './flow-settings';

/** Flows (shared/contract/flows.ts): a form's process-service option and the Flows page's list and retry. */
export const flowRoutes = routePlugin('kuvert-flow-routes', async (app) => {
  registerEndpoint(app, FLOW_ENDPOINTS.processService, async (request) => getProcessService(app, request.params.formUuid));

  registerEndpoint(app, FLOW_ENDPOINTS.saveProcessService, async (request) => saveProcessService(app, request.params.formUuid, request.body));

  registerEndpoint(app, FLOW_ENDPOINTS.rotateSecret, async (request, reply) => {
    const answer = await rotateSecret(app, request.params.formUuid);
    void reply.code(201).header('cache-control', 'no-store');
    return answer;
  });

  registerEndpoint(app, FLOW_ENDPOINTS.list, async (request) => listHandOffs(app, request.query));

  registerEndpoint(app, FLOW_ENDPOINTS.retry, async (request) => retryHandOff(app, request.params.handOffId));
});
