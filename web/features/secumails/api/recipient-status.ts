import { getRecipientStatus } from '@shared/api/endpoints/delivery-send';
import { MAX_RECIPIENT_STATUS_EMAILS, type RecipientStatus } from '@shared/contract/deliveries';
import { isValidEmail } from '@shared/deliveries';
import { apiClient } from '@web/lib/api-client';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { useMemo } from 'react';
import useSWR from 'swr';

export const RECIPIENT_STATUS_KEY = 'deliveries/recipient-status';
/** Chips settle for this long before one look-up (the server rate-limits them per sender). */
const RECIPIENT_STATUS_DEBOUNCE_MS = 400;

/**
 * Registered / has a passphrase for the chips' warnings (SPEC §5), by lower-cased address. Only
 * valid addresses are asked (the first 50); while a look-up runs, or when it fails (e.g. rate
 * limited), the previous answer or nothing is shown — the warnings are hints, the server decides at send.
 */
export function useRecipientStatus(addresses: readonly string[], options: { withKeys?: boolean } = {}): ReadonlyMap<string, RecipientStatus> {
  const wanted = [...new Set(addresses.filter(isValidEmail).map((a) => a.toLowerCase()))].sort().slice(0, MAX_RECIPIENT_STATUS_EMAILS).join('\n');
  const settled = useDebouncedValue(wanted, RECIPIENT_STATUS_DEBOUNCE_MS, (value) => value === '');
  // Levels 3/4 also ask for the keys (the chips' verified badges); the same addresses cost nothing more.
  const withKeys = options.withKeys === true;
  const { data } = useSWR(settled ? [RECIPIENT_STATUS_KEY, settled, withKeys] : null, () => getRecipientStatus(apiClient, settled.split('\n'), undefined, { withKeys }), {
    revalidateOnFocus: false,
    revalidateIfStale: false,
    shouldRetryOnError: false,
    keepPreviousData: true,
  });
  return useMemo(() => new Map((data?.recipients ?? []).map((r) => [r.email.toLowerCase(), r])), [data]);
}

/**
 * The statuses of `addresses` now: what the chips already know, the rest asked at once. A send
 * must not race the chips' debounce (a quick click would skip the phone-number question). When the
 * look-up fails (e.g. rate limited) the known part is returned: the server decides at send, and a
 * recipient left without a number shows up in Sent.
 */
export async function recipientStatusNow(addresses: readonly string[], known: ReadonlyMap<string, RecipientStatus>): Promise<ReadonlyMap<string, RecipientStatus>> {
  const missing = [...new Set(addresses.filter(isValidEmail).map((a) => a.toLowerCase()))].filter((a) => !known.has(a)).slice(0, MAX_RECIPIENT_STATUS_EMAILS);
  if (missing.length === 0) return known;
  try {
    const answer = await getRecipientStatus(apiClient, missing);
    return new Map([...known, ...answer.recipients.map((r) => [r.email.toLowerCase(), r] as const)]);
  } catch {
    return known;
  }
}
