import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { AccessRule, Endpoint } from '@shared/contract/endpoint';
import { SUBMIT_SESSION_ENDPOINTS } from '@shared/contract/endpoints/submit-box';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { SessionRow } from '../sessions/sessions-store';
import { roleNamesOf, type UserRow } from '../users/users-repository';
import { accessDenied, authenticationRequired, HttpError } from './http-error';

/**
 * Who may call a route (declared in the endpoint catalogue, shared/contract/endpoint.ts). Every
 * route declares it (`config: { access }`); the app refuses to start otherwise.
 */
export type { AccessRule };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
  interface FastifyInstance {
    /** Every route with its access declaration (tests walk it). */
    routeTable: RouteTableEntry[];
  }
  interface FastifyRequest {
    /** The signed-in user's session, when the request carries a live one. */
    session: SessionRow | null;
    user: UserRow | null;
  }
}

export interface RouteTableEntry {
  method: string;
  url: string;
  access: AccessRule | undefined;
  /** The catalogue entry the route was registered from (endpoint-route.ts), if any. */
  endpoint: Endpoint | undefined;
}

type ResolvedSession = { session: SessionRow; user: UserRow } | undefined;

export const SESSION_COOKIE = 'KUVERT_SESSION';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class MissingAccessDeclarationError extends Error {
  override readonly name = 'MissingAccessDeclarationError';
}

export function accessRuleOf(route: Pick<RouteOptions, 'config'>): AccessRule | undefined {
  return (route.config as { access?: AccessRule } | undefined)?.access;
}

export interface AccessDependencies {
  /**
   * The live session of a cookie token with its user (one query: every signed-in request needs both);
   * a promise only when it has to wait (PostgreSQL, a write, a transaction in flight).
   */
  resolveSession(token: string): ResolvedSession | Promise<ResolvedSession>;
  /** The one delivery a submit-box session (kind `submit`) may touch, by session id. */
  submitSessionDelivery?(sessionId: string): Promise<string | undefined>;
}

/** Registers the declaration check and the one hook that enforces the declarations. */
export function installAccessControl(app: FastifyInstance, deps: AccessDependencies): void {
  app.decorateRequest('session', null);
  app.decorateRequest('user', null);

  const table: RouteTableEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) table.push({ method, url: route.url, access: accessRuleOf(route), endpoint: (route.config as { endpoint?: Endpoint } | undefined)?.endpoint });
    if (accessRuleOf(route) === undefined) {
      throw new MissingAccessDeclarationError(`Route ${methods.join(',')} ${route.url} declares no access (config.access)`);
    }
  });

  // Callback style, a promise only where something waits: a signed-in request on SQLite with
  // nothing to write (nearly all) passes without one (issue 35 §4). A refusal thrown here is
  // caught by Fastify's hook runner and answered like an error passed to done.
  app.addHook('onRequest', (request, _reply, done) => {
    const pending = loadSession(request, deps);
    if (pending) pending.then(() => settle(() => checkAccess(request, deps), done), done);
    else settle(() => checkAccess(request, deps), done);
  });
}

/** Runs `work`; done once, with its error if it throws or rejects. */
function settle(work: () => Promise<void> | undefined, done: (error?: Error) => void): void {
  let pending: Promise<void> | undefined;
  try {
    pending = work();
  } catch (error) {
    done(error as Error);
    return;
  }
  if (pending) pending.then(() => done(), done);
  else done();
}

/** The route's declaration enforced for the request's session (a promise only for a submit-box session). */
function checkAccess(request: FastifyRequest, deps: AccessDependencies): Promise<void> | undefined {
  // The 404 handler has no declaration: unknown paths answer 404 to everyone.
  if (request.is404) return undefined;
  // Read once: Fastify builds a new routeOptions object on every access.
  const { config } = request.routeOptions;
  const rule = config.access;
  if (rule === undefined) throw accessDenied(); // unreachable: onRoute refuses such routes
  if (request.session?.kind === 'submit') return enforceSubmitScope(rule, config.endpoint, request, deps).then(() => enforceAll(rule, config.endpoint, request));
  enforceAll(rule, config.endpoint, request);
  return undefined;
}

function enforceAll(rule: AccessRule, endpoint: Endpoint | undefined, request: FastifyRequest): void {
  enforce(rule, request);
  // An add-in token does not mint more tokens: such calls take the web session only.
  if (endpoint?.webSessionOnly && request.session?.kind !== 'cookie') {
    throw new HttpError(403, 'AccessDeniedException', 'Only a web session can make this call');
  }
}

/** The token of `Authorization: Bearer <token>` (the add-in's session), else null. */
export function bearerTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{1,200})\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** Sets request.session and request.user from the request's token; a promise only when the look-up waits. */
function loadSession(request: FastifyRequest, deps: AccessDependencies): Promise<void> | undefined {
  // A request carrying a bearer token is judged by it alone (no fallback to a cookie).
  const bearer = bearerTokenOf(request);
  const token = bearer ?? request.cookies?.[SESSION_COOKIE];
  if (!token) return undefined;
  const resolved = deps.resolveSession(token);
  if (resolved instanceof Promise) return resolved.then((r) => adopt(request, r, bearer !== null));
  adopt(request, resolved, bearer !== null);
  return undefined;
}

function adopt(request: FastifyRequest, resolved: ResolvedSession, byBearer: boolean): void {
  if (!resolved || resolved.user.disabled) return;
  const { session, user } = resolved;
  // A token works only the way it was issued; an add-in session also needs ROLE_OUTLOOK
  // at every request, so taking the role away ends the add-in's access at once.
  if (byBearer) {
    // A submit-box session (server/submit-box) is limited to its draft by enforceSubmitScope.
    if (session.kind !== 'submit' && (session.kind !== 'addin' || !roleNamesOf(user).includes('ROLE_OUTLOOK'))) return;
  } else if (session.kind !== 'cookie') {
    return;
  }
  request.session = session;
  request.user = user;
}

/**
 * A submit-box session (bearer, from POST /submit-tickets/by-token/start) makes only the delivery
 * calls of SUBMIT_SESSION_ENDPOINTS, on its own draft; the role rule is replaced by that scope.
 * Elsewhere it counts as no session (public calls still work).
 */
async function enforceSubmitScope(rule: AccessRule, endpoint: Endpoint | undefined, request: FastifyRequest, deps: AccessDependencies): Promise<void> {
  const allowed = endpoint !== undefined && SUBMIT_SESSION_ENDPOINTS.has(endpoint);
  const deliveryUuid = (request.params as { deliveryUuid?: string } | undefined)?.deliveryUuid;
  if (allowed && deliveryUuid !== undefined && deliveryUuid === (await deps.submitSessionDelivery?.(request.session!.id))) return;
  request.session = null;
  request.user = null;
  if (rule !== 'public') throw accessDenied();
}

function enforce(rule: AccessRule, request: FastifyRequest): void {
  // Checked by enforceSubmitScope: the submit session's own draft.
  if (request.session?.kind === 'submit') return;
  if (rule === 'public') return;
  if (!request.user || !request.session) throw authenticationRequired();
  if (typeof rule === 'object') {
    const held = new Set(roleNamesOf(request.user));
    if (!rule.roles.some((role) => held.has(role))) throw accessDenied();
  }
  // A bearer token is never sent by the browser on its own (unlike a cookie), so a forged
  // cross-site request cannot carry it: add-in sessions need no anti-forgery value.
  if (STATE_CHANGING.has(request.method) && request.session.kind === 'cookie') {
    const sent = request.headers[ANTI_CSRF_HEADER];
    if (typeof sent !== 'string' || !constantTimeEqual(sent, request.session.csrf_token)) {
      throw new HttpError(403, 'CsrfTokenException', 'Missing or invalid anti-forgery value');
    }
  }
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
