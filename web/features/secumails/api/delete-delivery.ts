import { deleteDelivery } from '@shared/api/endpoints/delivery-read';
import { apiClient } from '@web/lib/api-client';
import { mutate } from 'swr';
import { DELIVERY_KEY } from './delivery';
import { INBOX_KEY } from './inbox';
import { SENT_KEY } from './sent';

const DELIVERY_KEYS: readonly string[] = [INBOX_KEY, SENT_KEY, DELIVERY_KEY];

/** DELETE /deliveries/{uuid}. The caches stay until `forgetDeliveries`: dropping them unmounts the open view (and its dialog). */
export async function removeDelivery(deliveryUuid: string): Promise<void> {
  await deleteDelivery(apiClient, deliveryUuid);
}

/** After a delete, every cached list and view is stale. */
export async function forgetDeliveries(): Promise<void> {
  await mutate((key) => Array.isArray(key) && DELIVERY_KEYS.includes(key[0] as string), undefined, { revalidate: true });
}
