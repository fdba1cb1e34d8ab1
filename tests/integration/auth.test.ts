import { AUTHORIZATION_ERROR } from '@shared/contract/errors';
import { SETTING_KEYS } from '@shared/contract/settings';
import { CurrentUserResponseSchema, UserSchema } from '@shared/contract/user';
import { currentTotpCode, generateTotpSecret } from '@server/security/totp';
import { addressedTo, extractVerificationCode, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, call, createUserAsAdmin, expectBackendError, forgetFailures, postAuth, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
});
afterEach(() => forgetFailures(server));
afterAll(() => server?.close());

describe('POST /api/2/auth', () => {
  it('signs in by email: HttpOnly SameSite=Lax cookie, anticsrfattr header, data.user', async () => {
    const answer = await postAuth(server, server.admin.email, server.admin.password);
    expect(answer.response.status).toBe(200);
    const cookie = answer.response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^KUVERT_SESSION=[\w-]{40,};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // http://127.0.0.1 is the one exception
    expect(answer.response.headers.get('anticsrfattr')).toMatch(/^[\w-]{40,}$/);
    expect(answer.body).toMatchObject({ data: { user: { email: server.admin.email, roleNames: expect.arrayContaining(['ROLE_ADMIN']) } } });
  });

  it('signs in by username, case-insensitively', async () => {
    await createUserAsAdmin(server, admin, { email: 'casey@example.test', username: 'Casey' });
    const answer = await postAuth(server, 'CASEY', 'Good-Passw0rd');
    expect(answer.response.status).toBe(200);
  });

  it('refuses a wrong password with 401, code 1 in the header and the error object', async () => {
    const answer = await postAuth(server, server.admin.email, 'wrong-password');
    expect(answer.response.status).toBe(401);
    expect(answer.errors).toEqual([{ authorizationError: AUTHORIZATION_ERROR.WRONG_CREDENTIALS }]);
    expect(answer.body).toMatchObject({ error: 'AuthenticationRequiredException', requestUri: '/api/2/auth' });
    expect(answer.session).toBeNull();
  });

  it('refuses an unknown user and a missing Authorization header with code 1', async () => {
    expect((await postAuth(server, 'nobody@example.test', 'Whatever-123')).errors[0]?.authorizationError).toBe(1);
    const response = await fetch(`${server.url}/api/2/auth`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(401);
    expect(JSON.parse(response.headers.get('authorization-errors')!)).toEqual([{ authorizationError: 1 }]);
  });

  it('answers a malformed Basic header with 400', async () => {
    for (const authorization of ['Basic', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`, 'Bearer abc']) {
      const response = await fetch(`${server.url}/api/2/auth`, { method: 'POST', headers: { authorization } });
      await expectBackendError(response, 400, 'ValidationException');
    }
  });

  it('refuses unknown query parameters with 400', async () => {
    const response = await fetch(`${server.url}/api/2/auth?j_unknown=1`, { method: 'POST', headers: { authorization: basicAuth('a', 'b') } });
    await expectBackendError(response, 400, 'ValidationException');
  });

  it('refuses a disabled user with 403 code 8', async () => {
    await createUserAsAdmin(server, admin, { email: 'disabled@example.test', disabled: true });
    const answer = await postAuth(server, 'disabled@example.test', 'Good-Passw0rd');
    expect(answer.response.status).toBe(403);
    expect(answer.errors[0]?.authorizationError).toBe(AUTHORIZATION_ERROR.USER_DISABLED);
  });

  it('asks for a captcha (code 2) after 3 failures for the account', async () => {
    await createUserAsAdmin(server, admin, { email: 'forgetful@example.test' });
    for (let i = 0; i < 3; i++) expect((await postAuth(server, 'forgetful@example.test', 'nope')).errors[0]?.authorizationError).toBe(1);
    const answer = await postAuth(server, 'forgetful@example.test', 'Good-Passw0rd');
    expect(answer.response.status).toBe(401);
    expect(answer.errors[0]).toMatchObject({ authorizationError: AUTHORIZATION_ERROR.CAPTCHA_REQUIRED });
    const wrong = await postAuth(server, 'forgetful@example.test', 'Good-Passw0rd', { j_captcha: 'xxxxx', j_captcha_id: 'unknown' });
    expect(wrong.errors[0]).toMatchObject({ authorizationError: 2, message: 'wrong' });
  });

  it('requires TOTP registration (code 3) for a user who must use it, then confirms the pending secret', async () => {
    await createUserAsAdmin(server, admin, { email: 'totp-required@example.test', totpRequired: true });
    const answer = await postAuth(server, 'totp-required@example.test', 'Good-Passw0rd');
    expect(answer.errors[0]?.authorizationError).toBe(AUTHORIZATION_ERROR.TOTP_REGISTRATION_REQUIRED);
    // What the registration endpoint does: store a pending secret.
    const user = (await server.app.users.findByLogin('totp-required@example.test'))!;
    const secret = generateTotpSecret();
    await server.app.users.update(user.id, { totp_pending_secret: server.app.secretBox.seal(user.id, 'totp_pending_secret', secret) });
    const wrong = await postAuth(server, 'totp-required@example.test', 'Good-Passw0rd', { j_auth_app_code: '000000' === currentTotpCode(secret) ? '111111' : '000000' });
    expect(wrong.errors[0]?.authorizationError).toBe(AUTHORIZATION_ERROR.TOTP_AUTHORIZATION_FAILED);
    const code = currentTotpCode(secret);
    const ok = await postAuth(server, 'totp-required@example.test', 'Good-Passw0rd', { j_auth_app_code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(ok.response.status).toBe(200);
    expect(ok.body).toMatchObject({ data: { user: { totpEnabled: true } } });
  });

  it('asks for the TOTP code (code 4, "required") when TOTP is enabled, refuses a wrong one', async () => {
    await createUserAsAdmin(server, admin, { email: 'totp@example.test' });
    const user = (await server.app.users.findByLogin('totp@example.test'))!;
    const secret = generateTotpSecret();
    await server.app.users.update(user.id, { totp_secret: server.app.secretBox.seal(user.id, 'totp_secret', secret) });
    const missing = await postAuth(server, 'totp@example.test', 'Good-Passw0rd');
    expect(missing.errors[0]).toEqual({ authorizationError: 4, message: 'required' });
    const code = currentTotpCode(secret);
    const wrong = await postAuth(server, 'totp@example.test', 'Good-Passw0rd', { j_auth_app_code: code === '123456' ? '654321' : '123456' });
    expect(wrong.errors[0]).toEqual({ authorizationError: 4 });
    const ok = await postAuth(server, 'totp@example.test', 'Good-Passw0rd', { j_auth_app_code: code });
    expect(ok.response.status).toBe(200);
  });

  it('requires TOTP registration for everyone when the global setting is on', async () => {
    await createUserAsAdmin(server, admin, { email: 'global-totp@example.test' });
    await updateSettings(server, admin, { [SETTING_KEYS.totpRequired]: true });
    try {
      expect((await postAuth(server, 'global-totp@example.test', 'Good-Passw0rd')).errors[0]?.authorizationError).toBe(3);
    } finally {
      await updateSettings(server, admin, { [SETTING_KEYS.totpRequired]: false });
    }
  });

  it('requires the login disclaimer (code 9) when enabled', async () => {
    await createUserAsAdmin(server, admin, { email: 'disclaimer@example.test' });
    await updateSettings(server, admin, { [SETTING_KEYS.loginDisclaimerEnabled]: true });
    try {
      const refused = await postAuth(server, 'disclaimer@example.test', 'Good-Passw0rd');
      expect(refused.errors[0]?.authorizationError).toBe(AUTHORIZATION_ERROR.LOGIN_DISCLAIMER_REQUIRED);
      const stillRefused = await postAuth(server, 'disclaimer@example.test', 'Good-Passw0rd', { j_login_disclaimer_accepted: 'false' });
      expect(stillRefused.errors[0]?.authorizationError).toBe(9);
      const ok = await postAuth(server, 'disclaimer@example.test', 'Good-Passw0rd', { j_login_disclaimer_accepted: 'true' });
      expect(ok.response.status).toBe(200);
    } finally {
      await updateSettings(server, admin, { [SETTING_KEYS.loginDisclaimerEnabled]: false });
    }
  });

  it('asks for email verification (code 6, masked address), refuses a wrong code (7), accepts the mailed one', async () => {
    await createUserAsAdmin(server, admin, { email: 'unverified@example.test', emailVerified: false }, { prove: false });
    const first = await postAuth(server, 'unverified@example.test', 'Good-Passw0rd');
    expect(first.errors[0]).toEqual({ authorizationError: AUTHORIZATION_ERROR.ACCOUNT_VERIFICATION_REQUIRED, email: 'u***@example.test' });
    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo('unverified@example.test'));
    const code = extractVerificationCode(mail);
    const wrong = await postAuth(server, 'unverified@example.test', 'Good-Passw0rd', { j_verification_code: code === '000000' ? '111111' : '000000' });
    expect(wrong.errors[0]?.authorizationError).toBe(AUTHORIZATION_ERROR.WRONG_ACCOUNT_VERIFICATION_CODE);
    // A retry within a minute mails nothing new.
    await postAuth(server, 'unverified@example.test', 'Good-Passw0rd');
    expect((await readMailbox(server.mailboxDir)).filter(addressedTo('unverified@example.test'))).toHaveLength(1);
    const ok = await postAuth(server, 'unverified@example.test', 'Good-Passw0rd', { j_verification_code: ` ${code} ` });
    expect(ok.response.status).toBe(200);
    // Verified for good: the next sign-in asks for nothing.
    expect((await postAuth(server, 'unverified@example.test', 'Good-Passw0rd')).response.status).toBe(200);
  });
});

describe('session calls', () => {
  it('GET /user answers 401 with the error object when signed out', async () => {
    await expectBackendError(await fetch(`${server.url}/api/2/user`), 401, 'AuthenticationRequiredException');
  });

  it('GET /user answers the signed-in user', async () => {
    const response = await call(server, admin, 'GET', '/api/2/user');
    expect(response.status).toBe(200);
    const body: unknown = await response.json();
    expect(body).toMatchObject({ user: { email: server.admin.email, id: expect.any(Number), uuid: expect.any(String) } });
    // The session's own anti-forgery value (what a single sign-on session learns it from).
    expect(response.headers.get('anticsrfattr')).toBe(admin.csrf);
    // The answer is written by a serializer compiled from the contract (core/compiled-reply.ts), not
    // checked by zod: the contract's schema proves its shape here — exactly its keys, each value valid.
    expect(CurrentUserResponseSchema.parse(body)).toEqual(body);
    expect(Object.keys(body as object)).toEqual(['user']);
    expect(Object.keys((body as { user: object }).user).sort()).toEqual(Object.keys(UserSchema.shape).sort());
  });

  it('logout deletes the session and expires the cookie', async () => {
    const session = await signIn(server, server.admin.email, server.admin.password);
    const response = await call(server, session, 'GET', '/j_spring_security_logout');
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/KUVERT_SESSION=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/);
    expect((await call(server, session, 'GET', '/api/2/user')).status).toBe(401);
  });

  it('keepAlive.html answers 200 signed out; ?lang sets the legacy pages\' cookie and changes nothing on the server', async () => {
    const anonymous = await fetch(`${server.url}/webui/keepAlive.html`);
    expect(anonymous.status).toBe(200);
    await createUserAsAdmin(server, admin, { email: 'polyglot@example.test' });
    const session = await signIn(server, 'polyglot@example.test', 'Good-Passw0rd');
    const before = await server.app.users.findByLogin('polyglot@example.test');
    const response = await call(server, session, 'GET', '/webui/keepAlive.html?lang=fr-CA');
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/KUVERT_LANG=fr/);
    // A plain GET (a cross-site <img> can send one with the cookie) stores nothing: same row, language unchanged.
    expect(await server.app.users.findByLogin('polyglot@example.test')).toEqual(before);
    expect((await (await call(server, session, 'GET', '/api/2/user')).json()).user.language).toBe('en');
    // The account's language changes by POST /user/updateLoggedInUser (SPEC §7) only.
    const posted = await call(server, session, 'POST', '/api/2/user/updateLoggedInUser', { user: { language: 'fr' } });
    expect(posted.status).toBe(200);
    expect((await (await call(server, session, 'GET', '/api/2/user')).json()).user.language).toBe('fr');
  });

  it('a session cookie that was never issued is not signed in', async () => {
    const response = await call(server, { cookie: 'KUVERT_SESSION=forged-token', csrf: 'x' }, 'GET', '/api/2/user');
    expect(response.status).toBe(401);
  });
});
