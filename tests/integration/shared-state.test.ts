import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AUTHORIZATION_ERROR } from '@shared/contract/errors';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_SWEEP_JOB, DRAFT_MAX_AGE_MS, SWEEP_INTERVAL_MS } from '../../server/deliveries/cleanup';
import { ConfigError } from '../../server/config';
import { LOGIN_DELAY_FREE_FAILURES } from '../../server/security/login-throttle';
import { SECRET_KEY_FILE, SECRET_KEY_MISMATCH } from '../../server/security/secret-box';
import { call, createUserAsAdmin, expectBackendError, forgetFailures, signIn, signInAdmin } from './core-helpers';
import { captchaAnswer, codeOf, createUser, login } from './escalation-helpers';

/**
 * Issue 18 §2: what several servers must share lives in the database. Two real servers (A and B)
 * on one database (the same SQLite file, or the same PostgreSQL schema with
 * KUVERT_TEST_DATABASE_URL): the expiry sweep runs once per period across both, a captcha issued
 * by A is answered at B, and limits reached on A hold on B. Time passing is the job row's
 * `run_at` moving into the past, never a wait.
 */

/** A large first sign-in delay, so the 429 is certain. */
const DELAY_MS = 60_000;
/** Neither server polls by itself during the test: a kick starts work, `whenIdle` awaits it. */
const NO_POLL = 600_000;

let a: TestServer;
let b: TestServer;
const logA: string[] = [];
const logB: string[] = [];

beforeAll(async () => {
  const config = { jobPollIntervalMs: NO_POLL, loginDelayMs: DELAY_MS, loginDelayMaxMs: 10 * DELAY_MS };
  a = await startTestServer({ config, logStream: { write: (line) => void logA.push(line) } });
  await a.app.jobs.whenIdle();
  b = await startTestServer({ config, reuse: { dataDir: a.dataDir, databaseSchema: a.databaseSchema }, logStream: { write: (line) => void logB.push(line) } });
  await b.app.jobs.whenIdle();
}, 60_000);
afterEach(() => forgetFailures(a));
afterAll(async () => {
  await b?.close({ keepData: true });
  await a?.close();
});

const sweepRuns = (lines: string[]) => lines.filter((line) => (JSON.parse(line) as { msg?: string }).msg === 'delivery sweep ran').length;
const sweepRows = () => a.app.db.selectFrom('jobs').selectAll().where('kind', '=', DELIVERY_SWEEP_JOB).execute();

async function bothIdle(): Promise<void> {
  await Promise.all([a.app.jobs.whenIdle(), b.app.jobs.whenIdle()]);
}

describe('the expiry sweep is a leased periodic job', () => {
  it('runs once per period across two servers, whichever wins the lease, and does its work', async () => {
    // The first start inserted it, due one period later; the second found the row and left it.
    expect(sweepRuns(logA) + sweepRuns(logB)).toBe(0);
    let [row] = await sweepRows();
    expect(await sweepRows()).toHaveLength(1);
    expect(row).toMatchObject({ state: 'pending', unique_key: DELIVERY_SWEEP_JOB, locked_by: null });
    expect(row!.run_at - row!.updated_at).toBe(SWEEP_INTERVAL_MS);

    // Kicked before the period is over: nobody runs it.
    a.app.jobs.kick();
    b.app.jobs.kick();
    await bothIdle();
    expect(sweepRuns(logA) + sweepRuns(logB)).toBe(0);

    for (let period = 1; period <= 6; period++) {
      await a.app.db.updateTable('jobs').set({ run_at: Date.now() - 1 }).where('kind', '=', DELIVERY_SWEEP_JOB).execute();
      a.app.jobs.kick();
      b.app.jobs.kick();
      await bothIdle();
      expect(sweepRuns(logA) + sweepRuns(logB), `period ${period}`).toBe(period);
      expect(await sweepRows()).toHaveLength(1);
    }
    [row] = await sweepRows();
    expect(row).toMatchObject({ state: 'pending', attempts: 0, last_error: null });

    // The job is the real sweep: an abandoned draft made through A is dropped by whoever runs it.
    const admin = await signInAdmin(a);
    await createUserAsAdmin(a, admin, { email: 'sweep@example.test' });
    const sender = await signIn(a, 'sweep@example.test', 'Good-Passw0rd');
    const created = await call(a, sender, 'POST', '/api/2/deliveries', { recipients: ['x@partner.test'], subject: 'Abandoned', body: '', securityLevel: 0 });
    expect(created.status, await created.clone().text()).toBe(201);
    const { deliveryUuid } = (await created.json()) as { deliveryUuid: string };
    await a.app.db.updateTable('deliveries').set({ created_at: Date.now() - DRAFT_MAX_AGE_MS - 1000 }).where('uuid', '=', deliveryUuid).execute();
    await a.app.db.updateTable('jobs').set({ run_at: Date.now() - 1 }).where('kind', '=', DELIVERY_SWEEP_JOB).execute();
    a.app.jobs.kick();
    b.app.jobs.kick();
    await bothIdle();
    expect(sweepRuns(logA) + sweepRuns(logB)).toBe(7);
    expect((await a.app.db.selectFrom('deliveries').select('status').where('uuid', '=', deliveryUuid).executeTakeFirstOrThrow()).status).toBe('deleted');
  });

  it('the escalation clean-up, the form submission sweep, the room sweep, the room retention, the room trash retention and the session purge are single periodic rows as well', async () => {
    const kinds = await a.app.db.selectFrom('jobs').select(['kind', 'unique_key']).where('unique_key', 'is not', null).orderBy('kind').execute();
    expect(kinds).toEqual([
      { kind: DELIVERY_SWEEP_JOB, unique_key: DELIVERY_SWEEP_JOB },
      { kind: 'escalation-cleanup', unique_key: 'escalation-cleanup' },
      { kind: 'form-submission-sweep', unique_key: 'form-submission-sweep' },
      { kind: 'room-retention', unique_key: 'room-retention' },
      { kind: 'room-sweep', unique_key: 'room-sweep' },
      { kind: 'room-trash-retention', unique_key: 'room-trash-retention' },
      { kind: 'session-purge', unique_key: 'session-purge' },
    ]);
  });
});

describe('captcha and limits hold across servers', () => {
  it('a captcha issued by A is answered at B, once', async () => {
    const user = await createUser(a, { username: 'cross' });
    const cross = { username: user.username, password: user.password };
    // Three failures, alternating servers: the captcha rule counts them all.
    expect(codeOf(await login(a, { ...cross, password: 'wrong-1' }))).toBe(AUTHORIZATION_ERROR.WRONG_CREDENTIALS);
    expect(codeOf(await login(b, { ...cross, password: 'wrong-2' }))).toBe(AUTHORIZATION_ERROR.WRONG_CREDENTIALS);
    expect(codeOf(await login(a, { ...cross, password: 'wrong-3' }))).toBe(AUTHORIZATION_ERROR.WRONG_CREDENTIALS);
    expect(codeOf(await login(b, cross))).toBe(AUTHORIZATION_ERROR.CAPTCHA_REQUIRED);

    const issued = await fetch(`${a.url}/api/2/auth/captcha`);
    expect(issued.status).toBe(200);
    const { captchaId } = (await issued.json()) as { captchaId: string };
    const answer = await captchaAnswer(a, captchaId);
    const answeredAtB = await login(b, cross, { j_captcha: answer, j_captcha_id: captchaId });
    expect(answeredAtB.status, JSON.stringify(answeredAtB.errors)).toBe(200);
    // Answered once: the same captcha at A again is refused (consumed in the shared table).
    await forgetFailures(a);
    for (let i = 0; i < 3; i++) await login(a, { ...cross, password: `wrong-${i}` });
    expect(codeOf(await login(a, cross, { j_captcha: answer, j_captcha_id: captchaId }))).toBe(AUTHORIZATION_ERROR.CAPTCHA_REQUIRED);

    // And a session made by B works at A.
    const cookie = answeredAtB.cookie!;
    const me = await fetch(`${a.url}/api/2/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
  });

  it('a sign-in delay reached on A holds on B', async () => {
    const admin = await signInAdmin(a);
    await createUserAsAdmin(a, admin, { email: 'throttled@example.test' });
    await forgetFailures(a);
    const target = { username: 'throttled@example.test', password: 'Good-Passw0rd' };
    // Failures on A only (the captcha after three is answered through the shared table).
    for (let i = 0; i < LOGIN_DELAY_FREE_FAILURES; i++) {
      let attempt = await login(a, { ...target, password: `wrong-${i}` });
      if (codeOf(attempt) === AUTHORIZATION_ERROR.CAPTCHA_REQUIRED) {
        const { captchaId } = await a.app.captchas.issue();
        attempt = await login(a, { ...target, password: `wrong-${i}` }, { j_captcha: await captchaAnswer(a, captchaId), j_captcha_id: captchaId });
      }
      expect(codeOf(attempt), `failure ${i + 1}`).toBe(AUTHORIZATION_ERROR.WRONG_CREDENTIALS);
    }
    // B refuses even the right password, before looking at it.
    const atB = await fetch(`${b.url}/api/2/auth`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${target.username}:${target.password}`).toString('base64')}`, 'content-type': 'application/json' },
    });
    const body = await expectBackendError(atB, 429, 'RateLimitExceededException');
    expect(body.metadata).toMatchObject({ reason: 'accountDelay', retryAfterSeconds: DELAY_MS / 1000 });
  });

  it('a rate limit reached on A (captcha issuing per address) holds on B', async () => {
    let status = 200;
    let issued = 0;
    // The per-address limit on captcha images: spend it at A.
    while (status === 200 && issued < 1000) {
      status = (await fetch(`${a.url}/api/2/auth/captcha`)).status;
      if (status === 200) issued++;
    }
    expect(status).toBe(429);
    expect(issued).toBeGreaterThan(0);
    await expectBackendError(await fetch(`${b.url}/api/2/auth/captcha`), 429, 'RateLimitExceededException');
  });
});

describe('the key that seals two-factor secrets', () => {
  it('a server with another key than the installation\'s refuses to start with one line; the same key given by KUVERT_SECRET_KEY starts', async () => {
    const reuse = { dataDir: a.dataDir, databaseSchema: a.databaseSchema };
    const otherKey = randomBytes(32).toString('base64');
    const refused = await startTestServer({ config: { secretKey: otherKey }, reuse }).then(
      async (server) => {
        await server.close({ keepData: true });
        return null;
      },
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toBe(SECRET_KEY_MISMATCH);
    expect((refused as Error).message).not.toContain('\n');
    expect((refused as Error).message).not.toContain(otherKey);

    const sameKey = (await readFile(join(a.dataDir, SECRET_KEY_FILE), 'utf8')).trim();
    const c = await startTestServer({ config: { secretKey: sameKey }, reuse });
    await c.close({ keepData: true });
  });
});

