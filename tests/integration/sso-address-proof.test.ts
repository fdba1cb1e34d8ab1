import { DELIVERY_PATHS, type DeliveryPage } from '@shared/contract/deliveries';
import { AUTHORIZATION_ERROR as CODE } from '@shared/contract/errors';
import { ssoSignInOverHttp, startTestOidcProvider, type TestOidcProvider } from '@tests/support/oidc-provider';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SSO_FAILED_TARGET } from '../../server/auth/oidc-sso';
import { SESSION_COOKIE } from '../../server/core/access';
import { call, createUserAsAdmin, forgetFailures, postAuth, signIn, signInAdmin, type Session } from './core-helpers';

/**
 * Issue 12 §1: single sign-on of an account whose address never proved itself (an administrator
 * made it). The provider's `email_verified: true` is the proof — the account is taken over like at
 * a delivery signup and only then reaches the deliveries to the address; a provider that does not
 * vouch for the address (claim missing or false) signs nobody into such an account. Against a real
 * OpenID provider in-process (oidc-provider) and the real server (SQLite or PostgreSQL).
 */

const api = (path: string) => `/api/2${path}`;
let provider: TestOidcProvider;
let server: TestServer;
let admin: Session;
let alice: Session;
let counter = 0;
/** The provider vouches for `…@vouched.test`, says nothing about `…@silent.test`, denies `…@denied.test`. */
const address = (name: string, domain: 'vouched' | 'silent' | 'denied') => `${name}-${++counter}@${domain}.test`;

beforeAll(async () => {
  provider = await startTestOidcProvider({ emailVerified: (login) => (login.endsWith('@silent.test') ? undefined : !login.endsWith('@denied.test')) });
  server = await startTestServer({ config: { oidcIssuer: provider.issuer, oidcClientId: provider.clientId, oidcClientSecret: provider.clientSecret } });
  provider.registerRedirectUri(`${server.url}/webui/sso/callback`);
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'alice@example.test' });
  alice = await signIn(server, 'alice@example.test', 'Good-Passw0rd');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await provider?.close();
});
beforeEach(() => forgetFailures(server));

async function sendMessage(to: string): Promise<string> {
  const created = await call(server, alice, 'POST', api(DELIVERY_PATHS.create), { recipients: [to], subject: `For ${to}`, body: 'Confidential.', securityLevel: 10 });
  expect(created.status, await created.clone().text()).toBe(201);
  const { deliveryUuid } = (await created.json()) as { deliveryUuid: string };
  expect((await call(server, alice, 'POST', api(DELIVERY_PATHS.send(deliveryUuid)))).status).toBe(200);
  return deliveryUuid;
}

/** The session the SSO left in the cookie jar (null: none), checked against GET /user. */
async function ssoSession(login: string): Promise<{ location: string; session: Session | null }> {
  const { location, cookie } = await ssoSignInOverHttp(server.url, login);
  const token = cookie(SESSION_COOKIE);
  if (!token) return { location, session: null };
  const user = await fetch(`${server.url}/api/2/user`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
  await user.arrayBuffer();
  if (user.status !== 200) return { location, session: null };
  return { location, session: { cookie: `${SESSION_COOKIE}=${token}`, csrf: user.headers.get('anticsrfattr') ?? '' } };
}

const verifiedFlag = async (email: string) => (await server.app.users.findByLogin(email))?.email_verified;

describe('single sign-on and an address that has not proved itself', () => {
  it('the provider vouches for the address: that proves it; the owner gets in, finds the pending delivery, and the creator’s password is worthless', async () => {
    const owner = address('owner', 'vouched');
    const deliveryUuid = await sendMessage(owner);
    await createUserAsAdmin(server, admin, { email: owner, password: 'Creator-Passw0rd' }, { prove: false });
    expect(await verifiedFlag(owner)).toBe(0);

    const { location, session } = await ssoSession(owner);
    expect(location).toBe('/secumails/inbox');
    expect(session).not.toBeNull();
    expect(await verifiedFlag(owner)).toBe(1);
    const inbox = (await (await call(server, session, 'GET', api(DELIVERY_PATHS.inbox))).json()) as DeliveryPage;
    expect(inbox.items.map((d) => d.deliveryUuid)).toEqual([deliveryUuid]);

    // The creator's password no longer opens the account (it would skip the code now).
    const creator = await postAuth(server, owner, 'Creator-Passw0rd');
    expect(creator.session).toBeNull();
    expect(creator.errors[0]?.authorizationError).toBe(CODE.WRONG_CREDENTIALS);
    const audit = await server.app.db.selectFrom('audit_log').select(['action', 'details']).where('action', '=', 'sso.addressProven').execute();
    expect(audit.some((entry) => String(entry.details).includes('claimedAccount'))).toBe(true);
    // A second SSO sign-in is an ordinary one.
    expect((await ssoSession(owner)).session).not.toBeNull();
  });

  it('a provider that says nothing about the address proves nothing: no session, the account stays unproven, the deliveries stay out of reach', async () => {
    const owner = address('quiet', 'silent');
    await sendMessage(owner);
    await createUserAsAdmin(server, admin, { email: owner, password: 'Creator-Passw0rd' }, { prove: false });
    const { location, session } = await ssoSession(owner);
    expect(location).toBe(SSO_FAILED_TARGET);
    expect(session).toBeNull();
    expect(await verifiedFlag(owner)).toBe(0);
    // The mailed code at the password sign-in is still the way in.
    expect((await postAuth(server, owner, 'Creator-Passw0rd')).errors[0]?.authorizationError).toBe(CODE.ACCOUNT_VERIFICATION_REQUIRED);
  });

  it('an account that proved its address signs in whether or not the provider states the claim; `email_verified: false` is refused', async () => {
    const proven = address('proven', 'silent');
    await createUserAsAdmin(server, admin, { email: proven });
    expect((await ssoSession(proven)).session).not.toBeNull();

    const denied = address('denied', 'denied');
    await createUserAsAdmin(server, admin, { email: denied });
    const refused = await ssoSession(denied);
    expect(refused.location).toBe(SSO_FAILED_TARGET);
    expect(refused.session).toBeNull();
    // Not even an unproven one becomes proven by a provider that denies the address.
    const unproven = address('unproven', 'denied');
    await createUserAsAdmin(server, admin, { email: unproven, password: 'Creator-Passw0rd' }, { prove: false });
    expect((await ssoSession(unproven)).session).toBeNull();
    expect(await verifiedFlag(unproven)).toBe(0);
  });
});
