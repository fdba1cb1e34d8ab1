import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@shared/api/client';
import type { TotpRegistrationResponse } from '@shared/contract/auth-escalation';
import { DELIVERY_PATHS, DELIVERY_TOKEN_HEADER } from '@shared/contract/deliveries';
import { EXTERNAL_PATHS } from '@shared/contract/external';
import { sendDelivery } from '@shared/transfer';
import { addressedTo, extractLink, extractVerificationCode, linkToken as mailedLinkToken, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { totpCodes } from '@tests/support/totp';
import { call, postAuth, signIn, signInAdmin, type Session } from './core-helpers';

// Issue 12 §1: no token, code, password or session value reaches any log line. A realistic run
// against a real server writing its real log (the production logger, its redaction and
// serializers, at debug level): sign-in, an account made by the administrator and verified by
// the mailed code, password reset (also an old client still putting the token in the path),
// two-factor registration, sign-in with the code and removal, a level-1 delivery opened by an
// external recipient with the link token and downloaded. Every secret seen on the way is collected;
// then the whole log is searched for each of them.

const lines: string[] = [];
const secrets = new Set<string>();
let server: TestServer;

const remember = (...values: Array<string | null | undefined>) => {
  for (const value of values) if (value && value.length >= 6) secrets.add(value);
};
const remembered = (session: Session) => {
  remember(session.cookie.split('=')[1], session.csrf);
  return session;
};

beforeAll(async () => {
  server = await startTestServer({ logStream: { write: (line) => void lines.push(line) } });
});
afterAll(() => server?.close());

describe('the server log', () => {
  it('holds no password, token, code, TOTP secret, session or anti-forgery value after a full run', { timeout: 120_000 }, async () => {
    remember(server.admin.password);
    const admin = remembered(await signInAdmin(server));

    // An account made by the administrator; its owner proves the address with the mailed code.
    const bob = { email: 'bob@example.test', password: 'Bob-Original-Passw0rd' };
    remember(bob.password);
    expect((await call(server, admin, 'POST', '/api/2/admin/users', { email: bob.email, password: bob.password, language: 'en' })).status).toBe(201);
    expect((await postAuth(server, bob.email, bob.password)).response.status).toBe(401);
    const code = extractVerificationCode(await waitForMailboxMail(server.mailboxDir, addressedTo(bob.email)));
    remember(code);
    remembered((await postAuth(server, bob.email, bob.password, { j_verification_code: code })).session!);
    // Wrong passwords are logged as failures, never with the password.
    remember('Wrong-Guess-Passw0rd');
    expect((await postAuth(server, bob.email, 'Wrong-Guess-Passw0rd')).response.status).toBe(401);

    // Password reset: request, the mailed link, the page's check, an old client's GET, the confirm.
    expect((await call(server, null, 'POST', '/api/2/auth/password-reset/request', { email: bob.email })).status).toBe(204);
    const resetMail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(bob.email)(m) && m.text.includes('/auth/reset-password'));
    const resetLink = extractLink(resetMail, '/auth/reset-password');
    const token = mailedLinkToken(resetLink);
    remember(token);
    expect((await fetch(resetLink, { headers: { accept: 'text/html' } })).status).toBeLessThan(500);
    expect((await call(server, null, 'POST', '/api/2/auth/password-reset/check', { token })).status).toBe(204);
    expect((await call(server, null, 'GET', `/api/2/auth/password-reset/${token}`)).status).toBe(404);
    const newPassword = 'Bob-Reset-Passw0rd-2';
    remember(newPassword);
    expect((await call(server, null, 'POST', '/api/2/auth/password-reset/confirm', { token, password: newPassword })).status).toBe(204);

    // Two-factor from the account settings, sign-in with the code, removal with password and code.
    const bobSession = remembered(await signIn(server, bob.email, newPassword));
    const registration = (await (await call(server, bobSession, 'POST', '/api/2/user/totp/registration', { password: newPassword })).json()) as TotpRegistrationResponse;
    remember(registration.secret, registration.otpauthUri);
    const codes = totpCodes(registration.secret);
    const confirmCode = codes.next();
    remember(confirmCode);
    expect((await call(server, bobSession, 'POST', '/api/2/user/totp/confirm', { code: confirmCode })).status).toBe(204);
    const signInCode = codes.next();
    remember(signInCode);
    const withCode = await postAuth(server, bob.email, newPassword, { j_auth_app_code: signInCode });
    expect(withCode.response.status).toBe(200);
    remembered(withCode.session!);
    const removeCode = codes.next();
    remember(removeCode);
    expect((await call(server, withCode.session, 'POST', '/api/2/user/totp/reset', { password: newPassword, code: removeCode })).status).toBe(204);

    // A level-1 delivery with a file to an external recipient, opened with the link token and downloaded.
    const client = createApiClient({
      backendUrl: server.url,
      fetch: (input, init = {}) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), cookie: bobSession.cookie } }),
    });
    client.setAntiCsrfToken(bobSession.csrf);
    const outsider = 'outsider@outside.test';
    const sent = await sendDelivery({
      client,
      draft: { recipients: [outsider], subject: 'Log check', body: 'Confidential body', securityLevel: 0 },
      files: [{ name: 'report.txt', blob: new Blob(['the report'], { type: 'text/plain' }) }],
    });
    if (!sent.ok) throw new Error(JSON.stringify(sent.error));
    const notice = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(outsider)(m) && m.text.includes('/email-prompt/'));
    const link = extractLink(notice, '/secumails/');
    const shareUuid = link.pathname.split('/').pop()!;
    const linkToken = new URLSearchParams(link.hash.slice(1)).get('token')!;
    remember(linkToken);
    const checked = await call(server, null, 'POST', `/api/2${EXTERNAL_PATHS.emailCheck(shareUuid)}`, { email: outsider, token: linkToken });
    expect(checked.status).toBe(200);
    const proof = checked.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('KUVERT_SHARE_PROOF='))!;
    remember(proof.split('=')[1]);
    const { deliveryUuid } = sent.delivery;
    const fileId = sent.delivery.files[0]!.fileId;
    const view = await fetch(`${server.url}/api/2${DELIVERY_PATHS.one(deliveryUuid)}`, { headers: { [DELIVERY_TOKEN_HEADER]: linkToken, cookie: proof } });
    expect(view.status).toBe(200);
    const content = await fetch(`${server.url}/api/2${DELIVERY_PATHS.content(deliveryUuid, fileId)}?token=${encodeURIComponent(linkToken)}`, { headers: { cookie: proof } });
    expect(await content.text()).toBe('the report');

    // The log is real and covers the run: requests of every step are in it.
    const log = lines.join('');
    for (const path of ['/api/2/auth', '/api/2/auth/password-reset/check', '/api/2/user/totp/confirm', `/api/2${DELIVERY_PATHS.content(deliveryUuid, fileId)}`, '/api/2/auth/password-reset/[redacted]']) {
      expect(log, path).toContain(`"url":"${path}"`);
    }
    expect(secrets.size).toBeGreaterThan(15);
    for (const secret of secrets) {
      const leaking = lines.filter((line) => line.includes(secret) || line.includes(encodeURIComponent(secret)));
      expect(leaking, `a secret (${secret.slice(0, 3)}…) is in the log`).toEqual([]);
    }
  });
});
