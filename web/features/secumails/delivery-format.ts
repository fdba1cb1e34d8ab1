import type { ReviewState, TimeState } from '@shared/contract/deliveries';

/** Fluent badge colour of a SPEC §4 time state. */
export const TIME_STATE_COLOR: Record<TimeState, 'success' | 'warning' | 'danger' | 'informative'> = {
  valid: 'success',
  expiringSoon: 'warning',
  expired: 'danger',
  permanent: 'informative',
};

/** i18n key of a SPEC §4 review state that holds the attachments back (in progress, blocked), or null. */
export const reviewStateKey = (state: ReviewState): string | null =>
  state === 'notReviewed' || state === 'clean' ? null : `deliveries:reviewState.${state}`;

/** i18n key of a SPEC §4 time state. */
export const timeStateKey = (state: TimeState) => `deliveries:timeState.${state}`;

/** Files and attachments can no longer be opened. */
export const isExpired = (state: TimeState) => state === 'expired';

export interface PageRange {
  start: number;
  end: number;
  count: number;
  page: number;
  pageCount: number;
  /** More rows than the server counts (`totalCapped`): "count+" and no page count. */
  capped: boolean;
}

/**
 * Table footer figures (SPEC §2 "start to end of count, page of pageCount"); 1-based, 0 to 0 of 0
 * when empty. `page` is where the cursor walk stands and `shown` the rows on it, so the figures
 * stay true when the list changed since the first page.
 */
export function pageRange(page: number, pageSize: number, shown: number, total: number, capped = false): PageRange {
  if (shown === 0) return { start: 0, end: 0, count: total, page: Math.max(1, page), pageCount: Math.max(1, page), capped };
  const start = (page - 1) * pageSize + 1;
  return { start, end: start + shown - 1, count: total, page, pageCount: Math.max(page, Math.ceil(total / pageSize)), capped };
}

// The size format is shared with the other areas (data rooms): web/lib/format-size.ts.
export { formatSize } from '@web/lib/format-size';

/** Subject of a reply: one "Re: " prefix, never stacked. */
export const replySubject = (subject: string) => (/^re:\s/i.test(subject) ? subject : `Re: ${subject}`);

/** Link to the send page prefilled for a reply (the send page reads `to` and `subject`). */
export function replyLink(sendPath: string, to: string, subject: string): string {
  return `${sendPath}?${new URLSearchParams({ to, subject: replySubject(subject) }).toString()}`;
}

/** The level-1 token from a location hash (`#token=…`); read only, never sent anywhere but the API header/link. */
export function tokenFromHash(hash: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return value || null;
}
