import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTHORIZATION_ERROR as CODE } from '@shared/contract/errors';
import { addressedTo, extractLink, linkToken, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { api, codeOf, createUser, login } from './escalation-helpers';

/** Password reset by mailed link, and the signed-in password change, on a real server. */

/** The reset page's check: the token in the body (paths are logged). */
const checkToken = (token: string) => api(server, '/auth/password-reset/check', { method: 'POST', body: { token } });
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server?.close());

const NEW_PASSWORD = 'Brand-New-Passw0rd';

async function requestReset(email: string, language?: 'de' | 'en' | 'fr'): Promise<Response> {
  return api(server, '/auth/password-reset/request', { method: 'POST', body: { email, ...(language ? { language } : {}) } });
}

async function resetTokenFromMail(address: string): Promise<string> {
  const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(address));
  const link = extractLink(mail, '/auth/reset-password');
  expect(link.origin).toBe(server.url);
  return linkToken(link);
}

describe('password reset', () => {
  it('request → mail in the user’s language → link → new password; old one fails, sessions end, token is single use', async () => {
    const anna = await createUser(server, { username: 'anna', language: 'fr' });
    const before = await login(server, anna);
    expect(before.status).toBe(200);

    // The account's language wins over the requester's.
    expect((await requestReset(anna.email.toUpperCase(), 'de')).status).toBe(204);
    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo(anna.email));
    expect(mail.subject).toBe('Kuvert : réinitialiser votre mot de passe');
    // Issue 28 §1: the token in the fragment, never in the query (no proxy log or Referer keeps it).
    expect(mail.html).toContain('/auth/reset-password#token=');
    expect(`${mail.text}${mail.html}`).not.toMatch(/[?&]token=/);
    // A reset is no invitation: the page keeps the "new password" wording.
    expect(extractLink(mail, '/auth/reset-password').search).toBe('');
    const token = linkToken(extractLink(mail, '/auth/reset-password'));
    // ≥128 bits, and only its hash is stored.
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await server.app.db.selectFrom('password_reset_tokens').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(token);

    expect((await checkToken(token)).status).toBe(204);
    expect((await checkToken('not-a-token')).status).toBe(404);
    // The old GET with the token in the path is gone: no token is ever looked up from a path.
    expect((await api(server, `/auth/password-reset/${token}`)).status).toBe(404);

    const weak = await api(server, '/auth/password-reset/confirm', { method: 'POST', body: { token, password: 'short' } });
    expect(weak.status).toBe(400);
    expect(await weak.json()).toMatchObject({ error: 'ValidationException', metadata: { reason: 'policy', violations: expect.arrayContaining(['minLength']) } });

    expect((await api(server, '/auth/password-reset/confirm', { method: 'POST', body: { token, password: NEW_PASSWORD } })).status).toBe(204);

    // The session opened with the old password is gone.
    expect((await api(server, '/user', { cookie: before.cookie })).status).toBe(401);
    expect(codeOf(await login(server, anna))).toBe(CODE.WRONG_CREDENTIALS);
    expect((await login(server, { ...anna, password: NEW_PASSWORD })).status).toBe(200);

    // Single use.
    expect((await checkToken(token)).status).toBe(410);
    const reuse = await api(server, '/auth/password-reset/confirm', { method: 'POST', body: { token, password: 'Another-Passw0rd-2' } });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'ValidationException', metadata: { reason: 'token' } });

    // A notice of the change follows.
    await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(anna.email)(m) && m.subject.includes('modifié'));
  });

  it('answers 204 for an unknown address and mails nothing (no account enumeration)', async () => {
    const unknown = await requestReset('nobody@example.test');
    expect(unknown.status).toBe(204);
    const disabled = await createUser(server, { username: 'dora' });
    await server.app.users.update(disabled.id, { disabled: 1 });
    expect((await requestReset(disabled.email)).status).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(await readMailbox(server.mailboxDir)).toEqual([]);
  });

  it('refuses an expired link and only the newest link works', async () => {
    const ben = await createUser(server, { username: 'ben' });
    await requestReset(ben.email);
    const first = await resetTokenFromMail(ben.email);
    await requestReset(ben.email);
    const deadline = Date.now() + 10_000;
    let second = first;
    while (second === first && Date.now() < deadline) {
      const mails = (await readMailbox(server.mailboxDir)).filter(addressedTo(ben.email));
      if (mails.length === 2) second = linkToken(extractLink(mails[1]!, '/auth/reset-password'));
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(second).not.toBe(first);
    expect((await checkToken(first)).status).toBe(404);
    expect((await checkToken(second)).status).toBe(204);

    await server.app.db.updateTable('password_reset_tokens').set({ expires_at: Date.now() - 1 }).execute();
    expect((await checkToken(second)).status).toBe(410);
    const expired = await api(server, '/auth/password-reset/confirm', { method: 'POST', body: { token: second, password: NEW_PASSWORD } });
    expect(expired.status).toBe(400);
    expect(codeOf(await login(server, { ...ben, password: NEW_PASSWORD }))).toBe(CODE.WRONG_CREDENTIALS);
  });

  it('is rate limited per address and per IP with 429 RateLimitExceededException', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await requestReset('someone@example.test')).status);
    expect(statuses).toEqual([204, 204, 204, 429]);
    const limited = await requestReset('SOMEONE@example.test');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: 'RateLimitExceededException' });

    // Other addresses from the same IP: 10 requests an hour in all (refused ones count too).
    const more: number[] = [];
    for (let i = 0; i < 6; i++) more.push((await requestReset(`other${i}@example.test`)).status);
    expect(more).toEqual([204, 204, 204, 204, 204, 429]);
  });

  it('refuses malformed bodies with 400', async () => {
    expect((await api(server, '/auth/password-reset/request', { method: 'POST', body: { email: 'a@b.c', extra: 1 } })).status).toBe(400);
    expect((await api(server, '/auth/password-reset/confirm', { method: 'POST', body: { token: '', password: 'x' } })).status).toBe(400);
  });
});

describe('password change while signed in', () => {
  it('needs the current password and the policy, keeps this session and ends the others', async () => {
    const cleo = await createUser(server, { username: 'cleo' });
    const here = await login(server, cleo);
    const elsewhere = await login(server, cleo);
    const change = (body: unknown, csrf = here.csrf) => api(server, '/user/password', { method: 'POST', body, cookie: here.cookie, csrf });

    expect((await change({ currentPassword: cleo.password, newPassword: NEW_PASSWORD }, null)).status).toBe(403);
    const wrongCurrent = await change({ currentPassword: 'nope', newPassword: NEW_PASSWORD });
    expect(wrongCurrent.status).toBe(400);
    expect(await wrongCurrent.json()).toMatchObject({ metadata: { reason: 'currentPassword' } });
    const weak = await change({ currentPassword: cleo.password, newPassword: 'weak' });
    expect(weak.status).toBe(400);
    expect(await weak.json()).toMatchObject({ metadata: { reason: 'policy' } });

    expect((await change({ currentPassword: cleo.password, newPassword: NEW_PASSWORD })).status).toBe(204);
    expect((await api(server, '/user', { cookie: here.cookie })).status).toBe(200);
    expect((await api(server, '/user', { cookie: elsewhere.cookie })).status).toBe(401);
    expect(codeOf(await login(server, cleo))).toBe(CODE.WRONG_CREDENTIALS);
    expect((await login(server, { ...cleo, password: NEW_PASSWORD })).status).toBe(200);
    await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(cleo.email)(m) && m.subject.includes('changed'));
  });

  it('stops guessing the current password after 5 wrong tries', async () => {
    const dan = await createUser(server, { username: 'dan' });
    const session = await login(server, dan);
    const change = (currentPassword: string) =>
      api(server, '/user/password', { method: 'POST', body: { currentPassword, newPassword: NEW_PASSWORD }, cookie: session.cookie, csrf: session.csrf });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await change(`guess-${i}`)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    const limited = await change(dan.password);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: 'RateLimitExceededException' });
  });
});
