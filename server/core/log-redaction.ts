import { DELIVERY_TOKEN_HEADER } from '@shared/contract/deliveries';
import { ONE_TIME_TOKEN_HEADERS } from '@shared/contract/link-token';
import { ROOM_LINK_PASSWORD_HEADER } from '@shared/contract/room-links';

/**
 * Request headers that carry tokens — the one-time link tokens (shared/contract/link-token.ts) and a
 * level 1 delivery's access token (`x-delivery-token`) — as pino redact paths. The request
 * serializer logs no header at all; this holds should a log line ever carry them.
 */
export const TOKEN_HEADER_LOG_PATHS = [...ONE_TIME_TOKEN_HEADERS, DELIVERY_TOKEN_HEADER, ROOM_LINK_PASSWORD_HEADER].map((name) => `req.headers["${name}"]`);

/**
 * What of a request URL may reach the log: the path only (the query carries one-time codes,
 * e.g. `j_auth_app_code`, `j_verification_code`, SSO `code`/`state`), and path segments that
 * look like secrets replaced. IMPORTANT: no call puts a token in its path any more; this is the
 * net for old clients and guessed URLs (`GET /api/2/auth/password-reset/<token>` was one, and
 * `/api/2/room-links/<token>…`, `/api/2/room-requests/<token>…`, `/api/2/submit-tickets/<token>…`
 * and the web's `/room-link/<token>`, `/submit/ticket/<token>` before issue 28).
 */
const TOKEN_LIKE_SEGMENT = /^[A-Za-z0-9_~.%-]{40,}$/;
/** UUIDs (36 characters) and shorter ids stay readable: they are not secrets. */
export const REDACTED_SEGMENT = '[redacted]';

export function logSafePath(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return path
    .split('/')
    .map((segment) => (TOKEN_LIKE_SEGMENT.test(segment) ? REDACTED_SEGMENT : segment))
    .join('/');
}
