import { z } from 'zod';
import { ADDIN_SESSION_EXCHANGE_PATH, LoginQuerySchema, LoginResponseSchema } from '../auth';
import { ConfigProfileResponseSchema, DeliverySendConfigSchema } from '../config';
import { defineEndpoint } from '../endpoint';
import { CurrentUserResponseSchema, UpdateLoggedInUserBodySchema } from '../user';

/** Sign-in, the signed-in user and the configuration calls of SPEC §7 (and the OpenAPI document). */
export const ACCOUNT_ENDPOINTS = {
  signIn: defineEndpoint({
    method: 'POST',
    path: '/auth',
    query: LoginQuerySchema,
    response: { 200: LoginResponseSchema },
    errors: [400, 401, 403, 429],
    access: 'public',
    basicCredentials: true,
    operationId: 'signIn',
    summary: 'Sign in with Basic credentials; escalations answer 401/403 with the authorization-errors header; throttled tries 429 with Retry-After',
    tag: 'auth',
  }),
  addinSessionExchange: defineEndpoint({
    method: 'POST',
    path: ADDIN_SESSION_EXCHANGE_PATH,
    response: { 200: z.object({ sessionToken: z.string() }) },
    errors: [401, 403],
    access: { roles: ['ROLE_OUTLOOK'] },
    operationId: 'exchangeAddinSession',
    summary: "Trades the signed-in web session for an Outlook add-in bearer token (the add-in's web sign-in dialog)",
    tag: 'auth',
  }),
  currentUser: defineEndpoint({
    method: 'GET',
    path: '/user',
    response: { 200: CurrentUserResponseSchema },
    errors: [401],
    access: 'authenticated',
    operationId: 'getCurrentUser',
    summary: 'The signed-in user (401 when signed out)',
    tag: 'user',
  }),
  updateLoggedInUser: defineEndpoint({
    method: 'POST',
    path: '/user/updateLoggedInUser',
    body: UpdateLoggedInUserBodySchema,
    response: { 200: CurrentUserResponseSchema },
    errors: [400, 401, 403],
    access: 'authenticated',
    operationId: 'updateLoggedInUser',
    summary: "Persists the signed-in user's interface language",
    tag: 'user',
  }),
  configProfile: defineEndpoint({
    method: 'GET',
    path: '/config/profile',
    response: { 200: ConfigProfileResponseSchema },
    errors: [],
    access: 'public',
    operationId: 'getConfigProfile',
    summary: 'The public configuration profile (every ftapi.* key)',
    tag: 'config',
  }),
  sendConfig: defineEndpoint({
    method: 'GET',
    path: '/delivery/send/config',
    response: { 200: DeliverySendConfigSchema },
    errors: [401],
    access: 'authenticated',
    operationId: 'getDeliverySendConfig',
    summary: 'Allowed security levels and delivery cleanup bounds (milliseconds)',
    tag: 'config',
  }),
  openApi: defineEndpoint({
    method: 'GET',
    path: '/openapi.json',
    response: {},
    errors: [],
    access: 'public',
    produces: ['application/json'],
    hidden: true,
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    tag: 'meta',
  }),
};
