import { ADMIN_USERS_PATHS, type ListUsersResponse } from '@shared/contract/admin-users';
import { AUDIT_PATHS, type AuditLogResponse } from '@shared/contract/audit';
import {
  ACCESS_DESCRIPTOR_PATHS,
  CONTACT_PINS_PATHS,
  type ContactPinsResponse,
  type SealedContactPinsWire,
  SECUPASS_PATHS,
  type AccessDescriptorResponse,
  type OwnSecuPassResponse,
  type SecuPassPolicy,
  type SetSecuPassBody,
  type UserPublicKeysResponse,
} from '@shared/contract/secupass';
import type { ApiClient } from '../client';

/** GET /user/secupass (signed in): own state, public keys and wrapped blob. */
export async function getOwnSecuPass(client: ApiClient): Promise<OwnSecuPassResponse> {
  return client.get<OwnSecuPassResponse>(SECUPASS_PATHS.own);
}

/** POST /user/secupass (signed in): first set, or a new one after a reset; 409 ConflictException when one is active. */
export async function postSecuPass(client: ApiClient, body: SetSecuPassBody): Promise<OwnSecuPassResponse> {
  return client.post<OwnSecuPassResponse>(SECUPASS_PATHS.own, body);
}

/** PUT /user/secupass (signed in): replaces the blob; the public keys must equal the stored ones. */
export async function putSecuPass(client: ApiClient, body: SetSecuPassBody): Promise<OwnSecuPassResponse> {
  return (await client.request<OwnSecuPassResponse>('PUT', SECUPASS_PATHS.own, { body })).data;
}

/** GET /users/{userUuid}/public-keys (signed in): another user's public keys with display fingerprints. */
export async function getUserPublicKeys(client: ApiClient, userUuid: string): Promise<UserPublicKeysResponse> {
  return client.get<UserPublicKeysResponse>(SECUPASS_PATHS.publicKeysOf(userUuid));
}

/** GET /secupass/policy (public): the passphrase policy. */
export async function getSecuPassPolicy(client: ApiClient): Promise<SecuPassPolicy> {
  return client.get<SecuPassPolicy>(SECUPASS_PATHS.policy);
}

/** POST /admin/users/{userUuid}/secupass/reset (ROLE_ADMIN, ROLE_USER_ADMIN): 204. */
export async function postAdminSecuPassReset(client: ApiClient, userUuid: string): Promise<void> {
  await client.post(SECUPASS_PATHS.adminReset(userUuid));
}

/** GET /admin/users (ROLE_ADMIN, ROLE_USER_ADMIN): users by email, `q` searches, paged. */
export async function getAdminUsers(client: ApiClient, query: { q?: string; page?: number; pageSize?: number } = {}): Promise<ListUsersResponse> {
  return client.get<ListUsersResponse>(ADMIN_USERS_PATHS.list, { query: { q: query.q || undefined, page: query.page, pageSize: query.pageSize } });
}

/** GET /user/access-descriptors/{id} (signed in, the recipient): a wrapped file-key copy; 404 AccessDescriptorNotFoundException after a reset. */
export async function getOwnAccessDescriptor(client: ApiClient, id: string): Promise<AccessDescriptorResponse> {
  return client.get<AccessDescriptorResponse>(ACCESS_DESCRIPTOR_PATHS.own(id));
}

/** GET /admin/audit-log (ROLE_ADMIN): newest first, paged. */
export async function getAdminAuditLog(client: ApiClient, query: { action?: string; page?: number; pageSize?: number } = {}): Promise<AuditLogResponse> {
  return client.get<AuditLogResponse>(AUDIT_PATHS.adminLog, { query: { action: query.action, page: query.page, pageSize: query.pageSize } });
}

/** GET /user/contact-pins (signed in): the own sealed contact pin list. */
export async function getContactPins(client: ApiClient): Promise<ContactPinsResponse> {
  return client.get<ContactPinsResponse>(CONTACT_PINS_PATHS.own);
}

/** PUT /user/contact-pins (signed in): stores the list; 409 ConflictException unless its counter is the stored one + 1. */
export async function putContactPins(client: ApiClient, envelope: SealedContactPinsWire): Promise<ContactPinsResponse> {
  return (await client.request<ContactPinsResponse>('PUT', CONTACT_PINS_PATHS.own, { body: { envelope } })).data;
}
