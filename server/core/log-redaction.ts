/**
 * What of a request URL may reach the log: the path only (the query carries one-time codes,
 * e.g. `j_auth_app_code`, `j_verification_code`, SSO `code`/`state`), and path segments that
 * look like secrets replaced. IMPORTANT: no call puts a token in its path any more; this is the
 * net for old clients and guessed URLs (`GET /api/2/auth/password-reset/<token>` was one).
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
