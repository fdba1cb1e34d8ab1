import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { User } from '@shared/contract/user';
import { parseEndpointResponse } from '../call';
import type { ApiClient } from '../client';

/** The backend's two-factor login page; GET /user ending there means "go there" (SPEC §7). */
export const TWO_FACTOR_PAGE_PATH = '/webui/twoFactor';

/** Whether the answer of GET /user was redirected to the two-factor login page. */
export function endedOnTwoFactorPage(finalUrl: string): boolean {
  try {
    return new URL(finalUrl, 'http://relative.invalid').pathname === TWO_FACTOR_PAGE_PATH;
  } catch {
    return false;
  }
}

/** GET /user treats 200–299 plus 401 and 403 as non-errors (SPEC §5): those mean "nobody". */
export const isCurrentUserStatusAccepted = (status: number): boolean => status === 401 || status === 403;

export interface CurrentUserResult {
  user: User | null;
  /** Final address after redirects; SPEC §7 sends the browser to the two-factor page when it ends there. */
  finalUrl: string;
}

export async function getCurrentUser(client: ApiClient): Promise<CurrentUserResult> {
  const E = ACCOUNT_ENDPOINTS.currentUser;
  const raw = await client.request<unknown>(E.method, E.path, { acceptStatus: isCurrentUserStatusAccepted });
  // Redirected to the two-factor login page (an HTML page, SPEC §7): nobody yet, the caller goes there.
  if (raw.url && endedOnTwoFactorPage(raw.url)) return { user: null, finalUrl: raw.url };
  const response = { ...raw, data: parseEndpointResponse(E, raw.status, raw.data) };
  const ok = response.status >= 200 && response.status < 300;
  // A session begun elsewhere (single sign-on) learns its anti-forgery value here.
  const antiCsrf = ok ? response.headers?.get(ANTI_CSRF_HEADER) : null;
  if (antiCsrf && antiCsrf !== client.getAntiCsrfToken()) client.setAntiCsrfToken(antiCsrf);
  return { user: ok ? (response.data?.user ?? null) : null, finalUrl: response.url };
}
