import { TRUST_NETWORK_ENDPOINTS } from '@shared/contract/endpoints/trust-networks';
import { normalTrustInput } from '@shared/contract/trust-networks';
import type { FastifyRequest } from 'fastify';
import { registerEndpoint } from '../core/endpoint-route';
import { requestContext } from '../core/request-context';
import { routePlugin } from '../core/route-plugin';
import { createConnection, deleteConnection, listConnections, connectionByUuid, toWire, updateConnection } from './connections';
import { answerPing } from './ping';
import { testConnection } from './test-connection';

/** The exact bytes of each JSON body of this plugin: the partner's signed digest is over them, not over a re-serialisation. */
const rawBodies = new WeakMap<FastifyRequest, string>();

/**
 * Trust networks (shared/contract/trust-networks.ts): the administrators' connections (ROLE_ADMIN)
 * and the partner endpoint (a signature by a live connection's partner key, server/trust-networks/ping.ts).
 */
export const trustNetworkRoutes = routePlugin('kuvert-trust-network-routes', async (app) => {
  // Encapsulated: only this plugin's routes keep the raw body; empty stays "no body" as everywhere.
  app.removeContentTypeParser('application/json');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    rawBodies.set(request, text);
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });

  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.list, async () => ({ connections: await listConnections(app) }));

  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.create, async (request, reply) => {
    const connection = await createConnection(app, requestContext(app, request).user.id, normalTrustInput(request.body));
    void reply.code(201);
    return connection;
  });

  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.get, async (request) => toWire(await connectionByUuid(app, request.params.connectionId)));

  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.update, async (request) => updateConnection(app, requestContext(app, request).user.id, request.params.connectionId, normalTrustInput(request.body)));

  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.remove, async (request, reply) => {
    await deleteConnection(app, requestContext(app, request).user.id, request.params.connectionId);
    return reply.code(204).send();
  });

  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.test, async (request) => testConnection(app, requestContext(app, request).user.id, request.params.connectionId));

  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.ping, async (request, reply) => answerPing(app, request, reply, request.body, rawBodies.get(request) ?? ''));
});
