import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import { ADDIN_CLIENT_HEADER, ADDIN_CLIENT_VALUE, ANTI_CSRF_HEADER } from '@shared/contract/auth';

import { parseBasicCredentials } from '../auth/basic-credentials';
import { runLoginFlow } from '../auth/login-flow';
import { endSession, setSessionCookie } from '../auth/session-cookie';
import { SESSION_COOKIE } from '../core/access';
import { HttpError } from '../core/http-error';
import { roleNamesOf, toWireUser } from '../users/users-repository';
import { registerEndpoint } from '../core/endpoint-route';
import { routePlugin } from '../core/route-plugin';

/** POST /auth (SPEC §7) and the logout endpoint on the backend host. */
export const authRoutes = routePlugin('kuvert-auth-routes', async (app) => {
  // Public, but the credentials travel as HTTP Basic (the only route that takes them).
  registerEndpoint(app, ACCOUNT_ENDPOINTS.signIn, async (request, reply) => {
    const credentials = parseBasicCredentials(request.headers.authorization);
    const user = await runLoginFlow(app, { credentials, query: request.query, ip: request.ip });
    if (request.headers[ADDIN_CLIENT_HEADER] === ADDIN_CLIENT_VALUE) {
      // The Outlook add-in: a bearer token in the body, no cookie (DESIGN §2). Needs ROLE_OUTLOOK.
      if (!roleNamesOf(user).includes('ROLE_OUTLOOK')) {
        throw new HttpError(403, 'AccessDeniedException', 'This account may not use the Outlook add-in', { reason: 'addinNotAllowed' });
      }
      const { token, csrfToken } = await app.sessions.create(user.id, 'addin');
      void reply.header(ANTI_CSRF_HEADER, csrfToken).header('cache-control', 'no-store');
      return { data: { user: toWireUser(user), sessionToken: token } };
    }
    // A fresh session every time: an old (maybe planted) cookie never becomes signed in.
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await app.sessions.delete(previous);
    const { token, csrfToken } = await app.sessions.create(user.id);
    setSessionCookie(request, reply, token);
    void reply.header(ANTI_CSRF_HEADER, csrfToken).header('cache-control', 'no-store');
    return { data: { user: toWireUser(user) } };
  });

  registerEndpoint(app, ACCOUNT_ENDPOINTS.addinSessionExchange, async (request, reply) => {
    const { token } = await app.sessions.create(request.user!.id, 'addin');
    void reply.header('cache-control', 'no-store');
    return { sessionToken: token };
  });

  app.get(
    '/j_spring_security_logout',
    {
      config: { access: 'public' },
      // The answer is a small HTML page (legacy /webui link target), not JSON.
      schema: { summary: 'Sign out: deletes the session and expires its cookie', tags: ['auth'], produces: ['text/html'] },
    },
    async (request, reply) => {
      await endSession(request, reply);
      void reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signed out</title></head><body><p>Signed out.</p><p><a href="/auth/login">Sign in</a></p></body></html>';
    },
  );
});
