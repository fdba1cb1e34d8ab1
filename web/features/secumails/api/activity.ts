import { getDeliveryActivity } from '@shared/api/endpoints/delivery-read';
import type { ActivityEntry } from '@shared/contract/deliveries';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { useCallback, useEffect, useRef, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { DELIVERY_KEY } from './delivery';
import { INBOX_KEY } from './inbox';
import { SENT_KEY } from './sent';

export const ACTIVITY_KEY = 'deliveries/activity';

/**
 * While a download runs the server records it only at its end (a complete download, SPEC §4):
 * the open view looks again every 2 s until the new "Downloaded" entry is there, at most this
 * many times (10 minutes: a large file over a slow line).
 */
const DOWNLOAD_POLL_MS = 2000;
const DOWNLOAD_POLL_LIMIT = 300;

const downloads = (entries: readonly ActivityEntry[] | undefined) => entries?.filter((entry) => entry.kind === 'downloaded').length ?? 0;

/** GET /deliveries/{uuid}/activity (signed in). */
export const fetchActivity = (deliveryUuid: string) => getDeliveryActivity(apiClient, deliveryUuid);

/**
 * The activity log of one delivery. `downloadStarted()` (call it when a download of this view
 * starts) refreshes the log until the server recorded the download, then the view's delivery
 * (per-recipient "Downloaded") and the lists ("Downloaded" column) too.
 */
export const useActivity = (deliveryUuid: string | undefined) => {
  const { user } = useAuthState();
  const { mutate } = useSWRConfig();
  // The number of "Downloaded" entries before the download; null while none is awaited.
  const [awaited, setAwaited] = useState<number | null>(null);
  const polls = useRef(0);
  const result = useSWR(deliveryUuid && user ? [ACTIVITY_KEY, deliveryUuid, user.uuid] : null, ([, uuid]) => fetchActivity(uuid), {
    shouldRetryOnError: false,
    refreshInterval: (latest) => (awaited !== null && downloads(latest) <= awaited && polls.current < DOWNLOAD_POLL_LIMIT ? DOWNLOAD_POLL_MS : 0),
    onSuccess: () => {
      if (awaited !== null) polls.current += 1;
    },
  });
  const recorded = awaited !== null && downloads(result.data) > awaited;
  useEffect(() => {
    if (!recorded) return;
    setAwaited(null);
    void mutate((key) => Array.isArray(key) && (key[0] === DELIVERY_KEY || key[0] === INBOX_KEY || key[0] === SENT_KEY));
  }, [recorded, mutate]);
  const latest = useRef(result.data);
  latest.current = result.data;
  const refresh = result.mutate;
  const downloadStarted = useCallback(() => {
    polls.current = 0;
    setAwaited((current) => current ?? downloads(latest.current));
    // At once as well: an E2E download reports when the server has already recorded it.
    void refresh();
  }, [refresh]);
  return { data: result.data, downloadStarted };
};
