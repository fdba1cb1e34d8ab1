import type { ApiClient } from '../client';

export const LOGOUT_PATH = '/j_spring_security_logout';

/** Expires the session on the backend host (SPEC §7). A redirect answer is fine. */
export async function getLogout(client: ApiClient): Promise<void> {
  await client.request('GET', LOGOUT_PATH, { base: 'backend', headers: { Accept: 'text/html,*/*' } });
}
