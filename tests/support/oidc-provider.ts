// A real OpenID Connect provider in-process (oidc-provider) for the single sign-on tests
// (DESIGN §9). Its development sign-in form accepts any login with any password; the login
// becomes the subject and, when it looks like an address, the verified `email` claim.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestOidcProvider {
  /** The issuer URL (http://127.0.0.1:PORT), for KUVERT_OIDC_ISSUER. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the relying party once its callback address is known. */
  registerRedirectUri(redirectUri: string): void;
  close(): Promise<void>;
}

export interface TestOidcProviderOptions {
  /**
   * The `email_verified` claim for a login that looks like an address: true (default), false, or
   * undefined to leave the claim out (a provider that says nothing about it).
   */
  emailVerified?: (login: string) => boolean | undefined;
}

export async function startTestOidcProvider(options: TestOidcProviderOptions = {}): Promise<TestOidcProvider> {
  const emailVerified = options.emailVerified ?? (() => true);
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  // Listen first: the issuer URL needs the port, the client needs the relying party's URL.
  const server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end('provider not configured yet');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'kuvert-test';
  const clientSecret = 'kuvert-test-secret-0123456789abcdef';

  return {
    issuer,
    clientId,
    clientSecret,
    registerRedirectUri(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        pkce: { required: () => true },
        findAccount: async (_ctx, sub) => ({
          accountId: sub,
          claims: async () => {
            if (!sub.includes('@')) return { sub };
            const verified = emailVerified(sub);
            return { sub, email: sub, ...(verified === undefined ? {} : { email_verified: verified }) };
          },
        }),
        // Quiet: the development interactions print a warning per start otherwise.
        features: { devInteractions: { enabled: true } },
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Cookies per origin, as a browser keeps them (paths ignored: every cookie goes to its origin). */
class CookieJar {
  private readonly byOrigin = new Map<string, Map<string, string>>();
  header(url: URL): string {
    return [...(this.byOrigin.get(url.origin) ?? new Map<string, string>())].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  take(url: URL, response: Response): void {
    const jar = this.byOrigin.get(url.origin) ?? new Map<string, string>();
    this.byOrigin.set(url.origin, jar);
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=.*1970/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }
  get(origin: string, name: string): string | undefined {
    return this.byOrigin.get(origin)?.get(name);
  }
}

/**
 * Single sign-on over plain HTTP, as a browser walks it: Kuvert's SSO start → the provider's
 * development login form (any password) → its consent form → Kuvert's callback → wherever Kuvert
 * sends the browser. Returns that last address (a path on Kuvert) and Kuvert's cookies.
 */
export async function ssoSignInOverHttp(appUrl: string, login: string, continuePath = '/secumails/inbox'): Promise<{ location: string; cookie: (name: string) => string | undefined }> {
  const jar = new CookieJar();
  const app = new URL(appUrl);
  let url = new URL(`/webui/sso/start?continue=${encodeURIComponent(continuePath)}`, app);
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string> | undefined), cookie: jar.header(url) } });
    jar.take(url, response);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url);
      await response.arrayBuffer();
      // Back on Kuvert, past its SSO routes: that is where the browser lands.
      if (next.origin === app.origin && !next.pathname.startsWith('/webui/sso/')) {
        return { location: `${next.pathname}${next.search}`, cookie: (name) => jar.get(app.origin, name) };
      }
      url = next;
      init = {};
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`unexpected ${response.status} at ${url.href}: ${html.slice(0, 200)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no interaction form at ${url.href}`);
    const body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'anything' } : { prompt });
    url = new URL(action.replace(/&amp;/g, '&'), url);
    init = { method: 'POST', body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('single sign-on did not come back');
}
