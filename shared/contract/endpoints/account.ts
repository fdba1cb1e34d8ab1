import { z } from 'zod';
import { ADDIN_SESSION_EXCHANGE_PATH, LoginQuerySchema, LoginResponseSchema } from '../auth';
import { ConfigProfileResponseSchema, DeliverySendConfigSchema } from '../config';
import { endpointArea } from '../endpoint';
import { SignupBodySchema, SignupInfoSchema, SignupResponseSchema } from '../signup';
import { AcceptTermsBodySchema, TermsConsentSchema } from '../terms';
import { CurrentUserResponseSchema, UpdateLoggedInUserBodySchema } from '../user';

const account = endpointArea({ tag: 'auth', access: 'public' });

/** Sign-in, self-registration (server/user-admin/signup-routes.ts), the signed-in user and the configuration calls of SPEC §7 (and the OpenAPI document). */
export const ACCOUNT_ENDPOINTS = {
  signIn: account.post('/auth', 'signIn', 'Sign in with Basic credentials; escalations answer 401/403 with the authorization-errors header; throttled tries 429 with Retry-After', {
    query: LoginQuerySchema, response: { 200: LoginResponseSchema }, errors: [400, 401, 403, 429], basicCredentials: true,
  }),
  addinSessionExchange: account.post(ADDIN_SESSION_EXCHANGE_PATH, 'exchangeAddinSession', "Trades the signed-in web session for an Outlook add-in bearer token (the add-in's web sign-in dialog)", {
    response: { 200: z.object({ sessionToken: z.string() }) }, errors: [401, 403], access: { roles: ['ROLE_OUTLOOK'] }, webSessionOnly: true,
  }),
  currentUser: account.get('/user', 'getCurrentUser', 'The signed-in user (401 when signed out)', {
    response: { 200: CurrentUserResponseSchema }, errors: [401], access: 'authenticated', tag: 'user',
  }),
  updateLoggedInUser: account.post('/user/updateLoggedInUser', 'updateLoggedInUser', "Persists the signed-in user's interface language", {
    body: UpdateLoggedInUserBodySchema, response: { 200: CurrentUserResponseSchema }, errors: [400, 401, 403], access: 'authenticated', tag: 'user',
  }),
  termsConsent: account.get('/user/terms', 'getTermsConsent', 'The terms of use in force (0: none asked), the version the signed-in user agreed to and when, and whether to ask now', {
    response: { 200: TermsConsentSchema }, errors: [401], access: 'authenticated', tag: 'user',
  }),
  acceptTerms: account.post('/user/terms', 'acceptTerms', 'Records that the signed-in user agreed to the terms of this version (stored with the time, audit-logged); 409 when another version is in force', {
    body: AcceptTermsBodySchema, response: { 200: TermsConsentSchema }, errors: [400, 401, 403, 409], access: 'authenticated', tag: 'user',
  }),
  configProfile: account.get('/config/profile', 'getConfigProfile', 'The public configuration profile (every ftapi.* key)', {
    response: { 200: ConfigProfileResponseSchema }, errors: [], tag: 'config',
  }),
  sendConfig: account.get('/delivery/send/config', 'getDeliverySendConfig', 'Allowed security levels and delivery cleanup bounds (milliseconds)', {
    response: { 200: DeliverySendConfigSchema }, errors: [401], access: 'authenticated', tag: 'config',
  }),
  openApi: account.get('/openapi.json', 'getOpenApiDocument', 'This OpenAPI document', {
    response: {}, errors: [], produces: ['application/json'], hidden: true, tag: 'meta',
  }),
  signupInfo: account.get('/auth/signup', 'getSignupInfo', 'Whether self-registration is enabled', {
    response: { 200: SignupInfoSchema }, errors: [],
  }),
  signUp: account.post('/auth/signup', 'signUp', 'Registers an account (when enabled); the same answer whether or not the address is taken (202)', {
    body: SignupBodySchema, response: { 202: SignupResponseSchema }, errors: [400, 403, 429],
  }),
};
