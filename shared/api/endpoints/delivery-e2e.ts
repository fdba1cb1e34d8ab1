import {
  DELIVERY_PATHS,
  type E2eResponse,
  type NewDescriptor,
  type PutE2eBody,
  type RecipientKeysResponse,
  type ReleaseList,
} from '@shared/contract/deliveries';
import type { ApiClient } from '../client';

/*
 * Levels 3/4 calls (table in shared/contract/deliveries.ts). shared/transfer/e2e.ts drives them;
 * screens call `sendDelivery({ e2e })`, `openE2eDelivery` and `releaseToRecipient` instead.
 */

/** GET …/recipient-keys (the draft's sender): recipients' SecuPass state and live public keys. */
export function getRecipientKeys(client: ApiClient, deliveryUuid: string, signal?: AbortSignal): Promise<RecipientKeysResponse> {
  return client.get<RecipientKeysResponse>(DELIVERY_PATHS.recipientKeys(deliveryUuid), { signal });
}

/** PUT …/e2e (the draft's sender): the encrypted manifest and every descriptor (204). */
export async function putDeliveryE2e(client: ApiClient, deliveryUuid: string, body: PutE2eBody, signal?: AbortSignal): Promise<void> {
  await client.request('PUT', DELIVERY_PATHS.e2e(deliveryUuid), { body, signal });
}

/** GET …/e2e (sender or recipient): the encrypted manifest and the caller's own descriptors; 404 AccessDescriptorNotFoundException without any. */
export function getDeliveryE2e(client: ApiClient, deliveryUuid: string, signal?: AbortSignal): Promise<E2eResponse> {
  return client.get<E2eResponse>(DELIVERY_PATHS.e2e(deliveryUuid), { signal });
}

/** GET /deliveries/release (ROLE_SENDER): recipients waiting for the caller's release. */
export function getReleaseList(client: ApiClient, signal?: AbortSignal): Promise<ReleaseList> {
  return client.get<ReleaseList>(DELIVERY_PATHS.releaseList, { signal });
}

/** POST …/release (the sender): descriptors re-wrapped to one waiting recipient's key (204). */
export async function postRelease(client: ApiClient, deliveryUuid: string, descriptors: NewDescriptor[], signal?: AbortSignal): Promise<void> {
  await client.request('POST', DELIVERY_PATHS.release(deliveryUuid), { body: { descriptors }, signal });
}
