// Single sign-on by OpenID Connect (DESIGN §9), with openid-client: authorization code flow with
// PKCE, state and nonce. The provider proves who the person is; the account must already exist
// here with the same email address (no accounts are created by SSO), and a disabled account stays
// out. Local escalations (captcha, TOTP, email code) do not apply: the provider runs its own.
// An account whose address never proved itself (made by an administrator) signs in only when the
// provider vouches for the address (`email_verified: true`): that is the proof, as the mailed code
// would be — the account is taken over like at a delivery signup (`claimUnprovenAccount`).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { cookiesNeedSecure } from '../config';
import { routePlugin } from '../core/route-plugin';
import { SESSION_COOKIE } from '../core/access';
import { claimUnprovenAccount } from '../external/external-service';
import { setSessionCookie } from './session-cookie';

export const SSO_START_PATH = '/webui/sso/start';
export const SSO_CALLBACK_PATH = '/webui/sso/callback';
/** Where a failed sign-on lands: the login page shows "single sign-on failed" (SPEC §8). */
export const SSO_FAILED_TARGET = '/auth/login?sso=failed';
/** Holds state, nonce and PKCE verifier between start and callback. */
const SSO_COOKIE = 'KUVERT_SSO';
/** Ten minutes to get through the provider's sign-in; then start over. */
const SSO_COOKIE_MAX_AGE_S = 600;

const PendingSchema = z.object({ state: z.string(), nonce: z.string(), verifier: z.string(), continue: z.string() });

/** Whether SSO is configured in this server's environment. */
export function ssoConfigured(app: FastifyInstance): boolean {
  return Boolean(app.config.oidcIssuer && app.config.oidcClientId);
}

/** Only same-site paths: `continue` must never send the browser to another host. */
export function safeContinuePath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value.length > 2048 ? '/' : value;
}

export const oidcSsoRoutes = routePlugin('kuvert-oidc-sso-routes', async (app) => {
  // Discovery once per process; a failure is not cached, so a provider that was down is retried.
  let discovered: Promise<oidc.Configuration> | null = null;
  const configuration = () => {
    const { oidcIssuer, oidcClientId, oidcClientSecret } = app.config;
    if (!oidcIssuer || !oidcClientId) throw new Error('single sign-on is not configured');
    discovered ??= oidc
      .discovery(new URL(oidcIssuer), oidcClientId, oidcClientSecret, undefined, {
        // Plain http only for a provider on this machine (development, tests).
        execute: new URL(oidcIssuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      })
      .catch((err: unknown) => {
        discovered = null;
        throw err;
      });
    return discovered;
  };
  const redirectUri = () => `${app.config.publicUrl}${SSO_CALLBACK_PATH}`;
  const cookieOptions = () => ({
    path: '/webui/sso',
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level GET, which carries Lax cookies.
    sameSite: 'lax' as const,
    secure: cookiesNeedSecure(app.config.publicUrl),
  });
  const fail = (request: FastifyRequest, reply: FastifyReply, reason: string, err?: unknown) => {
    request.log.warn({ reason, err: err instanceof Error ? err.message : undefined }, 'single sign-on failed');
    void reply.clearCookie(SSO_COOKIE, cookieOptions());
    return reply.header('cache-control', 'no-store').redirect(SSO_FAILED_TARGET, 302);
  };

  app.get(
    SSO_START_PATH,
    {
      config: { access: 'public' },
      schema: {
        summary: 'Starts single sign-on: redirects to the OpenID provider',
        tags: ['auth'],
        // Browser navigation (answers are redirects), not an API call: not in the OpenAPI document.
        hide: true,
        querystring: z.object({ continue: z.string().max(2048).optional() }),
      },
    },
    async (request, reply) => {
      if (!ssoConfigured(app)) return fail(request, reply, 'not configured');
      let config: oidc.Configuration;
      try {
        config = await configuration();
      } catch (err) {
        return fail(request, reply, 'provider discovery failed', err);
      }
      const pending = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
        continue: safeContinuePath(request.query.continue),
      };
      const target = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri(),
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      void reply.setCookie(SSO_COOKIE, Buffer.from(JSON.stringify(pending)).toString('base64url'), { ...cookieOptions(), maxAge: SSO_COOKIE_MAX_AGE_S });
      return reply.header('cache-control', 'no-store').redirect(target.href, 302);
    },
  );

  app.get(
    SSO_CALLBACK_PATH,
    {
      config: { access: 'public' },
      // The provider adds parameters of its own (iss, session_state, …): take them all.
      // Browser navigation (answers are redirects), not an API call: not in the OpenAPI document.
      schema: { summary: 'The OpenID provider sends the browser back here', tags: ['auth'], hide: true, querystring: z.record(z.string(), z.unknown()) },
    },
    async (request, reply) => {
      if (!ssoConfigured(app)) return fail(request, reply, 'not configured');
      const raw = request.cookies[SSO_COOKIE];
      let pending: z.infer<typeof PendingSchema>;
      try {
        pending = PendingSchema.parse(JSON.parse(Buffer.from(raw ?? '', 'base64url').toString('utf8')));
      } catch {
        return fail(request, reply, 'no pending sign-on (cookie missing or expired)');
      }
      let claims: Record<string, unknown> | undefined;
      try {
        const config = await configuration();
        const currentUrl = new URL(request.url, app.config.publicUrl);
        const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims();
        claims = idToken;
        // Providers that keep scope claims out of the ID token (the spec's default) answer at userinfo.
        if (idToken && typeof idToken.email !== 'string') claims = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
      } catch (err) {
        return fail(request, reply, 'code exchange or token validation failed', err);
      }
      const email = typeof claims?.email === 'string' ? claims.email.trim().toLowerCase() : '';
      // An address the provider itself calls unverified proves nothing.
      if (!email || claims?.email_verified === false) return fail(request, reply, 'no verified email claim');
      const user = await app.users.findByLogin(email);
      if (!user || user.email.toLowerCase() !== email) return fail(request, reply, 'no account with that email');
      if (user.disabled) return fail(request, reply, 'account disabled');
      if (!user.email_verified) {
        // Silence is no proof: only a provider that says it checked the address proves it here.
        if (claims?.email_verified !== true) return fail(request, reply, 'address not proven (the provider does not vouch for it)');
        // The creator's password is worthless from now on; deliveries to the address reach the owner only now.
        await claimUnprovenAccount(app, user, { password: randomBytes(32).toString('base64url') });
        const proven = await app.users.findByLogin(email);
        if (!proven?.email_verified) return fail(request, reply, 'address proof lost a race');
        await app.auditLog.record({ action: 'sso.addressProven', actorUserId: user.id, subjectUserId: user.id, details: { issuer: app.config.oidcIssuer, claimedAccount: true } });
      }

      // A fresh session, as after POST /auth; the client reads the anti-forgery value from GET /user.
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) await app.sessions.delete(previous);
      const { token } = await app.sessions.create(user.id);
      setSessionCookie(request, reply, token);
      void reply.clearCookie(SSO_COOKIE, cookieOptions());
      return reply.header('cache-control', 'no-store').redirect(pending.continue, 302);
    },
  );
});
