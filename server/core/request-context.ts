import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../users/users-repository';
import { authenticationRequired } from './http-error';

/**
 * One signed-in request as the services see it: the server's services (`app`), the caller
 * (`user`) and the request's logger (`log`). Service functions take it first, instead of the
 * positional `(app, user, …, log)` they took before; helpers below them keep plain arguments.
 */
export interface RequestContext {
  app: FastifyInstance;
  user: UserRow;
  log: FastifyBaseLogger;
}

/**
 * The context of a request on a route that needs a session: the access hook has loaded
 * `request.user` before any handler runs (a route that forgot its declaration never starts).
 */
export function requestContext(app: FastifyInstance, request: FastifyRequest): RequestContext {
  if (!request.user) throw authenticationRequired();
  return { app, user: request.user, log: request.log };
}
