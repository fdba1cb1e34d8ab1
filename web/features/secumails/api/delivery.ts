import { getDelivery } from '@shared/api/endpoints/delivery-read';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR from 'swr';

export const DELIVERY_KEY = 'deliveries/one';
/** A scan takes seconds to minutes; every 5 s is quick enough to notice and cheap for the server. */
const REVIEW_POLL_MS = 5000;
/**
 * The sender's Sent detail follows the recipients (downloaded or not) while it is open and
 * visible: a look every 30 s and one on coming back to the tab. SWR pauses while the tab is hidden.
 */
const WATCH_POLL_MS = 30_000;

/** GET /deliveries/{uuid}; the level-1 token travels in the x-delivery-token header. */
export const fetchDelivery = (deliveryUuid: string, token?: string | null) => getDelivery(apiClient, deliveryUuid, token);

/**
 * Keyed by viewer (user or token) so a sign-in never shows another viewer's copy; no retry on 4xx.
 * `watch`: the view follows changes others make (the sender's Sent detail).
 */
export const useDelivery = (deliveryUuid: string | undefined, token?: string | null, { watch = false }: { watch?: boolean } = {}) => {
  const { user } = useAuthState();
  return useSWR(deliveryUuid ? [DELIVERY_KEY, deliveryUuid, user?.uuid ?? null, token ?? null] : null, ([, uuid, , tk]) => fetchDelivery(uuid, tk), {
    revalidateOnFocus: watch,
    shouldRetryOnError: false,
    // While the virus scan runs, look again now and then: the buttons unlock when it is clean.
    refreshInterval: (latest) => (latest?.reviewState === 'inProgress' ? REVIEW_POLL_MS : watch && latest?.status === 'sent' ? WATCH_POLL_MS : 0),
  });
};
