import { EXTERNAL_ENDPOINTS } from '@shared/contract/endpoints/external';
import { AUTHORIZATION_ERROR } from '@shared/contract/errors';
import { authorizationErrorHeader } from '../core/authorization-errors';
import { registerEndpoint } from '../core/endpoint-route';
import { routePlugin } from '../core/route-plugin';
import { issueShareProof } from '../deliveries/share-proof';
import { checkEmail, checkLink, sendSmsCode, setPhoneNumbers, signUp } from './external-service';


/**
 * The external recipient's calls (contract `shared/contract/external.ts`). The share calls are
 * public: the mailed link (share + token) and the recipient's address are the credentials, and
 * every try counts against the per-share and per-IP limits.
 */
export const externalRoutes = routePlugin('kuvert-external-routes', async (app) => {
  registerEndpoint(app, EXTERNAL_ENDPOINTS.linkCheck, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return checkLink(app, { token: request.body.token, shareUuid: request.params.shareUuid, ip: request.ip });
  });

  registerEndpoint(app, EXTERNAL_ENDPOINTS.emailCheck, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const { proofFor, ...answer } = await checkEmail(app, { ...request.body, language: request.body.language, shareUuid: request.params.shareUuid, ip: request.ip });
    if (proofFor) await issueShareProof(request, reply, proofFor);
    // SPEC §8 code 5: the recipient needs an account before this delivery opens (the answer's `next`).
    if (answer.next === 'signup') void reply.headers(authorizationErrorHeader(AUTHORIZATION_ERROR.DELIVERY_REGISTRATION_REQUIRED));
    return answer;
  });

  registerEndpoint(app, EXTERNAL_ENDPOINTS.smsCode, async (request) => sendSmsCode(app, { ...request.body, shareUuid: request.params.shareUuid, ip: request.ip }, request.log));

  registerEndpoint(app, EXTERNAL_ENDPOINTS.signup, async (request, reply) => {
    const created = await signUp(app, { ...request.body, shareUuid: request.params.shareUuid, ip: request.ip });
    void reply.code(201);
    return created;
  });

  registerEndpoint(app, EXTERNAL_ENDPOINTS.phoneNumbers, async (request) => setPhoneNumbers(app, request.user!, request.params.deliveryUuid, request.body.phoneNumbers));
});
