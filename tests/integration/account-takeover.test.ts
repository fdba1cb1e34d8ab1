import { stat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Secret } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TotpRegistrationResponse } from '@shared/contract/auth-escalation';
import { DELIVERY_PATHS, type DeliveryPage } from '@shared/contract/deliveries';
import { AUTHORIZATION_ERROR as CODE } from '@shared/contract/errors';
import { EXTERNAL_PATHS, type EmailCheckResponse } from '@shared/contract/external';
import { ADMIN_SYSTEM_STATUS_PATH, SETTING_KEYS, type AdminSystemStatus } from '@shared/contract/settings';
import { SECRET_KEY_FILE } from '@server/security/secret-box';
import { addressedTo, extractLink, extractVerificationCode, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { totpCodes } from '@tests/support/totp';
import { call, createUserAsAdmin, expectBackendError, forgetFailures, postAuth, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';

// Issue 12 §1 "Account takeover and privilege", against the real server (SQLite, or PostgreSQL
// with KUVERT_TEST_DATABASE_URL): who may read the development mailbox and the warning when it
// stands behind a public URL; accounts made by an administrator start unverified and get no
// deliveries before the owner proved the address, whose signup takes them over; two-factor
// registration and removal with re-authentication; TOTP secrets sealed at rest.

const api = (path: string) => `/api/2${path}`;
/** Another valid code than the one just used (each code is accepted once): the next time step's. */

let server: TestServer;
let admin: Session;
let alice: Session;
let counter = 0;
const uniqueAddress = (name: string) => `${name}-${++counter}@outside.test`;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'alice@example.test' });
  alice = await signIn(server, 'alice@example.test', 'Good-Passw0rd');
});
afterAll(() => server?.close());
beforeEach(() => forgetFailures(server));

async function sendMessage(to: string, securityLevel: 0 | 10): Promise<string> {
  const created = await call(server, alice, 'POST', api(DELIVERY_PATHS.create), { recipients: [to], subject: `For ${to}`, body: 'Confidential.', securityLevel });
  expect(created.status, await created.clone().text()).toBe(201);
  const { deliveryUuid } = (await created.json()) as { deliveryUuid: string };
  expect((await call(server, alice, 'POST', api(DELIVERY_PATHS.send(deliveryUuid)))).status).toBe(200);
  return deliveryUuid;
}

describe('the development mailbox', () => {
  it('is refused to everyone but administrators, with the error object', async () => {
    await createUserAsAdmin(server, admin, { email: 'plain@example.test' });
    const plain = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
    const mails = await readMailbox(server.mailboxDir);
    const id = mails[0]!.id;
    for (const path of ['/dev/mailbox', `/dev/mailbox/${id}`, `/dev/mailbox/${id}?format=eml`]) {
      await expectBackendError(await call(server, null, 'GET', path), 401, 'AuthenticationRequiredException');
      await expectBackendError(await call(server, plain, 'GET', path), 403, 'AccessDeniedException');
      expect((await call(server, admin, 'GET', path)).status).toBe(200);
    }
    // The status call for the admin page: administrators only; no warning on a loopback URL.
    await expectBackendError(await call(server, null, 'GET', api(ADMIN_SYSTEM_STATUS_PATH)), 401);
    await expectBackendError(await call(server, plain, 'GET', api(ADMIN_SYSTEM_STATUS_PATH)), 403);
    expect(await (await call(server, admin, 'GET', api(ADMIN_SYSTEM_STATUS_PATH))).json()).toEqual({ warnings: [] });
  });

  it('behind a public URL without SMTP: a loud warning in the start log and on the admin page, gone once SMTP is chosen', async () => {
    const lines: string[] = [];
    const exposed = await startTestServer({ config: { publicUrl: 'https://kuvert.example.org' }, logStream: { write: (line) => void lines.push(line) } });
    try {
      const warning = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => l.msg.includes('NO SMTP CONFIGURED'));
      expect(warning?.level).toBe(40); // pino "warn"
      const exposedAdmin = await signInAdmin(exposed);
      const status = (await (await call(exposed, exposedAdmin, 'GET', api(ADMIN_SYSTEM_STATUS_PATH))).json()) as AdminSystemStatus;
      expect(status.warnings).toEqual(['mailboxNotLocal']);
      // Still administrators only, also here.
      await expectBackendError(await call(exposed, null, 'GET', '/dev/mailbox'), 401);
      await updateSettings(exposed, exposedAdmin, { [SETTING_KEYS.mailTransport]: 'smtp', [SETTING_KEYS.mailSmtpUrl]: 'smtp://127.0.0.1:9' });
      expect(await (await call(exposed, exposedAdmin, 'GET', api(ADMIN_SYSTEM_STATUS_PATH))).json()).toEqual({ warnings: [] });
      expect((await call(exposed, exposedAdmin, 'GET', '/dev/mailbox')).status).toBe(404);
    } finally {
      await exposed.close();
    }
  });
});

describe('accounts made by someone else', () => {
  it('start unverified: the creator cannot open the pending deliveries of the address; the real owner signs up and takes the account over', async () => {
    const owner = uniqueAddress('victim');
    const deliveryUuid = await sendMessage(owner, 10);
    const notice = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(owner)(m) && m.text.includes('/email-prompt/'));

    // The administrator vouching for the address is refused; the account starts unverified.
    await expectBackendError(await call(server, admin, 'POST', api('/admin/users'), { email: owner, password: 'Creator-Passw0rd', emailVerified: true }), 400, 'ValidationException');
    await createUserAsAdmin(server, admin, { email: owner, password: 'Creator-Passw0rd' }, { prove: false });

    // The creator knows the password, but sign-in stops at the code mailed to the address.
    const attempt = await postAuth(server, owner, 'Creator-Passw0rd');
    expect(attempt.response.status).toBe(401);
    expect(attempt.errors[0]?.authorizationError).toBe(CODE.ACCOUNT_VERIFICATION_REQUIRED);
    expect(attempt.session).toBeNull();
    const guessed = await postAuth(server, owner, 'Creator-Passw0rd', { j_verification_code: '000000' });
    expect(guessed.session).toBeNull();

    // The real owner's link still leads to signup (the unproven account does not count as registered).
    const link = extractLink(notice, '/secumails/');
    const shareUuid = link.pathname.split('/').pop()!;
    const token = new URLSearchParams(link.hash.slice(1)).get('token')!;
    const checked = (await (await call(server, null, 'POST', api(EXTERNAL_PATHS.emailCheck(shareUuid)), { email: owner, token })).json()) as EmailCheckResponse;
    expect(checked.next).toBe('signup');
    // A delivery sent now also mails the signup link, not the inbox link.
    await sendMessage(owner, 10);
    const later = (await readMailbox(server.mailboxDir)).filter(addressedTo(owner)).filter((m) => m.subject.includes(owner) || m.text.includes('/secumails/'));
    expect(later.at(-1)!.text).toContain('/email-prompt/');

    const signup = await call(server, null, 'POST', api(EXTERNAL_PATHS.signup(shareUuid)), { email: owner, token, password: 'Owner-Passw0rd-1' });
    expect(signup.status, await signup.clone().text()).toBe(201);
    // The creator's password is worthless now; the owner signs in without a code and finds both deliveries.
    expect((await postAuth(server, owner, 'Creator-Passw0rd')).errors[0]?.authorizationError).toBe(CODE.WRONG_CREDENTIALS);
    const session = await signIn(server, owner, 'Owner-Passw0rd-1');
    const inbox = (await (await call(server, session, 'GET', api(DELIVERY_PATHS.inbox))).json()) as DeliveryPage;
    expect(inbox.items.map((d) => d.deliveryUuid)).toContain(deliveryUuid);
    expect(inbox.items).toHaveLength(2);
    // A proven account blocks a second signup as before.
    await expectBackendError(await call(server, null, 'POST', api(EXTERNAL_PATHS.signup(shareUuid)), { email: owner, token, password: 'Owner-Passw0rd-1' }), 404);
  });

  it('the owner who proves the address with the mailed code gets in (and only then sees deliveries)', async () => {
    const owner = uniqueAddress('colleague');
    const deliveryUuid = await sendMessage(owner, 10);
    await createUserAsAdmin(server, admin, { email: owner, password: 'Creator-Passw0rd' }, { prove: false });
    expect((await postAuth(server, owner, 'Creator-Passw0rd')).session).toBeNull();
    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(owner)(m) && /^\s*\d{6}\s*$/m.test(m.text));
    const answer = await postAuth(server, owner, 'Creator-Passw0rd', { j_verification_code: extractVerificationCode(mail) });
    expect(answer.response.status).toBe(200);
    const inbox = (await (await call(server, answer.session, 'GET', api(DELIVERY_PATHS.inbox))).json()) as DeliveryPage;
    expect(inbox.items.map((d) => d.deliveryUuid)).toEqual([deliveryUuid]);
  });
});

describe('two-factor authentication from the account settings', () => {
  it('registration needs the password and a code; removal needs the password and a current code; secrets are sealed at rest', async () => {
    await createUserAsAdmin(server, admin, { email: 'tessa@example.test' });
    const tessa = await signIn(server, 'tessa@example.test', 'Good-Passw0rd');
    const register = (session: Session | null, body: unknown, csrf?: null) => call(server, session, 'POST', api('/user/totp/registration'), body, csrf === null ? { csrf: null } : {});

    await expectBackendError(await register(null, { password: 'Good-Passw0rd' }), 401);
    await expectBackendError(await register(tessa, { password: 'Good-Passw0rd' }, null), 403, 'CsrfTokenException');
    await expectBackendError(await register(tessa, {}), 400, 'ValidationException');
    expect((await expectBackendError(await register(tessa, { password: 'wrong' }), 400)).metadata).toMatchObject({ reason: 'currentPassword' });
    const started = await register(tessa, { password: 'Good-Passw0rd' });
    expect(started.status).toBe(200);
    const registration = (await started.json()) as TotpRegistrationResponse;
    expect(registration.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);

    const row = () => server.app.db.selectFrom('users').select(['totp_secret', 'totp_pending_secret']).where('email', '=', 'tessa@example.test').executeTakeFirstOrThrow();
    const pending = (await row()).totp_pending_secret!;
    expect(pending).toMatch(/^enc1:/);
    expect(pending).not.toContain(registration.secret);

    const confirm = (body: unknown) => call(server, tessa, 'POST', api('/user/totp/confirm'), body);
    const codes = totpCodes(registration.secret);
    const firstCode = codes.next();
    expect((await expectBackendError(await confirm({ code: firstCode === '000000' ? '111111' : '000000' }), 400)).metadata).toMatchObject({ reason: 'code' });
    expect((await confirm({ code: firstCode })).status).toBe(204);
    const stored = await row();
    expect(stored.totp_pending_secret).toBeNull();
    expect(stored.totp_secret).toMatch(/^enc1:/);
    expect(stored.totp_secret).not.toContain(registration.secret);
    // On: sign-in asks for the code; a second registration is refused.
    expect((await postAuth(server, 'tessa@example.test', 'Good-Passw0rd')).errors[0]?.authorizationError).toBe(CODE.TOTP_AUTHORIZATION_FAILED);
    await expectBackendError(await register(tessa, { password: 'Good-Passw0rd' }), 409, 'ConflictException');

    // Removal: the session alone, the password alone, or a code alone is not enough.
    const reset = (body: unknown) => call(server, tessa, 'POST', api('/user/totp/reset'), body);
    await expectBackendError(await reset({ password: 'Good-Passw0rd' }), 400, 'ValidationException');
    const removalCode = codes.next();
    expect((await expectBackendError(await reset({ password: 'wrong', code: removalCode }), 400)).metadata).toMatchObject({ reason: 'currentPassword' });
    expect((await reset({ password: 'Good-Passw0rd', code: removalCode })).status).toBe(204);
    expect((await row()).totp_secret).toBeNull();
    await expectBackendError(await reset({ password: 'Good-Passw0rd', code: codes.next() }), 409);
    expect((await postAuth(server, 'tessa@example.test', 'Good-Passw0rd')).response.status).toBe(200);
  });

  it('stops guessing after 5 wrong passwords or codes (429)', async () => {
    await createUserAsAdmin(server, admin, { email: 'guess@example.test' });
    const session = await signIn(server, 'guess@example.test', 'Good-Passw0rd');
    for (let i = 0; i < 5; i++) await expectBackendError(await call(server, session, 'POST', api('/user/totp/registration'), { password: `wrong-${i}` }), 400);
    await expectBackendError(await call(server, session, 'POST', api('/user/totp/registration'), { password: 'Good-Passw0rd' }), 429, 'RateLimitExceededException');
  });

  it('an administrator removes a user’s app (audit entry); a user administrator may not touch an administrator’s', async () => {
    await createUserAsAdmin(server, admin, { email: 'lost-phone@example.test' });
    await createUserAsAdmin(server, admin, { email: 'ua2@example.test', roleNames: ['ROLE_USER_ADMIN', 'ROLE_UI_USER'] });
    const user = await signIn(server, 'lost-phone@example.test', 'Good-Passw0rd');
    const registration = (await (await call(server, user, 'POST', api('/user/totp/registration'), { password: 'Good-Passw0rd' })).json()) as TotpRegistrationResponse;
    expect((await call(server, user, 'POST', api('/user/totp/confirm'), { code: totpCodes(registration.secret).next() })).status).toBe(204);
    const subject = (await server.app.users.findByLogin('lost-phone@example.test'))!;
    const adminRow = (await server.app.users.findByLogin(server.admin.email))!;
    const userAdmin = await signIn(server, 'ua2@example.test', 'Good-Passw0rd');

    await expectBackendError(await call(server, user, 'POST', api(`/admin/users/${subject.uuid}/totp/reset`)), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'POST', api(`/admin/users/${subject.uuid}/totp/reset`)), 401);
    await expectBackendError(await call(server, userAdmin, 'POST', api(`/admin/users/${adminRow.uuid}/totp/reset`)), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, admin, 'POST', api('/admin/users/no-such-user/totp/reset')), 404);
    expect((await call(server, admin, 'POST', api(`/admin/users/${subject.uuid}/totp/reset`))).status).toBe(204);
    expect((await server.app.users.findById(subject.id))!.totp_secret).toBeNull();
    const audit = await server.app.db.selectFrom('audit_log').selectAll().where('action', '=', 'totp.reset').where('subject_user_id', '=', subject.id).execute();
    expect(audit).toHaveLength(1);
  });
});

describe('TOTP secrets at rest', () => {
  it('the key file is 0600 in the data folder; plaintext secrets of older versions are sealed at the next start and keep working', async () => {
    const first = await startTestServer();
    try {
      const keyFile = join(first.dataDir, SECRET_KEY_FILE);
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
      expect(Buffer.from((await readFile(keyFile, 'utf8')).trim(), 'base64')).toHaveLength(32);
      const firstAdmin = (await first.app.users.findByLogin(first.admin.email))!;
      const secret = new Secret({ size: 20 }).base32;
      // As an older version stored it: in plaintext.
      await first.app.users.update(firstAdmin.id, { totp_secret: secret });
      await first.close({ keepData: true });
      const again = await startTestServer({ reuse: { dataDir: first.dataDir, databaseSchema: first.databaseSchema } });
      try {
        const sealed = (await again.app.users.findById(firstAdmin.id))!.totp_secret!;
        expect(sealed).toMatch(/^enc1:/);
        expect(sealed).not.toContain(secret);
        const codes = totpCodes(secret);
        expect((await postAuth(again, again.admin.email, again.admin.password, { j_auth_app_code: codes.next() })).response.status).toBe(200);
        // A sealed value copied to another row does not open there (bound to its user): a refused
        // sign-in (code 4, "unavailable"), never a 500.
        const copy = await again.app.users.create({ username: 'copy', email: 'copy@example.test', passwordHash: firstAdmin.password_hash, roles: ['ROLE_UI_USER'], emailVerified: true });
        await again.app.users.update(copy.id, { totp_secret: sealed });
        const refused = await postAuth(again, 'copy@example.test', again.admin.password, { j_auth_app_code: codes.next() });
        expect(refused.response.status).toBe(401);
        expect(refused.errors[0]).toMatchObject({ authorizationError: CODE.TOTP_AUTHORIZATION_FAILED, message: 'unavailable' });
      } finally {
        await again.close();
      }
    } finally {
      await first.close().catch(() => undefined);
    }
  });
});
