import { SIGNED_IN_HINT_COOKIE } from '@shared/contract/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookiesNeedSecure } from '../config';
import { bearerTokenOf, SESSION_COOKIE } from '../core/access';
import { SESSION_ABSOLUTE_TIMEOUT_MS } from '../sessions/sessions-store';

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: cookiesNeedSecure(request.server.config.publicUrl),
    maxAge: Math.floor(SESSION_ABSOLUTE_TIMEOUT_MS / 1000),
  });
  // No secret: tells the web client a session may exist (shared/contract/auth.ts), so a signed-out first load asks nothing.
  void reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', {
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure: cookiesNeedSecure(request.server.config.publicUrl),
    maxAge: Math.floor(SESSION_ABSOLUTE_TIMEOUT_MS / 1000),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: cookiesNeedSecure(request.server.config.publicUrl),
  });
  void reply.clearCookie(SIGNED_IN_HINT_COOKIE, { path: '/', sameSite: 'lax', secure: cookiesNeedSecure(request.server.config.publicUrl) });
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
