import { DELIVERY_ENDPOINTS as E } from '@shared/contract/endpoints/deliveries';
import { API_BASE } from '@shared/contract/constants';
import {
  DELIVERY_PATHS,
  DELIVERY_TOKEN_HEADER,
  type ActivityEntry,
  type DeliveryDetail,
  type DeliveryPage,
} from '@shared/contract/deliveries';
import { call } from '../call';
import type { ApiClient } from '../client';

/**
 * Read side of deliveries (levels 1/2): lists, one delivery, delete, resend, activity and the
 * content URL. Sending lives in delivery-send.ts (upload engine).
 */

/** Query of the inbox and sent lists (see DeliveryListQuerySchema; defaults page 1, 25 a page, all). */
export interface DeliveryListParams {
  /** Echoed when `cursor` is given; without one, the page to skip to (cheap for the first pages only). */
  page?: number;
  pageSize?: number;
  /** A previous answer's `nextCursor`: the page right after that answer's last row. */
  cursor?: string;
  q?: string;
  filter?: 'all' | 'notDownloaded';
}

const listQuery = (query: DeliveryListParams) => ({
  page: query.page,
  pageSize: query.pageSize,
  cursor: query.cursor,
  q: query.q?.trim() || undefined,
  filter: query.filter && query.filter !== 'all' ? query.filter : undefined,
});

/** GET /deliveries/inbox (signed in): deliveries to the caller, newest first. */
export function getDeliveryInbox(client: ApiClient, query: DeliveryListParams = {}): Promise<DeliveryPage> {
  return call(client, E.inbox, { query: listQuery(query) });
}

/** GET /deliveries/sent (signed in): the caller's sent deliveries, newest first. */
export function getDeliverySent(client: ApiClient, query: DeliveryListParams = {}): Promise<DeliveryPage> {
  return call(client, E.sent, { query: listQuery(query) });
}

/** GET /deliveries/{uuid}: the sender, a recipient, or (level 1) the holder of a token, sent as a header (never in the URL). */
export function getDelivery(client: ApiClient, deliveryUuid: string, token?: string | null): Promise<DeliveryDetail> {
  return call(client, E.one, { params: { deliveryUuid } }, token ? { headers: { [DELIVERY_TOKEN_HEADER]: token } } : {});
}

/** DELETE /deliveries/{uuid}: the sender deletes for everyone, a recipient removes it from their inbox (204). */
export async function deleteDelivery(client: ApiClient, deliveryUuid: string): Promise<void> {
  await call(client, E.remove, { params: { deliveryUuid } });
}

/** POST /deliveries/{uuid}/resend-notification (the sender): all recipients, or the one share named. */
export function resendDeliveryNotification(client: ApiClient, deliveryUuid: string, shareUuid?: string): Promise<{ notified: string[] }> {
  return call(client, E.resend, { params: { deliveryUuid }, body: shareUuid ? { shareUuid } : {} });
}

/** GET /deliveries/{uuid}/activity (signed in): activity log, oldest first. */
export async function getDeliveryActivity(client: ApiClient, deliveryUuid: string): Promise<ActivityEntry[]> {
  return (await call(client, E.activity, { params: { deliveryUuid } })).entries;
}

/**
 * URL of a file's bytes (same origin unless `backendUrl` is given). Level 1 carries the token as
 * the `token` query parameter, so a plain link can download it (the server answers
 * `Content-Disposition: attachment`).
 */
export function deliveryContentUrl(deliveryUuid: string, fileId: string, token?: string | null, backendUrl = ''): string {
  const base = `${backendUrl}${API_BASE}${DELIVERY_PATHS.content(deliveryUuid, fileId)}`;
  return token ? `${base}?token=${encodeURIComponent(token)}` : base;
}
