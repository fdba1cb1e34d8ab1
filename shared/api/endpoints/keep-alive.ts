import type { Language } from '@shared/contract/constants';
import type { ApiClient } from '../client';

/** Legacy keep-alive page on the backend host (no /api/2 prefix, SPEC §7). */
export const KEEP_ALIVE_PATH = '/webui/keepAlive.html';

/** Touches the session; with `language` it also syncs the language of the legacy /webui pages. */
export async function getKeepAlive(client: ApiClient, language?: Language): Promise<void> {
  await client.request('GET', KEEP_ALIVE_PATH, {
    base: 'backend',
    query: { lang: language },
    headers: { Accept: 'text/html,*/*' },
  });
}
