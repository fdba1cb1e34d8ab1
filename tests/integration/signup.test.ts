import { SIGNUP_IP_LIMIT } from '@shared/contract/signup';
import { addressedTo, extractVerificationCode, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, expectBackendError, forgetFailures, postAuth, signInAdmin, updateSettings, type Session } from './core-helpers';

let server: TestServer;
let admin: Session;
const SIGNUP = '/api/2/auth/signup';

const signup = (body: Record<string, unknown>) => fetch(`${server.url}${SIGNUP}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const info = async () => (await (await fetch(`${server.url}${SIGNUP}`)).json()) as { enabled: boolean };

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
});
afterAll(async () => server?.close());
beforeEach(async () => forgetFailures(server));

describe('self-registration', () => {
  it('off by default: the info says so and the route answers "not enabled"; /webui/signup leads to the page', async () => {
    expect(await info()).toEqual({ enabled: false });
    const refused = await expectBackendError(await signup({ email: 'new@example.test', password: 'Signup-Passw0rd' }), 403, 'AccessDeniedException');
    expect(refused.metadata.reason).toBe('signupNotEnabled');
    expect(refused.message).toBe('Sign-up is not enabled');
    expect((await server.app.users.findByLogin('new@example.test')) ?? null).toBeNull();
    const legacy = await fetch(`${server.url}/webui/signup`, { redirect: 'manual' });
    expect(legacy.headers.get('location')).toBe('/auth/signup');
  });

  it('on: the account is made unverified and unlicensed; the mailed code proves the address at the normal sign-in', async () => {
    await updateSettings(server, admin, { 'kuvert.signup.enabled': true });
    expect(await info()).toEqual({ enabled: true });
    const answer = await signup({ email: 'Newbie@Example.test', password: 'Signup-Passw0rd', firstName: 'New', language: 'fr' });
    expect(answer.status, await answer.clone().text()).toBe(202);
    const row = await server.app.users.findByLogin('newbie@example.test');
    expect(row).toMatchObject({ email: 'newbie@example.test', email_verified: 0, licensed: 0, language: 'fr', first_name: 'New' });
    expect(JSON.parse(row!.roles)).toEqual(['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER']);
    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo('newbie@example.test'));
    const code = extractVerificationCode(mail);
    // The normal sign-in asks for the code (6), then lets them in.
    const first = await postAuth(server, 'newbie@example.test', 'Signup-Passw0rd');
    expect(first.errors.map((e) => e.authorizationError)).toContain(6);
    const second = await postAuth(server, 'newbie@example.test', 'Signup-Passw0rd', { j_verification_code: code });
    expect(second.response.status).toBe(200);
    const log = await (await call(server, admin, 'GET', '/api/2/admin/audit-log?action=user.signup')).json();
    expect(log.entries.length).toBe(1);
  });

  it('a taken address answers the same and mails its owner instead; nothing changes', async () => {
    await updateSettings(server, admin, { 'kuvert.signup.enabled': true });
    const before = await server.app.users.findByLogin(server.admin.email);
    const answer = await signup({ email: server.admin.email, password: 'Other-Passw0rd1' });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({});
    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(server.admin.email)(m) && /already have an account/.test(m.subject));
    expect(mail.text).toContain('/auth/request-reset-password');
    expect((await server.app.users.findByLogin(server.admin.email))?.password_hash).toBe(before?.password_hash);
    expect((await postAuth(server, server.admin.email, 'Other-Passw0rd1')).response.status).toBe(401);
  });

  it('refuses a weak password and bad input with the error object; limits sign-ups per address', async () => {
    await updateSettings(server, admin, { 'kuvert.signup.enabled': true });
    const weak = await expectBackendError(await signup({ email: 'weak@example.test', password: 'weak' }), 400, 'ValidationException');
    expect(weak.metadata.violations).toBeDefined();
    await expectBackendError(await signup({ email: 'not-an-address', password: 'Signup-Passw0rd' }), 400, 'ValidationException');
    await expectBackendError(await signup({ email: 'x@example.test', password: 'Signup-Passw0rd', roleNames: ['ROLE_ADMIN'] }), 400, 'ValidationException');
    const mails = (await readMailbox(server.mailboxDir)).length;
    let status = 0;
    for (let i = 0; i <= SIGNUP_IP_LIMIT.limit && status !== 429; i++) status = (await signup({ email: `many${i}@example.test`, password: 'weak' })).status;
    expect(status).toBe(429);
    expect((await readMailbox(server.mailboxDir)).length).toBe(mails);
  });

  it('turned off again, the route answers "not enabled" again', async () => {
    await updateSettings(server, admin, { 'kuvert.signup.enabled': false });
    expect(await info()).toEqual({ enabled: false });
    await expectBackendError(await signup({ email: 'late@example.test', password: 'Signup-Passw0rd' }), 403, 'AccessDeniedException');
  });
});
