import { type DeliveryListParams, getDeliverySent } from '@shared/api/endpoints/delivery-read';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR from 'swr';

export const SENT_KEY = 'deliveries/sent';

/** GET /deliveries/sent. */
export const fetchSent = (query: DeliveryListParams) => getDeliverySent(apiClient, query);

/** Keyed by the signed-in user and the query; keeps the previous page while the next loads. */
export const useSent = (query: DeliveryListParams) => {
  const { user } = useAuthState();
  return useSWR(user ? [SENT_KEY, user.uuid, query] : null, ([, , q]) => fetchSent(q), { keepPreviousData: true });
};
