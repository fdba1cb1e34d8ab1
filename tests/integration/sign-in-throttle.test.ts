import { AUTHORIZATION_ERROR, AUTHORIZATION_ERRORS_HEADER, type AuthorizationErrorEntry } from '@shared/contract/errors';
import { addressedTo, extractLink, linkToken, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  LOGIN_ADDRESS_ACCOUNT_LIMIT,
  LOGIN_DELAY_FREE_FAILURES,
  LOGIN_NOTICE_AFTER_FAILURES,
} from '../../server/security/login-throttle';
import { expectBackendError, forgetFailures } from './core-helpers';
import { api, basic, captchaAnswer, createUser, type TestUser } from './escalation-helpers';

/**
 * Sign-in throttling (issue 12 §2) on the real server: per-account progressive delays answered
 * 429 + Retry-After (no sleeping: the stored next-allowed time is moved instead of waiting), the
 * notice mail once per day, the per-address limit on distinct accounts, and X-Forwarded-For only
 * from configured proxies (KUVERT_TRUST_PROXY).
 */

/** A large first delay, so a 429 is certain; the tests move the stored time instead of waiting. */
const DELAY_MS = 60_000;

let server: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  // The test client connects from 127.0.0.1: trusting it lets the tests play several client addresses.
  server = await startTestServer({ config: { trustProxy: '127.0.0.1', loginDelayMs: DELAY_MS, loginDelayMaxMs: 10 * DELAY_MS } });
  alice = await createUser(server, { username: 'alice' });
  bob = await createUser(server, { username: 'bob' });
}, 60_000);
afterEach(() => forgetFailures(server));
afterAll(() => server?.close());

interface Attempt {
  status: number;
  errors: AuthorizationErrorEntry[];
  response: Response;
}

/** POST /auth from a client address (X-Forwarded-For); answers a captcha when asked for one. */
async function tryLogin(target: TestServer, login: string, password: string, options: { from?: string } = {}): Promise<Attempt> {
  const send = async (query: string) => {
    const headers: Record<string, string> = { authorization: basic(login, password), 'content-type': 'application/json' };
    if (options.from) headers['x-forwarded-for'] = options.from;
    const response = await fetch(`${target.url}/api/2/auth${query}`, { method: 'POST', headers });
    const header = response.headers.get(AUTHORIZATION_ERRORS_HEADER);
    return { status: response.status, errors: header ? (JSON.parse(header) as AuthorizationErrorEntry[]) : [], response };
  };
  const first = await send('');
  if (first.errors[0]?.authorizationError !== AUTHORIZATION_ERROR.CAPTCHA_REQUIRED) return first;
  // The captcha rule (DESIGN §9) stays: solve one, as a person would.
  const { captchaId } = await target.app.captchas.issue();
  const answer = await captchaAnswer(target, captchaId);
  return send(`?${new URLSearchParams({ j_captcha: answer, j_captcha_id: captchaId }).toString()}`);
}

/** Time passes for every throttled account (the stored next-allowed time moves into the past). */
async function delayPasses(target: TestServer): Promise<void> {
  await target.app.db.updateTable('login_throttles').set({ next_allowed_at: 0 }).execute();
}

async function fail(target: TestServer, login: string, times: number, from?: string): Promise<void> {
  for (let i = 0; i < times; i++) {
    const attempt = await tryLogin(target, login, `wrong-${i}`, { from });
    expect(attempt.status, `failure ${i + 1} of ${login}`).toBe(401);
    expect(attempt.errors[0]?.authorizationError).toBe(AUTHORIZATION_ERROR.WRONG_CREDENTIALS);
  }
}

describe('per-account progressive delay', () => {
  it('after the free failures the account waits (429, Retry-After, SPEC §8 shape) even with the right password; the delay doubles; it ends and a sign-in clears it', async () => {
    await fail(server, 'alice', LOGIN_DELAY_FREE_FAILURES, '198.51.100.1');

    const early = await tryLogin(server, 'alice', alice.password, { from: '198.51.100.1' });
    const body = await expectBackendError(early.response, 429, 'RateLimitExceededException');
    expect(body.metadata).toMatchObject({ reason: 'accountDelay', retryAfterSeconds: DELAY_MS / 1000 });
    expect(Number(early.response.headers.get('retry-after'))).toBe(DELAY_MS / 1000);
    // From another address too: the delay belongs to the name, wherever the tries come from.
    await expectBackendError((await tryLogin(server, 'alice', alice.password, { from: '203.0.113.50' })).response, 429);
    // Her email is another name: answered like any name (a shared delay would reveal that both are one account).
    expect((await tryLogin(server, alice.email, 'still-wrong', { from: '203.0.113.50' })).status).toBe(401);

    await delayPasses(server);
    await fail(server, 'alice', 1, '198.51.100.1');
    const doubled = await tryLogin(server, 'alice', alice.password, { from: '198.51.100.1' });
    expect(doubled.status).toBe(429);
    expect(Number(doubled.response.headers.get('retry-after'))).toBe((2 * DELAY_MS) / 1000);

    await delayPasses(server);
    expect((await tryLogin(server, 'alice', alice.password, { from: '198.51.100.1' })).status).toBe(200);
    // Cleared: the next failures are free again.
    await fail(server, 'alice', 1, '198.51.100.1');
    expect((await tryLogin(server, 'alice', alice.password, { from: '198.51.100.1' })).status).toBe(200);
  });

  it('a burst of wrong passwords for alice from one address does not lock bob out who shares the same proxy', async () => {
    const office = '192.0.2.10';
    let refused = 0;
    for (let i = 0; i < 3 * LOGIN_DELAY_FREE_FAILURES; i++) {
      const attempt = await tryLogin(server, 'alice', `burst-${i}`, { from: office });
      expect([401, 429]).toContain(attempt.status);
      if (attempt.status === 429) refused++;
    }
    // Only the free failures reached the password check; the rest waited.
    expect(refused).toBe(2 * LOGIN_DELAY_FREE_FAILURES);
    // Bob, same address: at most the captcha (DESIGN §9), never a delay or a lock.
    const bobsTry = await tryLogin(server, 'bob', bob.password, { from: office });
    expect(bobsTry.status).toBe(200);
    // Alice herself is still delayed.
    expect((await tryLogin(server, 'alice', alice.password, { from: office })).status).toBe(429);
  });

  it('a password reset by the owner (the mailed link) ends a delay an attacker caused', async () => {
    const erin = await createUser(server, { username: 'erin' });
    await fail(server, 'erin', LOGIN_DELAY_FREE_FAILURES, '198.51.100.5');
    expect((await tryLogin(server, 'erin', erin.password, { from: '198.51.100.5' })).status).toBe(429);
    const requested = await api(server, '/auth/password-reset/request', { method: 'POST', body: { email: erin.email } });
    expect(requested.status).toBe(204);
    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(erin.email)(m) && m.text.includes('/auth/reset-password'));
    const token = linkToken(extractLink(mail, '/auth/reset-password'));
    const newPassword = 'Brand-New-Passw0rd-8';
    expect((await api(server, '/auth/password-reset/confirm', { method: 'POST', body: { token, password: newPassword } })).status).toBe(204);
    // No 429 any more (the captcha rule of the address may still ask for a captcha: tryLogin answers it).
    expect((await tryLogin(server, 'erin', newPassword, { from: '198.51.100.6' })).status).toBe(200);
  });

  it('unknown names are delayed alike (the answer does not tell who exists)', async () => {
    await fail(server, 'nobody-here', LOGIN_DELAY_FREE_FAILURES, '198.51.100.2');
    const attempt = await tryLogin(server, 'nobody-here', 'whatever', { from: '198.51.100.2' });
    expect((await expectBackendError(attempt.response, 429)).metadata).toMatchObject({ reason: 'accountDelay' });
  });

  it('the pre-login calls with Basic credentials honour the delay too (no side door)', async () => {
    await fail(server, 'alice', LOGIN_DELAY_FREE_FAILURES, '198.51.100.3');
    const response = await fetch(`${server.url}/api/2/auth/totp/registration`, {
      method: 'POST',
      headers: { authorization: basic('alice', alice.password), 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.3' },
    });
    expect((await expectBackendError(response, 429)).metadata).toMatchObject({ reason: 'accountDelay' });
  });
});

describe('KUVERT_LOGIN_DELAY=0', () => {
  it('turns the delays off: many failures cost captchas, never a wait', async () => {
    const undelayed = await startTestServer({ config: { loginDelayMs: 0 } });
    try {
      const dora = await createUser(undelayed, { username: 'dora' });
      await fail(undelayed, 'dora', 2 * LOGIN_DELAY_FREE_FAILURES);
      expect((await tryLogin(undelayed, 'dora', dora.password)).status).toBe(200);
    } finally {
      await undelayed.close();
    }
  });
});

describe('notice mail to the account owner', () => {
  it('is sent once when the failures show an attack, not per try', async () => {
    const carol = await createUser(server, { username: 'carol' });
    const mailsFor = async () => (await readMailbox(server.mailboxDir)).filter(addressedTo(carol.email)).filter((m) => /failed sign-ins/.test(m.subject));
    for (let i = 0; i < LOGIN_NOTICE_AFTER_FAILURES - 1; i++) {
      await fail(server, 'carol', 1, '203.0.113.77');
      await delayPasses(server);
    }
    expect(await mailsFor()).toHaveLength(0);
    await fail(server, 'carol', 1, '203.0.113.77');
    const notice = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(carol.email)(m) && /failed sign-ins/.test(m.subject));
    expect(notice.text).toContain(`${LOGIN_NOTICE_AFTER_FAILURES} sign-ins`);
    expect(notice.text).toContain('203.0.113.77');
    for (let i = 0; i < 5; i++) {
      await delayPasses(server);
      await fail(server, 'carol', 1, '203.0.113.78');
    }
    // One claim per day in the database: the later failures sent nothing.
    const row = await server.app.db.selectFrom('login_throttles').select(['failures', 'notified_at']).where('account', '=', 'login:carol').executeTakeFirstOrThrow();
    expect(Number(row.failures)).toBe(LOGIN_NOTICE_AFTER_FAILURES + 5);
    expect(row.notified_at).not.toBeNull();
    expect(await mailsFor()).toHaveLength(1);
  });
});

describe('per-address limit', () => {
  it('an address that failed for too many different accounts is refused (even a right password), other addresses are not', async () => {
    const sprayer = '203.0.113.99';
    for (let i = 0; i < LOGIN_ADDRESS_ACCOUNT_LIMIT; i++) await fail(server, `spray-${i}@example.test`, 1, sprayer);
    const refused = await tryLogin(server, 'bob', bob.password, { from: sprayer });
    const body = await expectBackendError(refused.response, 429, 'RateLimitExceededException');
    expect(body.metadata).toMatchObject({ reason: 'addressLimit' });
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await tryLogin(server, 'bob', bob.password, { from: '203.0.113.100' })).status).toBe(200);
  });
});

describe('X-Forwarded-For (KUVERT_TRUST_PROXY)', () => {
  /** Three failures for different accounts "from" three addresses; then a fourth account: does it need a captcha? */
  async function captchaAfterSpreadFailures(target: TestServer): Promise<boolean> {
    const user = await createUser(target, { username: `xff-${Math.random().toString(36).slice(2, 8)}` });
    for (const [i, from] of ['198.51.100.21', '198.51.100.22', '198.51.100.23'].entries()) {
      await fetch(`${target.url}/api/2/auth`, { method: 'POST', headers: { authorization: basic(`someone-${i}`, 'wrong'), 'x-forwarded-for': from } });
    }
    const response = await fetch(`${target.url}/api/2/auth`, {
      method: 'POST',
      headers: { authorization: basic(user.username, user.password), 'x-forwarded-for': '198.51.100.24' },
    });
    const header = response.headers.get(AUTHORIZATION_ERRORS_HEADER);
    const errors = header ? (JSON.parse(header) as AuthorizationErrorEntry[]) : [];
    return errors[0]?.authorizationError === AUTHORIZATION_ERROR.CAPTCHA_REQUIRED;
  }

  it('is used from a configured proxy: four client addresses, no captcha', async () => {
    expect(await captchaAfterSpreadFailures(server)).toBe(false);
  });

  it('is ignored without KUVERT_TRUST_PROXY and from a peer that is not a configured proxy: one address, captcha', async () => {
    const plain = await startTestServer();
    const otherProxy = await startTestServer({ config: { trustProxy: '10.0.0.0/8, 192.168.1.1' } });
    try {
      expect(await captchaAfterSpreadFailures(plain)).toBe(true);
      expect(await captchaAfterSpreadFailures(otherProxy)).toBe(true);
    } finally {
      await plain.close();
      await otherProxy.close();
    }
  });
});
