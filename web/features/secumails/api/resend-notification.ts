import { resendDeliveryNotification } from '@shared/api/endpoints/delivery-read';
import { apiClient } from '@web/lib/api-client';
import { mutate } from 'swr';
import { ACTIVITY_KEY } from './activity';

/** POST /deliveries/{uuid}/resend-notification, then the activity log is stale. */
export async function resendNotification(deliveryUuid: string): Promise<string[]> {
  const { notified } = await resendDeliveryNotification(apiClient, deliveryUuid);
  await mutate((key) => Array.isArray(key) && key[0] === ACTIVITY_KEY && key[1] === deliveryUuid);
  return notified;
}
