import { ADMIN_ENDPOINTS } from '@shared/contract/endpoints/admin';
import { SECUPASS_ENDPOINTS as E } from '@shared/contract/endpoints/secupass';
import type { ListUsersResponse } from '@shared/contract/admin-users';
import type { AuditLogResponse } from '@shared/contract/audit';
import {
  type ContactPinsResponse,
  type SealedContactPinsWire,
  type AccessDescriptorResponse,
  type OwnSecuPassResponse,
  type SecuPassPolicy,
  type SetSecuPassBody,
  type UserPublicKeysResponse,
} from '@shared/contract/secupass';
import { call } from '../call';
import type { ApiClient } from '../client';

/** GET /user/secupass (signed in): own state, public keys and wrapped blob. */
export async function getOwnSecuPass(client: ApiClient): Promise<OwnSecuPassResponse> {
  return call(client, E.own, {});
}

/** POST /user/secupass (signed in): first set, or a new one after a reset; 409 ConflictException when one is active. */
export async function postSecuPass(client: ApiClient, body: SetSecuPassBody): Promise<OwnSecuPassResponse> {
  return call(client, E.create, { body });
}

/** PUT /user/secupass (signed in): replaces the blob; the public keys must equal the stored ones. */
export async function putSecuPass(client: ApiClient, body: SetSecuPassBody): Promise<OwnSecuPassResponse> {
  return call(client, E.update, { body });
}

/** GET /users/{userUuid}/public-keys (signed in): another user's public keys with display fingerprints. */
export async function getUserPublicKeys(client: ApiClient, userUuid: string): Promise<UserPublicKeysResponse> {
  return call(client, E.publicKeys, { params: { userUuid } });
}

/** GET /secupass/policy (public): the passphrase policy. */
export async function getSecuPassPolicy(client: ApiClient): Promise<SecuPassPolicy> {
  return call(client, E.policy, {});
}

/** POST /admin/users/{userUuid}/secupass/reset (ROLE_ADMIN, ROLE_USER_ADMIN): 204. */
export async function postAdminSecuPassReset(client: ApiClient, userUuid: string): Promise<void> {
  await call(client, E.adminReset, { params: { userUuid } });
}

/** GET /admin/users (ROLE_ADMIN, ROLE_USER_ADMIN): users by email, `q` searches, paged. */
export async function getAdminUsers(client: ApiClient, query: { q?: string; page?: number; pageSize?: number } = {}): Promise<ListUsersResponse> {
  return call(client, ADMIN_ENDPOINTS.users, { query: { q: query.q || undefined, page: query.page, pageSize: query.pageSize } });
}

/** GET /user/access-descriptors/{id} (signed in, the recipient): a wrapped file-key copy; 404 AccessDescriptorNotFoundException after a reset. */
export async function getOwnAccessDescriptor(client: ApiClient, id: string): Promise<AccessDescriptorResponse> {
  return call(client, E.accessDescriptor, { params: { id } });
}

/** GET /admin/audit-log (ROLE_ADMIN): newest first, paged; filters action, user (part of an address), from/to (epoch ms). */
export async function getAdminAuditLog(
  client: ApiClient,
  query: { action?: string; user?: string; from?: number | undefined; to?: number | undefined; page?: number; pageSize?: number } = {},
): Promise<AuditLogResponse> {
  return call(client, ADMIN_ENDPOINTS.auditLog, {
    query: { action: query.action || undefined, user: query.user || undefined, from: query.from, to: query.to, page: query.page, pageSize: query.pageSize },
  });
}

/** GET /user/contact-pins (signed in): the own sealed contact pin list. */
export async function getContactPins(client: ApiClient): Promise<ContactPinsResponse> {
  return call(client, E.contactPins, {});
}

/** PUT /user/contact-pins (signed in): stores the list; 409 ConflictException unless its counter is the stored one + 1. */
export async function putContactPins(client: ApiClient, envelope: SealedContactPinsWire): Promise<ContactPinsResponse> {
  return call(client, E.putContactPins, { body: { envelope } });
}
