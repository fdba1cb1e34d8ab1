import { API_BASE } from '@shared/contract/constants';
import { DeliveryParamsSchema } from '@shared/contract/deliveries';
import { BackendErrorSchema } from '@shared/contract/errors';
import {
  EmailCheckBodySchema,
  EmailCheckResponseSchema,
  LinkCheckBodySchema,
  LinkCheckResponseSchema,
  EXTERNAL_PATHS as PATHS,
  PhoneNumbersBodySchema,
  PhoneNumbersResponseSchema,
  ShareParamsSchema,
  SignupBodySchema,
  SignupResponseSchema,
  SmsCodeBodySchema,
  SmsCodeResponseSchema,
} from '@shared/contract/external';
import { routePlugin } from '../core/route-plugin';
import { issueShareProof } from '../deliveries/share-proof';
import { checkEmail, checkLink, sendSmsCode, setPhoneNumbers, signUp } from './external-service';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, BackendErrorSchema]));

/**
 * The external recipient's calls (contract `shared/contract/external.ts`). The share calls are
 * public: the mailed link (share + token) and the recipient's address are the credentials, and
 * every try counts against the per-share and per-IP limits.
 */
export const externalRoutes = routePlugin('kuvert-external-routes', async (app) => {
  app.post(
    `${API_BASE}${PATHS.linkCheckRoute}`,
    {
      config: { access: 'public' },
      schema: {
        summary: "Link check: before the email prompt asks anything, whether the mailed link still opens a delivery",
        tags: ['external'],
        params: ShareParamsSchema,
        body: LinkCheckBodySchema,
        response: { 200: LinkCheckResponseSchema, ...errors(400, 404, 429) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return checkLink(app, { token: request.body.token, shareUuid: request.params.shareUuid, ip: request.ip });
    },
  );

  app.post(
    `${API_BASE}${PATHS.emailCheckRoute}`,
    {
      config: { access: 'public' },
      schema: {
        summary: 'Email prompt: the link holder confirms the address the delivery was sent to',
        tags: ['external'],
        params: ShareParamsSchema,
        body: EmailCheckBodySchema,
        response: { 200: EmailCheckResponseSchema, ...errors(400, 404, 429) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { proofFor, ...answer } = await checkEmail(app, { ...request.body, language: request.body.language, shareUuid: request.params.shareUuid, ip: request.ip });
      if (proofFor) await issueShareProof(request, reply, proofFor);
      return answer;
    },
  );

  app.post(
    `${API_BASE}${PATHS.smsCodeRoute}`,
    {
      config: { access: 'public' },
      schema: {
        summary: 'Sends the SMS code of a double-authenticated delivery signup (cool-down between sends)',
        tags: ['external'],
        params: ShareParamsSchema,
        body: SmsCodeBodySchema,
        response: { 200: SmsCodeResponseSchema, ...errors(400, 404, 409, 429, 503) },
      },
    },
    async (request) => sendSmsCode(app, { ...request.body, shareUuid: request.params.shareUuid, ip: request.ip }, request.log),
  );

  app.post(
    `${API_BASE}${PATHS.signupRoute}`,
    {
      config: { access: 'public' },
      schema: {
        summary: "Delivery signup: creates the recipient's account (address verified by the link)",
        tags: ['external'],
        params: ShareParamsSchema,
        body: SignupBodySchema,
        response: { 201: SignupResponseSchema, ...errors(400, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const created = await signUp(app, { ...request.body, shareUuid: request.params.shareUuid, ip: request.ip });
      void reply.code(201);
      return created;
    },
  );

  app.put(
    `${API_BASE}${PATHS.phoneNumbersRoute}`,
    {
      config: { access: { roles: ['ROLE_SENDER'] } },
      schema: {
        summary: "Recipients' phone numbers for the SMS second factor (the delivery's sender)",
        tags: ['external'],
        params: DeliveryParamsSchema,
        body: PhoneNumbersBodySchema,
        response: { 200: PhoneNumbersResponseSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => setPhoneNumbers(app, request.user!, request.params.deliveryUuid, request.body.phoneNumbers),
  );
});
