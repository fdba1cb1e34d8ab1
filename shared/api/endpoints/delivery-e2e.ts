import { DELIVERY_ENDPOINTS as E } from '@shared/contract/endpoints/deliveries';
import {
  type E2eResponse,
  type NewDescriptor,
  type PutE2eBody,
  type RecipientKeysResponse,
  type ReleaseList,
} from '@shared/contract/deliveries';
import { call } from '../call';
import type { ApiClient } from '../client';

/*
 * Levels 3/4 calls (table in shared/contract/deliveries.ts). shared/transfer/e2e.ts drives them;
 * screens call `sendDelivery({ e2e })`, `openE2eDelivery` and `releaseToRecipient` instead.
 */

/** GET …/recipient-keys (the draft's sender): recipients' SecuPass state and live public keys. */
export function getRecipientKeys(client: ApiClient, deliveryUuid: string, signal?: AbortSignal): Promise<RecipientKeysResponse> {
  return call(client, E.recipientKeys, { params: { deliveryUuid } }, { signal });
}

/** PUT …/e2e (the draft's sender): the encrypted manifest and every descriptor (204). */
export async function putDeliveryE2e(client: ApiClient, deliveryUuid: string, body: PutE2eBody, signal?: AbortSignal): Promise<void> {
  await call(client, E.putE2e, { params: { deliveryUuid }, body }, { signal });
}

/** GET …/e2e (sender or recipient): the encrypted manifest and the caller's own descriptors; 404 AccessDescriptorNotFoundException without any. */
export function getDeliveryE2e(client: ApiClient, deliveryUuid: string, signal?: AbortSignal): Promise<E2eResponse> {
  return call(client, E.e2e, { params: { deliveryUuid } }, { signal });
}

/** GET /deliveries/release (ROLE_SENDER): recipients waiting for the caller's release. */
export function getReleaseList(client: ApiClient, signal?: AbortSignal): Promise<ReleaseList> {
  return call(client, E.releaseList, {}, { signal });
}

/** POST …/release (the sender): descriptors re-wrapped to one waiting recipient's key (204). */
export async function postRelease(client: ApiClient, deliveryUuid: string, descriptors: NewDescriptor[], signal?: AbortSignal): Promise<void> {
  await call(client, E.release, { params: { deliveryUuid }, body: { descriptors } }, { signal });
}
