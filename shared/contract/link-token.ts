import { z } from 'zod';

/**
 * One-time link tokens of the public calls (issue 28 §1): the room link's, the room request's and
 * the submit ticket's token travel in a request header, never in a URL path or query, so no proxy
 * log, no browser history and no Referer keeps them. The pages the mails open hold the token in the
 * fragment (`#token=…` / `#dar=…` / `#ticket=…`), which the browser never sends to a server.
 */

/** The token of a public link to a room file (GET /room-links/by-token…). */
export const ROOM_LINK_TOKEN_HEADER = 'x-room-link-token';
/** The token of a data-room request (…/room-requests/by-token…). */
export const ROOM_REQUEST_TOKEN_HEADER = 'x-room-request-token';
/** The single-use ticket of a submit box (…/submit-tickets/by-token…). */
export const SUBMIT_TICKET_HEADER = 'x-submit-ticket';
/** Every header that carries a one-time token: the server's log redacts them (server/core/log-redaction.ts). */
export const ONE_TIME_TOKEN_HEADERS = [ROOM_LINK_TOKEN_HEADER, ROOM_REQUEST_TOKEN_HEADER, SUBMIT_TICKET_HEADER] as const;

/** 32 random bytes, base64url (43 characters); the bounds only refuse what cannot be one. */
export const LinkTokenSchema = z.string().min(20).max(100).regex(/^[A-Za-z0-9_-]+$/);

/**
 * The headers schema of a token call: the token header required, every other header kept (the
 * validator's output replaces the request's headers, so a strict or stripping object would drop
 * the cookie and the rest).
 */
export const tokenHeadersSchema = <const N extends string>(name: N) => z.looseObject({ [name]: LinkTokenSchema } as { [K in N]: typeof LinkTokenSchema });

/** The value of `name` in a URL fragment (`#token=…&…`), or null. */
export function fragmentValue(hash: string, name: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get(name) || null;
}
