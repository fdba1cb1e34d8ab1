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

export async function startTestOidcProvider(): Promise<TestOidcProvider> {
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
          claims: async () => ({ sub, ...(sub.includes('@') ? { email: sub, email_verified: true } : {}) }),
        }),
        // Quiet: the development interactions print a warning per start otherwise.
        features: { devInteractions: { enabled: true } },
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
