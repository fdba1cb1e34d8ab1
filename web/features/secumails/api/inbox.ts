import { type DeliveryListParams, getDeliveryInbox } from '@shared/api/endpoints/delivery-read';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR from 'swr';

export const INBOX_KEY = 'deliveries/inbox';

/** GET /deliveries/inbox. */
export const fetchInbox = (query: DeliveryListParams) => getDeliveryInbox(apiClient, query);

/** Keyed by the signed-in user and the query; keeps the previous page while the next loads. */
export const useInbox = (query: DeliveryListParams) => {
  const { user } = useAuthState();
  return useSWR(user ? [INBOX_KEY, user.uuid, query] : null, ([, , q]) => fetchInbox(q), { keepPreviousData: true });
};
