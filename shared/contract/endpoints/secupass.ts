import { z } from 'zod';
import { UserUuidParamsSchema } from '../user';
import {
  AccessDescriptorResponseSchema,
  ContactPinsResponseSchema,
  OwnSecuPassResponseSchema,
  PutContactPinsBodySchema,
  SecuPassPolicySchema,
  SetSecuPassBodySchema,
  UserPublicKeysResponseSchema,
} from '../secupass';
import { endpointArea, NoContentSchema } from '../endpoint';

const AccessDescriptorParamsSchema = z.object({ id: z.string().min(1).max(100) }).strict();

const secupass = endpointArea({ tag: 'secupass', access: 'authenticated' });

/** SecuPass (the user's key pair, end-to-end levels), public keys, access descriptors, contact pins. */
export const SECUPASS_ENDPOINTS = {
  own: secupass.get('/user/secupass', 'getOwnSecuPass', 'Own SecuPass state, public keys and wrapped blob', {
    response: { 200: OwnSecuPassResponseSchema }, errors: [400, 401, 403],
  }),
  create: secupass.post('/user/secupass', 'createSecuPass', 'Sets the SecuPass (first time or after a reset); 409 while one is active', {
    body: SetSecuPassBodySchema, response: { 201: OwnSecuPassResponseSchema }, errors: [409, 400, 401, 403],
  }),
  update: secupass.put('/user/secupass', 'updateSecuPass', 'Replaces the wrapped blob; the key pairs (public keys) must stay the same', {
    body: SetSecuPassBodySchema, response: { 200: OwnSecuPassResponseSchema }, errors: [404, 400, 401, 403],
  }),
  publicKeys: secupass.get('/users/{userUuid}/public-keys', 'getPublicKeys', "A user's public keys with display fingerprints (empty without SecuPass), then earlier signing keys marked retired: oneself and the people one shares a delivery with; rate limited", {
    params: UserUuidParamsSchema, response: { 200: UserPublicKeysResponseSchema }, errors: [404, 429, 400, 401, 403],
  }),
  policy: secupass.get('/secupass/policy', 'getSecuPassPolicy', 'The SecuPass policy', {
    response: { 200: SecuPassPolicySchema }, errors: [], access: 'public',
  }),
  adminReset: secupass.post('/admin/users/{userUuid}/secupass/reset', 'resetUserSecuPass', "Resets a user's SecuPass: blob removed, keys revoked, every access copy invalidated, audit entry, mail (204)", {
    params: UserUuidParamsSchema, response: { 204: NoContentSchema },
    errors: [404, 400, 401, 403], access: { roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] }, tag: 'admin',
  }),
  accessDescriptor: secupass.get('/user/access-descriptors/{id}', 'getOwnAccessDescriptor', 'A wrapped file-key copy of the signed-in recipient (404 AccessDescriptorNotFoundException when missing or invalidated)', {
    params: AccessDescriptorParamsSchema, response: { 200: AccessDescriptorResponseSchema }, errors: [404, 400, 401, 403],
  }),
  contactPins: secupass.get('/user/contact-pins', 'getContactPins', 'Own contact pin list, sealed by the client (counter 0 and null when none)', {
    response: { 200: ContactPinsResponseSchema }, errors: [400, 401, 403],
  }),
  putContactPins: secupass.put('/user/contact-pins', 'putContactPins', 'Stores the own contact pin list; its counter must be the stored one + 1 (409 otherwise)', {
    body: PutContactPinsBodySchema, response: { 200: ContactPinsResponseSchema }, errors: [404, 409, 400, 401, 403],
  }),
};
