import { ANTI_CSRF_HEADER, LoginQuerySchema, LoginResponseSchema } from '@shared/contract/auth';
import { API_BASE } from '@shared/contract/constants';
import { BackendErrorSchema } from '@shared/contract/errors';
import { z } from 'zod';
import { parseBasicCredentials } from '../auth/basic-credentials';
import { runLoginFlow } from '../auth/login-flow';
import { endSession, setSessionCookie } from '../auth/session-cookie';
import { SESSION_COOKIE } from '../core/access';
import { toWireUser } from '../users/users-repository';
import { routePlugin } from '../core/route-plugin';

/** POST /auth (SPEC §7) and the logout endpoint on the backend host. */
export const authRoutes = routePlugin('kuvert-auth-routes', async (app) => {
  app.post(
    `${API_BASE}/auth`,
    {
      config: { access: 'public' },
      schema: {
        summary: 'Sign in with Basic credentials; escalations answer 401/403 with the authorization-errors header',
        tags: ['auth'],
        querystring: LoginQuerySchema,
        response: { 200: LoginResponseSchema, 400: BackendErrorSchema, 401: BackendErrorSchema, 403: BackendErrorSchema },
      },
    },
    async (request, reply) => {
      const credentials = parseBasicCredentials(request.headers.authorization);
      const user = await runLoginFlow(app, { credentials, query: request.query, ip: request.ip });
      // A fresh session every time: an old (maybe planted) cookie never becomes signed in.
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) await app.sessions.delete(previous);
      const { token, csrfToken } = await app.sessions.create(user.id);
      setSessionCookie(request, reply, token);
      void reply.header(ANTI_CSRF_HEADER, csrfToken).header('cache-control', 'no-store');
      return { data: { user: toWireUser(user) } };
    },
  );

  app.get(
    '/j_spring_security_logout',
    {
      config: { access: 'public' },
      schema: { summary: 'Sign out: deletes the session and expires its cookie', tags: ['auth'], response: { 200: z.string() } },
    },
    async (request, reply) => {
      await endSession(request, reply);
      void reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signed out</title></head><body><p>Signed out.</p><p><a href="/auth/login">Sign in</a></p></body></html>';
    },
  );
});
