import { fragmentValue } from '@shared/contract/link-token';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * The one-time token of the page's URL (issue 28, shared/contract/link-token.ts): mailed links
 * carry it in the fragment (`#name=…`), which the browser never sends to a server. Links mailed
 * before carried it in the query (`?name=`) or, for a room link, as the path's last segment
 * (`legacy`): the page still takes it from there and replaces the address with the fragment form
 * (same history entry), so a reload, a bookmark or the history holds no server-bound token.
 * `pathname` is the page's path in the fragment form (default: the current one).
 */
export function useFragmentToken(name: string, options: { legacy?: string | null; pathname?: string } = {}): string | null {
  const location = useLocation();
  const navigate = useNavigate();
  const fromHash = fragmentValue(location.hash, name);
  const token = fromHash ?? (options.legacy || null) ?? (new URLSearchParams(location.search).get(name) || null);
  const moveToFragment = !fromHash && token !== null;
  const pathname = options.pathname ?? location.pathname;

  useEffect(() => {
    if (!moveToFragment || token === null) return;
    const query = new URLSearchParams(location.search);
    query.delete(name);
    const search = query.toString();
    void navigate({ pathname, search: search ? `?${search}` : '', hash: `${name}=${encodeURIComponent(token)}` }, { replace: true });
  }, [moveToFragment, token, pathname, location.search, name, navigate]);

  return token;
}
