import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { API_BASE } from '@shared/contract/constants';
import { BackendErrorSchema } from '@shared/contract/errors';
import { CurrentUserResponseSchema, UpdateLoggedInUserBodySchema } from '@shared/contract/user';
import { toWireUser } from '../users/users-repository';
import { routePlugin } from '../core/route-plugin';

/** GET /user and POST /user/updateLoggedInUser (SPEC §7). */
export const userRoutes = routePlugin('kuvert-user-routes', async (app) => {
  app.get(
    `${API_BASE}/user`,
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'The signed-in user (401 when signed out)',
        tags: ['user'],
        response: { 200: CurrentUserResponseSchema, 401: BackendErrorSchema },
      },
    },
    async (request, reply) => {
      // The session's anti-forgery value too: a sign-in that did not go through POST /auth
      // (single sign-on) has no other way to hand it over. Same-origin only: no CORS here.
      void reply.header('cache-control', 'no-store').header(ANTI_CSRF_HEADER, request.session!.csrf_token);
      return { user: toWireUser(request.user!) };
    },
  );

  app.post(
    `${API_BASE}/user/updateLoggedInUser`,
    {
      config: { access: 'authenticated' },
      schema: {
        summary: "Persists the signed-in user's interface language",
        tags: ['user'],
        body: UpdateLoggedInUserBodySchema,
        response: { 200: CurrentUserResponseSchema, 400: BackendErrorSchema, 401: BackendErrorSchema, 403: BackendErrorSchema },
      },
    },
    async (request) => {
      const user = request.user!;
      await app.users.update(user.id, { language: request.body.user.language });
      const updated = (await app.users.findById(user.id))!;
      return { user: toWireUser(updated) };
    },
  );
});
