import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTHORIZATION_ERROR as CODE } from '@shared/contract/errors';
import { SETTING_KEYS } from '@shared/contract/settings';
import { cleanUpEscalations } from '@server/auth-escalation/cleanup';
import type { CaptchaResponse, DisclaimerResponse, TotpRegistrationResponse } from '@shared/contract/auth-escalation';
import { addressedTo, extractVerificationCode, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { totpCodes } from '@tests/support/totp';
import { api, basic, captchaAnswer, codeOf, createUser, login } from './escalation-helpers';

/**
 * The sign-in escalations of POST /api/2/auth end to end, on a real server with a real
 * database (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL). Every test gets its own
 * server: failures are also counted per IP, and every request here comes from 127.0.0.1.
 */
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server?.close());


async function newCaptcha(): Promise<CaptchaResponse> {
  const response = await api(server, '/auth/captcha');
  expect(response.status).toBe(200);
  return (await response.json()) as CaptchaResponse;
}

describe('captcha', () => {
  it('is required after 3 failures for the account; a wrong answer is refused; the right one lets the user in', async () => {
    const alice = await createUser(server, { username: 'alice' });
    for (let i = 0; i < 3; i++) expect(codeOf(await login(server, { ...alice, password: 'wrong' }))).toBe(CODE.WRONG_CREDENTIALS);

    const required = await login(server, alice);
    expect(required.status).toBe(401);
    expect(required.errors).toEqual([expect.objectContaining({ authorizationError: CODE.CAPTCHA_REQUIRED })]);
    expect(required.body).toMatchObject({ error: 'AuthenticationRequiredException' });

    const captcha = await newCaptcha();
    expect(captcha.svg).toMatch(/^<svg/);
    const answer = await captchaAnswer(server, captcha.captchaId);
    const wrong = await login(server, alice, { j_captcha: `${answer}zz`, j_captcha_id: captcha.captchaId });
    expect(codeOf(wrong)).toBe(CODE.CAPTCHA_REQUIRED);
    expect(wrong.errors[0]?.message).toBe('wrong');
    // Single use: the right answer to the captcha already tried does not count any more.
    expect(codeOf(await login(server, alice, { j_captcha: answer, j_captcha_id: captcha.captchaId }))).toBe(CODE.CAPTCHA_REQUIRED);

    const fresh = await newCaptcha();
    const ok = await login(server, alice, { j_captcha: (await captchaAnswer(server, fresh.captchaId)).toUpperCase(), j_captcha_id: fresh.captchaId });
    expect(ok.status).toBe(200);
    expect(ok.csrf).toBeTruthy();
  });

  it('is required after 3 failures from the same address, whatever the account', async () => {
    const bob = await createUser(server, { username: 'bob' });
    for (const name of ['nobody1', 'nobody2', 'nobody3']) {
      expect(codeOf(await login(server, { username: name, password: 'x' }))).toBe(CODE.WRONG_CREDENTIALS);
    }
    expect(codeOf(await login(server, bob))).toBe(CODE.CAPTCHA_REQUIRED);
    // The pre-login calls with credentials follow the same rule.
    const registration = await api(server, '/auth/totp/registration', { method: 'POST', authorization: basic(bob.username, bob.password) });
    expect(registration.status).toBe(401);
  });

  it('with a wrong password behind a right captcha still counts as wrong credentials', async () => {
    const carol = await createUser(server, { username: 'carol' });
    for (let i = 0; i < 3; i++) await login(server, { ...carol, password: 'wrong' });
    const captcha = await newCaptcha();
    const result = await login(server, { ...carol, password: 'still-wrong' }, { j_captcha: await captchaAnswer(server, captcha.captchaId), j_captcha_id: captcha.captchaId });
    expect(codeOf(result)).toBe(CODE.WRONG_CREDENTIALS);
  });
});

describe('authentication app (TOTP)', () => {
  it('registration, then sign-in with a generated code; a missing or wrong code is refused', async () => {
    const dave = await createUser(server, { username: 'dave', totpRequired: true });
    expect(codeOf(await login(server, dave))).toBe(CODE.TOTP_REGISTRATION_REQUIRED);

    const wrongPassword = await api(server, '/auth/totp/registration', { method: 'POST', authorization: basic(dave.username, 'nope') });
    expect(wrongPassword.status).toBe(401);

    const response = await api(server, '/auth/totp/registration', { method: 'POST', authorization: basic(dave.username, dave.password) });
    expect(response.status).toBe(200);
    const registration = (await response.json()) as TotpRegistrationResponse;
    expect(registration.otpauthUri).toContain(`secret=${registration.secret}`);
    expect(registration.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);

    // Still pending: without a code the user is asked to register.
    expect(codeOf(await login(server, dave))).toBe(CODE.TOTP_REGISTRATION_REQUIRED);
    const codes = totpCodes(registration.secret);
    const confirmed = await login(server, dave, { j_auth_app_code: codes.next() });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ data: { user: { username: 'dave', totpEnabled: true } } });
    // Registered once: a second registration is refused.
    const again = await api(server, '/auth/totp/registration', { method: 'POST', authorization: basic(dave.username, dave.password) });
    expect(again.status).toBe(409);

    const missing = await login(server, dave);
    expect(codeOf(missing)).toBe(CODE.TOTP_AUTHORIZATION_FAILED);
    expect(missing.errors[0]?.message).toBe('required');
    // Another step's code (accepted for clock drift): a code is good for one sign-in only.
    const code = codes.next();
    const wrongCode = String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');
    expect(codeOf(await login(server, dave, { j_auth_app_code: wrongCode }))).toBe(CODE.TOTP_AUTHORIZATION_FAILED);
    const spaced = `${code.slice(0, 3)} ${code.slice(3)}`;
    expect((await login(server, dave, { j_auth_app_code: spaced })).status).toBe(200);
    // Replaying a used code fails (and counts as the third failure: a captcha comes next).
    expect(codeOf(await login(server, dave, { j_auth_app_code: code }))).toBe(CODE.TOTP_AUTHORIZATION_FAILED);
    expect(codeOf(await login(server, dave, { j_auth_app_code: codes.next() }))).toBe(CODE.CAPTCHA_REQUIRED);

  });

  it('the signed-in user can remove their own authentication app (anti-forgery header, password and a current code required)', async () => {
    const erin = await createUser(server, { username: 'erin' });
    const registration = (await (await api(server, '/auth/totp/registration', { method: 'POST', authorization: basic(erin.username, erin.password) })).json()) as TotpRegistrationResponse;
    const erinCodes = totpCodes(registration.secret);
    const session = await login(server, erin, { j_auth_app_code: erinCodes.next() });
    expect(session.status).toBe(200);
    const proof = { password: erin.password, code: erinCodes.next() };

    expect((await api(server, '/user/totp/reset', { method: 'POST', cookie: session.cookie, body: proof })).status).toBe(403);
    expect((await api(server, '/user/totp/reset', { method: 'POST', body: proof })).status).toBe(401);
    // A stolen session alone is not enough: no body, a wrong password, a wrong code.
    expect((await api(server, '/user/totp/reset', { method: 'POST', cookie: session.cookie, csrf: session.csrf })).status).toBe(400);
    const wrongPassword = await api(server, '/user/totp/reset', { method: 'POST', cookie: session.cookie, csrf: session.csrf, body: { ...proof, password: 'wrong' } });
    expect(await wrongPassword.json()).toMatchObject({ error: 'ValidationException', metadata: { reason: 'currentPassword' } });
    const wrongCode = await api(server, '/user/totp/reset', { method: 'POST', cookie: session.cookie, csrf: session.csrf, body: { ...proof, code: '000000' === proof.code ? '111111' : '000000' } });
    expect(await wrongCode.json()).toMatchObject({ error: 'ValidationException', metadata: { reason: 'code' } });
    expect((await api(server, '/user/totp/reset', { method: 'POST', cookie: session.cookie, csrf: session.csrf, body: proof })).status).toBe(204);
    const plain = await login(server, erin);
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ data: { user: { totpEnabled: false } } });
  });
});

describe('account verification by email', () => {
  it('mails a code, refuses a wrong one with code 7, accepts the right one; resend mails a new code', async () => {
    const frank = await createUser(server, { username: 'frank', emailVerified: false, language: 'de' });
    const first = await login(server, frank);
    expect(codeOf(first)).toBe(CODE.ACCOUNT_VERIFICATION_REQUIRED);
    expect(first.errors[0]?.email).toBe('f***@example.test');

    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(frank.email));
    expect(mail.subject).toBe('Ihr Bestätigungscode für Kuvert');
    const code = extractVerificationCode(mail);

    // Retrying within a minute does not mail again.
    expect(codeOf(await login(server, frank))).toBe(CODE.ACCOUNT_VERIFICATION_REQUIRED);
    expect((await readMailbox(server.mailboxDir)).filter(addressedTo(frank.email))).toHaveLength(1);

    const wrong = code === '000000' ? '111111' : '000000';
    expect(codeOf(await login(server, frank, { j_verification_code: wrong }))).toBe(CODE.WRONG_ACCOUNT_VERIFICATION_CODE);

    // Resend: a fresh code replaces the first one.
    const resend = await api(server, '/auth/verification/resend', { method: 'POST', authorization: basic(frank.username, frank.password) });
    expect(resend.status).toBe(204);
    const mails = await waitForMailboxMailCount(frank.email, 2);
    const newCode = extractVerificationCode(mails[1]!);
    if (newCode !== code) expect(codeOf(await login(server, frank, { j_verification_code: code }))).toBe(CODE.WRONG_ACCOUNT_VERIFICATION_CODE);

    const ok = await login(server, frank, { j_verification_code: newCode });
    expect(ok.status).toBe(200);
    // Verified for good.
    expect((await login(server, frank)).status).toBe(200);
  });

  it('resend needs the right password and is rate limited', async () => {
    const gina = await createUser(server, { username: 'gina', emailVerified: false });
    expect((await api(server, '/auth/verification/resend', { method: 'POST', authorization: basic(gina.username, 'nope') })).status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await api(server, '/auth/verification/resend', { method: 'POST', authorization: basic(gina.username, gina.password) })).status);
    }
    expect(statuses).toEqual([204, 204, 204, 204, 204, 429]);
  });
});

async function waitForMailboxMailCount(address: string, count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = (await readMailbox(server.mailboxDir)).filter(addressedTo(address));
    if (mails.length >= count) return mails;
    if (Date.now() > deadline) throw new Error(`expected ${count} mails to ${address}, found ${mails.length}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('login disclaimer', () => {
  it('is required when enabled and shown in the requested language', async () => {
    const hank = await createUser(server, { username: 'hank' });
    const off = (await (await api(server, '/auth/disclaimer?lang=de')).json()) as DisclaimerResponse;
    expect(off.enabled).toBe(false);

    await server.app.settings.set({
      [SETTING_KEYS.loginDisclaimerEnabled]: true,
      [`${SETTING_KEYS.loginDisclaimerText}.de`]: 'Nur für dienstliche Zwecke.',
      [`${SETTING_KEYS.loginDisclaimerText}.en`]: 'Business use only.',
    });
    expect(await (await api(server, '/auth/disclaimer?lang=de-AT')).json()).toEqual({ enabled: true, text: 'Nur für dienstliche Zwecke.' });
    expect(await (await api(server, '/auth/disclaimer?lang=fr')).json()).toEqual({ enabled: true, text: 'Business use only.' });

    expect(codeOf(await login(server, hank))).toBe(CODE.LOGIN_DISCLAIMER_REQUIRED);
    expect(codeOf(await login(server, hank, { j_login_disclaimer_accepted: 'false' }))).toBe(CODE.LOGIN_DISCLAIMER_REQUIRED);
    expect((await login(server, hank, { j_login_disclaimer_accepted: 'true' })).status).toBe(200);
  });
});

describe('public pre-login information', () => {
  it('password policy, SSO info and the development mailbox', async () => {
    expect(await (await api(server, '/auth/password-policy')).json()).toEqual({
      minLength: 10,
      requireUppercase: true,
      requireLowercase: true,
      requireDigit: true,
      requireSpecial: false,
    });
    expect(await (await api(server, '/auth/sso')).json()).toEqual({ enabled: false, url: null });

    const ivan = await createUser(server, { username: 'ivan', emailVerified: false });
    await login(server, ivan);
    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(ivan.email));
    // Nobody but an administrator reads the mailbox: anonymous 401, a plain user 403 (the error object, no mail).
    for (const path of ['/dev/mailbox', `/dev/mailbox/${mail.id}`, `/dev/mailbox/${mail.id}?format=eml`]) {
      const anonymous = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ error: 'AuthenticationRequiredException', requestUri: path.split('?')[0] });
      const jane = await createUser(server, { username: `jane${path.length}` });
      const janeSession = await login(server, jane);
      const plain = await fetch(`${server.url}${path}`, { headers: { cookie: janeSession.cookie! } });
      expect(plain.status).toBe(403);
      const body = await plain.text();
      expect(body).toContain('AccessDeniedException');
      expect(body).not.toContain(extractVerificationCode(mail));
    }
    const admin = await login(server, { username: server.admin.email, password: server.admin.password });
    const asAdmin = { headers: { cookie: admin.cookie!, accept: 'text/html' } };
    const page = await fetch(`${server.url}/dev/mailbox`, asAdmin);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(ivan.email);
    expect(html).toContain(`/dev/mailbox/${mail.id}`);
    const text = await (await fetch(`${server.url}/dev/mailbox/${mail.id}`, asAdmin)).text();
    expect(text).toContain(extractVerificationCode(mail));
    const raw = await fetch(`${server.url}/dev/mailbox/${mail.id}?format=eml`, asAdmin);
    expect(raw.headers.get('content-type')).toContain('message/rfc822');
    expect((await fetch(`${server.url}/dev/mailbox/..%2F..%2Fetc%2Fpasswd`, asAdmin)).status).toBe(404);
  });
});

describe('cleanup', () => {
  it('removes expired captchas, old rate-limit events, spent tokens and expired codes', async () => {
    const db = server.app.db;
    const jane = await createUser(server, { username: 'jane' });
    const long = Date.now() - 2 * 24 * 60 * 60_000;
    await db.insertInto('captchas').values({ id: 'old', answer: 'x', expires_at: long }).execute();
    await newCaptcha();
    await db.insertInto('rate_limit_events').values({ bucket: 'login-failure:ip', subject: 'x', created_at: long }).execute();
    await db.insertInto('password_reset_tokens').values({ token_hash: 'h', user_id: jane.id, created_at: long, expires_at: long, used_at: null }).execute();
    await db.insertInto('verification_codes').values({ user_id: jane.id, code_hash: 'h', salt: 's', attempts: 0, sent_at: long, expires_at: long }).execute();

    await cleanUpEscalations(server.app);
    expect((await db.selectFrom('captchas').select('id').execute()).map((r) => r.id)).not.toContain('old');
    expect(await db.selectFrom('captchas').select('id').execute()).toHaveLength(1);
    expect(await db.selectFrom('rate_limit_events').selectAll().where('subject', '=', 'x').execute()).toEqual([]);
    expect(await db.selectFrom('password_reset_tokens').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('verification_codes').selectAll().execute()).toEqual([]);
  });
});
