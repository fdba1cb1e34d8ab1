import type { CurrentUserResponse, User } from '@shared/contract/user';
import type { ApiClient } from '../client';

/** GET /user treats 200–299 plus 401 and 403 as non-errors (SPEC §5): those mean "nobody". */
export const isCurrentUserStatusAccepted = (status: number): boolean => status === 401 || status === 403;

export interface CurrentUserResult {
  user: User | null;
  /** Final address after redirects; SPEC §7 sends the browser to the two-factor page when it ends there. */
  finalUrl: string;
}

export async function getCurrentUser(client: ApiClient): Promise<CurrentUserResult> {
  const response = await client.request<CurrentUserResponse | undefined>('GET', '/user', {
    acceptStatus: isCurrentUserStatusAccepted,
  });
  const ok = response.status >= 200 && response.status < 300;
  return { user: ok ? (response.data?.user ?? null) : null, finalUrl: response.url };
}
