import { getRecipientStatus } from '@shared/api/endpoints/delivery-send';
import { DELIVERY_PATHS, MAX_RECIPIENT_STATUS_EMAILS, type DeliveryDetail } from '@shared/contract/deliveries';
import { EXTERNAL_PATHS, EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECIPIENT_STATUS_LIMIT } from '../../server/deliveries/e2e';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';

/**
 * POST /deliveries/recipient-status (SPEC §5 chip warnings) on the real server: registered and
 * passphrase per address, nothing more; senders only; rate limited per sender.
 */

const URL_PATH = `/api/2${DELIVERY_PATHS.recipientStatus}`;
let server: TestServer;
let admin: Session;
let sender: E2eActor;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'rs-sender@example.test' });
  await createUserAsAdmin(server, admin, { email: 'rs-keyed@example.test' });
  await createUserAsAdmin(server, admin, { email: 'rs-plain@example.test' });
  await createUserAsAdmin(server, admin, { email: 'rs-reader@example.test' });
  // A signed-in user without ROLE_SENDER (an administrator can take it away).
  const reader = await server.app.users.findByLogin('rs-reader@example.test');
  await server.app.users.update(reader!.id, { roles: JSON.stringify(['ROLE_UI_USER', 'ROLE_RECEIVER']) });
  sender = await e2eActor(server, await signIn(server, 'rs-sender@example.test', 'Good-Passw0rd'));
  const keyed = await e2eActor(server, await signIn(server, 'rs-keyed@example.test', 'Good-Passw0rd'));
  await giveSecuPass(keyed, 'Keyed-SecuPass-status-Meadow-51');
}, 60_000);
afterAll(() => server?.close());

describe('POST /deliveries/recipient-status', () => {
  it('answers registered and passphrase per address, in the order asked, case-insensitively, and nothing else', async () => {
    const answer = await getRecipientStatus(sender.client, ['RS-Keyed@Example.test', 'rs-plain@example.test', 'nobody@example.test']);
    expect(answer).toEqual({
      recipients: [
        { email: 'RS-Keyed@Example.test', registered: true, hasPassphrase: true },
        { email: 'rs-plain@example.test', registered: true, hasPassphrase: false },
        { email: 'nobody@example.test', registered: false, hasPassphrase: false },
      ],
    });
  });

  it('refuses anonymous callers, callers without ROLE_SENDER and requests without the anti-forgery header', async () => {
    await expectBackendError(await call(server, null, 'POST', URL_PATH, { emails: ['rs-plain@example.test'] }), 401);
    const reader = await signIn(server, 'rs-reader@example.test', 'Good-Passw0rd');
    await expectBackendError(await call(server, reader, 'POST', URL_PATH, { emails: ['rs-plain@example.test'] }), 403);
    const own = await signIn(server, 'rs-sender@example.test', 'Good-Passw0rd');
    const noCsrf = await call(server, own, 'POST', URL_PATH, { emails: ['rs-plain@example.test'] }, { csrf: null });
    expect(noCsrf.status).toBe(403);
  });

  it('answers bad bodies with 400 in the SPEC §8 shape', async () => {
    const own = await signIn(server, 'rs-sender@example.test', 'Good-Passw0rd');
    await expectBackendError(await call(server, own, 'POST', URL_PATH, { emails: [] }), 400);
    await expectBackendError(await call(server, own, 'POST', URL_PATH, { emails: 'rs-plain@example.test' }), 400);
    await expectBackendError(await call(server, own, 'POST', URL_PATH, { emails: ['x@example.test'], extra: 1 }), 400);
    const tooMany = Array.from({ length: MAX_RECIPIENT_STATUS_EMAILS + 1 }, (_, i) => `a${i}@example.test`);
    await expectBackendError(await call(server, own, 'POST', URL_PATH, { emails: tooMany }), 400);
  });

  it('is rate limited per sender (429 with Retry-After), not for other senders', async () => {
    await server.app.db.deleteFrom('rate_limit_events').execute();
    const own = await signIn(server, 'rs-sender@example.test', 'Good-Passw0rd');
    for (let i = 0; i < RECIPIENT_STATUS_LIMIT.limit; i++) {
      const ok = await call(server, own, 'POST', URL_PATH, { emails: [`n${i}@example.test`] });
      expect(ok.status).toBe(200);
    }
    const refused = await call(server, own, 'POST', URL_PATH, { emails: ['late@example.test'] });
    await expectBackendError(refused, 429, 'RateLimitExceededException');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await signIn(server, 'rs-plain@example.test', 'Good-Passw0rd');
    expect((await call(server, other, 'POST', URL_PATH, { emails: ['late@example.test'] })).status).toBe(200);
    await server.app.db.deleteFrom('rate_limit_events').execute();
  });
});

describe('phone numbers for the SMS signup (send config, Sent detail)', () => {
  it('the send config tells whether the SMS applies; the sender view marks unregistered recipients without a number until one is set', async () => {
    const own = await signIn(server, 'rs-sender@example.test', 'Good-Passw0rd');
    const config = async () => ((await (await call(server, own, 'GET', '/api/2/delivery/send/config')).json()) as { signupRequiresSms: boolean }).signupRequiresSms;
    const missing = async (uuid: string) =>
      Object.fromEntries(((await (await call(server, own, 'GET', `/api/2${DELIVERY_PATHS.one(uuid)}`)).json()) as DeliveryDetail).recipients.map((r) => [r.email, r.phoneNumberMissing]));
    const created = await call(server, own, 'POST', `/api/2${DELIVERY_PATHS.create}`, { recipients: ['outside@example.test', 'rs-plain@example.test'], subject: 'Phones', body: 'Hi', securityLevel: 10 });
    expect(created.status, await created.clone().text()).toBe(201);
    const { deliveryUuid } = (await created.json()) as DeliveryDetail;

    expect(await config()).toBe(false);
    expect(await missing(deliveryUuid)).toEqual({ 'outside@example.test': false, 'rs-plain@example.test': false });
    await updateSettings(server, admin, { [EXTERNAL_SETTING_KEYS.signupRequiresSms]: true });
    try {
      expect(await config()).toBe(true);
      expect(await missing(deliveryUuid)).toEqual({ 'outside@example.test': true, 'rs-plain@example.test': false });
      const put = await call(server, own, 'PUT', `/api/2${EXTERNAL_PATHS.phoneNumbers(deliveryUuid)}`, { phoneNumbers: [{ email: 'outside@example.test', phoneNumber: '+49 170 1234567' }] });
      expect(put.status, await put.clone().text()).toBe(200);
      expect(await missing(deliveryUuid)).toEqual({ 'outside@example.test': false, 'rs-plain@example.test': false });
    } finally {
      await updateSettings(server, admin, { [EXTERNAL_SETTING_KEYS.signupRequiresSms]: false });
    }
  });
});
