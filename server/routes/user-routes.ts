import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import { compiledReplySerializer } from '../core/compiled-reply';
import { registerEndpoint } from '../core/endpoint-route';
import { acceptTerms, termsConsentOf } from './terms-consent';
import { toWireUser } from '../users/users-repository';
import { routePlugin } from '../core/route-plugin';

/** GET /user and POST /user/updateLoggedInUser (SPEC §7); GET/POST /user/terms (issue 34). */
export const userRoutes = routePlugin('kuvert-user-routes', async (app) => {
  registerEndpoint(app, ACCOUNT_ENDPOINTS.currentUser, async (request, reply) => {
    // The session's anti-forgery value too: a sign-in that did not go through POST /auth
    // (single sign-on) has no other way to hand it over. Same-origin only: no CORS here.
    // `no-store` comes from the security-headers hook (every signed-in JSON answer).
    void reply.header(ANTI_CSRF_HEADER, request.session!.csrf_token);
    return { user: toWireUser(request.user!) };
    // The app's most frequent call: its answer by a serializer compiled from the contract (issue 35 §4).
  }, { serializerCompiler: compiledReplySerializer });

  registerEndpoint(app, ACCOUNT_ENDPOINTS.updateLoggedInUser, async (request) => {
    const user = request.user!;
    await app.users.update(user.id, { language: request.body.user.language });
    const updated = (await app.users.findById(user.id))!;
    return { user: toWireUser(updated) };
  });

  registerEndpoint(app, ACCOUNT_ENDPOINTS.termsConsent, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return termsConsentOf(app, request.user!);
  });

  registerEndpoint(app, ACCOUNT_ENDPOINTS.acceptTerms, async (request) => acceptTerms(app, request.user!, request.body.version));
});
