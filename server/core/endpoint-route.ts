import { routePathOf, type Endpoint, type EndpointBody, type EndpointParams, type EndpointQuery, type EndpointReply } from '@shared/contract/endpoint';
import { BackendErrorSchema } from '@shared/contract/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The catalogue entry the route was registered from (shared/contract/endpoints). */
    endpoint?: Endpoint;
  }
}

/** The request a catalogue handler receives: params, query and body parsed by the endpoint's schemas. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: EndpointParams<E>;
  Querystring: EndpointQuery<E>;
  Body: EndpointBody<E>;
}>;

/** A catalogue handler: returns the JSON answer (checked by the response schema), or uses the reply itself. */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<EndpointReply<E> | FastifyReply>;

/** Route options that are not part of the contract (a body limit set from the configuration). */
export interface EndpointRouteExtras {
  bodyLimit?: number;
  /** A hot route's compiled answer (core/compiled-reply.ts); default: zod's check of the answer. */
  serializerCompiler?: RouteOptions['serializerCompiler'];
}

/**
 * Fastify route options of a catalogue entry: URL, access declaration (enforced by access.ts,
 * read by openapi.ts), the schemas, the declared errors in the SPEC §8 shape.
 */
export function endpointRouteOptions(endpoint: Endpoint): Omit<RouteOptions, 'handler'> {
  const errors = Object.fromEntries(endpoint.errors.map((code) => [code, BackendErrorSchema]));
  return {
    method: endpoint.method,
    url: routePathOf(endpoint),
    config: { access: endpoint.access, endpoint },
    schema: {
      ...(endpoint.hidden ? { hide: true } : {}),
      ...(endpoint.basicCredentials ? { security: [{ basicAuth: [] }] } : {}),
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      tags: [endpoint.tag],
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.headers ? { headers: endpoint.headers } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.produces ? { produces: [...endpoint.produces] } : {}),
      response: { ...endpoint.response, ...errors },
    },
  };
}

/**
 * Registers a catalogue entry with its handler: the one way a `/api/2` route comes into
 * being (tests/integration/endpoint-catalogue.test.ts checks that every route has its entry).
 */
export function registerEndpoint<E extends Endpoint>(app: FastifyInstance, endpoint: E, handler: EndpointHandler<E>, extras: EndpointRouteExtras = {}): void {
  app.route({ ...endpointRouteOptions(endpoint), ...extras, handler: handler as unknown as RouteOptions['handler'] });
}
