import { API_BASE } from '@shared/contract/constants';
import { SHARE_PROOF_COOKIE } from '@shared/contract/deliveries';
import { EXTERNAL_PATHS } from '@shared/contract/external';

/**
 * The level-1 email prompt as a Node client: confirms the address for a mailed link
 * (`/secumails/{lang}/email-prompt/{shareUuid}#token=…`) and keeps the proof cookie the way a
 * browser does (per path), so later requests to that delivery carry it.
 */
export class ShareProofJar {
  /** Cookie path → `name=value`. */
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  /** POSTs the email check for the link; returns the answer's status (200 stores the proof). */
  async confirm(link: URL, email: string): Promise<number> {
    const shareUuid = decodeURIComponent(link.pathname.split('/').pop() ?? '');
    const token = new URLSearchParams(link.hash.slice(1)).get('token') ?? '';
    const response = await fetch(`${this.baseUrl}${API_BASE}${EXTERNAL_PATHS.emailCheck(shareUuid)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, token }),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';').map((p) => p.trim());
      if (!pair?.startsWith(`${SHARE_PROOF_COOKIE}=`)) continue;
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      this.cookies.set(path, pair);
    }
    await response.arrayBuffer();
    return response.status;
  }

  /** The cookie header a browser would send to `url` (or undefined). */
  cookieFor(url: string): string | undefined {
    const path = new URL(url, this.baseUrl).pathname;
    const matching = [...this.cookies].filter(([p]) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`)).map(([, c]) => c);
    return matching.length > 0 ? matching.join('; ') : undefined;
  }

  /** fetch with the proof cookie of the URL's delivery added (as a browser would). */
  fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = this.cookieFor(url);
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', [headers.get('cookie'), cookie].filter(Boolean).join('; '));
    return fetch(url, { ...init, headers });
  }
}
