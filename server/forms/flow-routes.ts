import { FLOW_ENDPOINTS } from '@shared/contract/endpoints/flows';
import { registerEndpoint } from '../core/endpoint-route';
import { requestContext } from '../core/request-context';
import { routePlugin } from '../core/route-plugin';
import { listHandOffs, retryHandOff } from './flow-handoff';
import { getProcessService, rotateSecret, saveProcessService } from './flow-settings';
import { listAttempts, sendAgain, sendTest } from './flow-attempts';

/**
 * Flows (shared/contract/flows.ts): a form's process-service option (those who may edit the form)
 * and the Flows page's list and retry (ROLE_SECUFLOWS_ACCESS, every form: the role is that page).
 */
export const flowRoutes = routePlugin('kuvert-flow-routes', async (app) => {
  registerEndpoint(app, FLOW_ENDPOINTS.processService, async (request) => getProcessService(app, requestContext(app, request).user, request.params.formUuid));

  registerEndpoint(app, FLOW_ENDPOINTS.saveProcessService, async (request) => saveProcessService(app, requestContext(app, request).user, request.params.formUuid, request.body));

  registerEndpoint(app, FLOW_ENDPOINTS.rotateSecret, async (request, reply) => {
    const answer = await rotateSecret(app, requestContext(app, request).user, request.params.formUuid);
    void reply.code(201).header('cache-control', 'no-store');
    return answer;
  });

  registerEndpoint(app, FLOW_ENDPOINTS.attempts, async (request) => listAttempts(app, requestContext(app, request).user, request.params.formUuid));

  registerEndpoint(app, FLOW_ENDPOINTS.testWebhook, async (request) => sendTest(app, requestContext(app, request).user, request.params.formUuid));

  registerEndpoint(app, FLOW_ENDPOINTS.sendAgain, async (request) => sendAgain(app, requestContext(app, request).user, request.params.formUuid, request.params.handOffId));

  registerEndpoint(app, FLOW_ENDPOINTS.list, async (request) => listHandOffs(app, request.query));

  registerEndpoint(app, FLOW_ENDPOINTS.retry, async (request) => retryHandOff(app, request.params.handOffId));
});
