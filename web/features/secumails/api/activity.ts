import { getDeliveryActivity } from '@shared/api/endpoints/delivery-read';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR from 'swr';

export const ACTIVITY_KEY = 'deliveries/activity';

/** GET /deliveries/{uuid}/activity (signed in). */
export const fetchActivity = (deliveryUuid: string) => getDeliveryActivity(apiClient, deliveryUuid);

export const useActivity = (deliveryUuid: string | undefined) => {
  const { user } = useAuthState();
  return useSWR(deliveryUuid && user ? [ACTIVITY_KEY, deliveryUuid, user.uuid] : null, ([, uuid]) => fetchActivity(uuid), { shouldRetryOnError: false });
};
