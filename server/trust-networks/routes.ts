import { TRUST_NETWORK_ENDPOINTS } from '@shared/contract/endpoints/trust-networks';
import { normalTrustInput } from '@shared/contract/trust-networks';
import type { FastifyRequest } from 'fastify';
import { registerEndpoint } from '../core/endpoint-route';
import { requestContext } from '../core/request-context';
import { routePlugin } from '../core/route-plugin';
import { createConnection, deleteConnection, listConnections, connectionByUuid, toWire, updateConnection } from './connections';
import { closingOnRefusal, PART_BODY_SLACK_BYTES } from '../uploads/part-request';
import { receiveAnnounce, receiveComplete, receivePart } from './inbound';
import { answerPing } from './ping';
import { receiveReceipt } from './receipts';
import { answerKeyLookup } from './e2e';
import { receiveRelease, receiveReleaseNeeded } from './release';
import { testConnection } from './test-connection';

/** Largest part a partner may push: the parts of a level 1/2 delivery are at most 64 MiB (KUVERT_UPLOAD_PART_SIZE's bound). */
const TRUST_PART_MAX_BYTES = 64 * 1024 * 1024;

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

  // Deliveries across a connection (slice 2, docs/trust-networks.md "Deliveries"); parts stream.
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.deliveryAnnounce, async (request, reply) => receiveAnnounce(app, request, reply, request.body, rawBodies.get(request) ?? ''));
  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.deliveryPart, async (request, reply) => closingOnRefusal(reply, () => receivePart(app, request, reply)), { bodyLimit: TRUST_PART_MAX_BYTES + PART_BODY_SLACK_BYTES });
  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.deliveryComplete, async (request, reply) => receiveComplete(app, request, reply, rawBodies.get(request) ?? ''));
  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.keyLookup, async (request, reply) => answerKeyLookup(app, request, reply, request.body, rawBodies.get(request) ?? ''));
  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.release, async (request, reply) => receiveRelease(app, request, reply, request.body, rawBodies.get(request) ?? ''));
  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.releaseNeeded, async (request, reply) => receiveReleaseNeeded(app, request, reply, request.body, rawBodies.get(request) ?? ''));
  registerEndpoint(app, TRUST_NETWORK_ENDPOINTS.receipt, async (request, reply) => receiveReceipt(app, request, reply, request.body, rawBodies.get(request) ?? ''));
});
