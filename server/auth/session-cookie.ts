import { SIGNED_IN_HINT_COOKIE } from '@shared/contract/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookiesNeedSecure } from '../config';
import { bearerTokenOf, SESSION_COOKIE } from '../core/access';
import { SESSION_ABSOLUTE_TIMEOUT_MS } from '../sessions/sessions-store';

/** Where both cookies live and how they travel: one place, so the session and its hint never drift apart. */
function cookieScope(request: FastifyRequest) {
  return { path: '/', sameSite: 'lax' as const, secure: cookiesNeedSecure(request.server.config.publicUrl) };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  const scope = cookieScope(request);
  const maxAge = Math.floor(SESSION_ABSOLUTE_TIMEOUT_MS / 1000);
  void reply.setCookie(SESSION_COOKIE, token, { ...scope, httpOnly: true, maxAge });
  // No secret: tells the web client a session may exist (shared/contract/auth.ts), so a signed-out first load asks nothing.
  void reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', { ...scope, httpOnly: false, maxAge });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  const scope = cookieScope(request);
  void reply.clearCookie(SESSION_COOKIE, { ...scope, httpOnly: true });
  void reply.clearCookie(SIGNED_IN_HINT_COOKIE, scope);
}

/** Signs the request's session out everywhere it is stored (database and cookie; an add-in's bearer token). */
export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const bearer = bearerTokenOf(request);
  if (bearer) await request.server.sessions.delete(bearer);
  const token = request.cookies[SESSION_COOKIE];
  if (token) await request.server.sessions.delete(token);
  clearSessionCookie(request, reply);
  request.session = null;
  request.user = null;
}
