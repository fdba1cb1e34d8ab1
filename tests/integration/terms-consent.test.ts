import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERMS_SETTING_KEYS, type TermsConsent } from '@shared/contract/terms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';

// Terms of use and privacy agreement (issue 34, shared/contract/terms.ts): stored with version and
// time, audit-logged, asked again for a new version; only the version in force can be agreed to.
let server: TestServer;
let admin: Session;
let user: Session;
const TERMS = '/api/2/user/terms';

const consentOf = async (session: Session): Promise<TermsConsent> => {
  const response = await call(server, session, 'GET', TERMS);
  expect(response.status).toBe(200);
  return (await response.json()) as TermsConsent;
};

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'reader@example.test', language: 'de' });
  user = await signIn(server, 'reader@example.test', 'Good-Passw0rd');
});
afterAll(async () => server?.close());

describe('terms of use agreement', () => {
  it('asks nobody while no version is in force; agreeing to a version not in force is refused', async () => {
    expect(await consentOf(user)).toEqual({ version: 0, acceptedVersion: null, acceptedAt: null, required: false, text: '' });
    await expectBackendError(await call(server, user, 'POST', TERMS, { version: 1 }), 409, 'ConflictException');
  });

  it('who may call: signed out 401, without the anti-forgery header 403, bad bodies 400', async () => {
    await expectBackendError(await call(server, null, 'GET', TERMS), 401);
    await expectBackendError(await call(server, null, 'POST', TERMS, { version: 1 }), 401);
    await expectBackendError(await call(server, user, 'POST', TERMS, { version: 1 }, { csrf: null }), 403);
    for (const body of [{}, { version: 0 }, { version: 1.5 }, { version: '1' }, { version: 1, extra: true }, { version: 10_000_001 }]) {
      await expectBackendError(await call(server, user, 'POST', TERMS, body), 400, 'ValidationException');
    }
    // The version setting takes integers from 0 only.
    for (const value of [-1, 1.5, 'two']) {
      await expectBackendError(await call(server, admin, 'PUT', '/api/2/admin/settings', { [TERMS_SETTING_KEYS.version]: value }), 400, 'ValidationException');
    }
    // A user may not number the terms.
    await expectBackendError(await call(server, user, 'PUT', '/api/2/admin/settings', { [TERMS_SETTING_KEYS.version]: 1 }), 403);
  });

  it('a version in force is asked, stored with its time and an audit entry; a new version asks again', async () => {
    await updateSettings(server, admin, { [TERMS_SETTING_KEYS.version]: 2, [`${TERMS_SETTING_KEYS.text}.en`]: 'Play fair.' });
    const asked = await consentOf(user);
    // German reader, no German text: the English one.
    expect(asked).toEqual({ version: 2, acceptedVersion: null, acceptedAt: null, required: true, text: 'Play fair.' });
    await expectBackendError(await call(server, user, 'POST', TERMS, { version: 1 }), 409, 'ConflictException');

    const before = Date.now();
    const response = await call(server, user, 'POST', TERMS, { version: 2 });
    expect(response.status).toBe(200);
    const agreed = (await response.json()) as TermsConsent;
    expect(agreed).toMatchObject({ version: 2, acceptedVersion: 2, required: false });
    expect(Date.parse(agreed.acceptedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(await consentOf(user)).toEqual(agreed);
    const row = await server.app.db.selectFrom('users').select(['terms_accepted_version', 'terms_accepted_at']).where('email', '=', 'reader@example.test').executeTakeFirstOrThrow();
    expect(row.terms_accepted_version).toBe(2);
    expect(Number(row.terms_accepted_at)).toBe(Date.parse(agreed.acceptedAt!));
    const audit = await call(server, admin, 'GET', '/api/2/admin/audit-log?action=user.termsAccepted');
    expect(audit.status).toBe(200);
    const entries = ((await audit.json()) as { entries: Array<{ action: string; details: Record<string, unknown> }> }).entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'user.termsAccepted', details: { version: 2 } });
    // The administrator has not agreed: still asked.
    expect((await consentOf(admin)).required).toBe(true);

    await updateSettings(server, admin, { [TERMS_SETTING_KEYS.version]: 3, [`${TERMS_SETTING_KEYS.text}.de`]: 'Fair spielen.' });
    expect(await consentOf(user)).toMatchObject({ version: 3, acceptedVersion: 2, required: true, text: 'Fair spielen.' });
  });
});
