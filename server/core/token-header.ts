import type { FastifyRequest } from 'fastify';
import { badRequest } from './http-error';

/**
 * The one-time token a public call carries in its header (shared/contract/link-token.ts). The
 * route's headers schema has already refused a missing or malformed one (400 ValidationException;
 * Node joins a repeated header into one value, which the schema refuses too); this narrows the type.
 */
export function tokenHeader(request: Pick<FastifyRequest, 'headers'>, name: string): string {
  const value = request.headers[name];
  if (typeof value !== 'string') throw badRequest('Invalid headers', { issues: [{ path: `/${name}`, code: 'invalid_type', message: 'Required' }] });
  return value;
}
