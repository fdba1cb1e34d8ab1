import { getRecipientStatus } from '@shared/api/endpoints/delivery-send';
import { DELIVERY_PATHS, MAX_RECIPIENT_STATUS_EMAILS, type DeliveryDetail } from '@shared/contract/deliveries';
import { EXTERNAL_PATHS, EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECIPIENT_STATUS_LIMIT } from '../../server/deliveries/e2e-lookups';
import { RECIPIENT_LOOKUP_LIMIT } from '../../server/security/recipient-lookups';
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
let keyed: E2eActor;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'rs-sender@example.test' });
  await createUserAsAdmin(server, admin, { email: 'rs-keyed@example.test' });
  await createUserAsAdmin(server, admin, { email: 'rs-plain@example.test' });
  await createUserAsAdmin(server, admin, { email: 'rs-reader@example.test' });
  // Made by an administrator, address not proven yet: reached as an external recipient until it is.
  await createUserAsAdmin(server, admin, { email: 'rs-unproven@example.test' }, { prove: false });
  // A signed-in user without ROLE_SENDER (an administrator can take it away).
  const reader = await server.app.users.findByLogin('rs-reader@example.test');
  await server.app.users.update(reader!.id, { roles: JSON.stringify(['ROLE_UI_USER', 'ROLE_RECEIVER']) });
  sender = await e2eActor(server, await signIn(server, 'rs-sender@example.test', 'Good-Passw0rd'));
  keyed = await e2eActor(server, await signIn(server, 'rs-keyed@example.test', 'Good-Passw0rd'));
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

  it('counts an account whose address is not proven yet as not registered (as the notification mail does)', async () => {
    const answer = await getRecipientStatus(sender.client, ['rs-unproven@example.test']);
    expect(answer.recipients).toEqual([{ email: 'rs-unproven@example.test', registered: false, hasPassphrase: false }]);
  });

  it('withKeys (levels 3/4, the chips\' verified badges): the user id and live encryption key of an address with an active SecuPass, of no other', async () => {
    const answer = await getRecipientStatus(sender.client, ['RS-Keyed@Example.test', 'rs-plain@example.test', 'nobody@example.test'], undefined, { withKeys: true });
    const encryption = keyed.keys!.encryption;
    expect(answer).toEqual({
      recipients: [
        { email: 'RS-Keyed@Example.test', registered: true, hasPassphrase: true, userUuid: keyed.userUuid, encryptionKey: { keyId: encryption.keyId, usage: 'encryption', publicKey: encryption.publicKey } },
        { email: 'rs-plain@example.test', registered: true, hasPassphrase: false },
        { email: 'nobody@example.test', registered: false, hasPassphrase: false },
      ],
    });
  });

  it('the sender\'s detail of a level-3/4 delivery names registered recipients\' user ids (for the pins); level 1/2 details do not', async () => {
    const draft = async (securityLevel: number) => {
      const created = await call(server, sender.session, 'POST', `/api/2${DELIVERY_PATHS.create}`, { recipients: ['rs-keyed@example.test', 'nobody@example.test'], subject: 'Ids', body: 'x', securityLevel });
      expect(created.status, await created.clone().text()).toBe(201);
      return ((await created.json()) as DeliveryDetail).recipients.map((r) => ({ email: r.email, userUuid: r.userUuid }));
    };
    expect(await draft(20)).toEqual([
      { email: 'rs-keyed@example.test', userUuid: keyed.userUuid },
      { email: 'nobody@example.test', userUuid: undefined },
    ]);
    expect(await draft(10)).toEqual([
      { email: 'rs-keyed@example.test', userUuid: undefined },
      { email: 'nobody@example.test', userUuid: undefined },
    ]);
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
    await server.app.db.deleteFrom('recipient_lookups').execute();
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
    await server.app.db.deleteFrom('recipient_lookups').execute();
  });
});

describe('enumeration limits', () => {
  it('an external (reply-only) account asks only about the people it may reply to, not arbitrary addresses', async () => {
    await createUserAsAdmin(server, admin, { email: 'rs-outsider@example.test' });
    const row = await server.app.users.findByLogin('rs-outsider@example.test');
    // What the delivery signup makes (external/external-service.ts): receiver + reply-only sender, unlicensed.
    await server.app.users.update(row!.id, { roles: JSON.stringify(['ROLE_UI_USER', 'ROLE_RECEIVER', 'ROLE_SENDER_EXTERNAL']), licensed: 0 });
    const outsider = await signIn(server, 'rs-outsider@example.test', 'Good-Passw0rd');
    const own = await signIn(server, 'rs-sender@example.test', 'Good-Passw0rd');

    // Nobody wrote to the outsider yet: every probe is refused, registered or not.
    for (const probe of [['rs-keyed@example.test'], ['nobody@example.test'], ['rs-sender@example.test']]) {
      const refused = await expectBackendError(await call(server, outsider, 'POST', URL_PATH, { emails: probe }), 403, 'RecipientNotAllowedException');
      expect(refused.metadata).toMatchObject({ reason: 'replyOnly', recipients: probe });
    }
    // rs-sender sends the outsider a delivery: now the outsider may ask about (and reply to) rs-sender only.
    const created = await call(server, own, 'POST', `/api/2${DELIVERY_PATHS.create}`, { recipients: ['rs-outsider@example.test'], subject: 'Hello', body: 'Hi', securityLevel: 10 });
    expect(created.status, await created.clone().text()).toBe(201);
    const { deliveryUuid } = (await created.json()) as DeliveryDetail;
    expect((await call(server, own, 'POST', `/api/2${DELIVERY_PATHS.send(deliveryUuid)}`)).status).toBe(200);
    const allowed = await call(server, outsider, 'POST', URL_PATH, { emails: ['RS-Sender@example.test'] });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({ recipients: [{ email: 'RS-Sender@example.test', registered: true, hasPassphrase: false }] });
    const mixed = await expectBackendError(await call(server, outsider, 'POST', URL_PATH, { emails: ['rs-sender@example.test', 'rs-keyed@example.test'] }), 403);
    expect(mixed.metadata).toMatchObject({ reason: 'replyOnly', recipients: ['rs-keyed@example.test'] });
  });

  it('a sender is limited by distinct addresses per hour (shared with recipient-keys); asking again is free; other senders go on', async () => {
    await server.app.db.deleteFrom('rate_limit_events').execute();
    await server.app.db.deleteFrom('recipient_lookups').execute();
    const own = await signIn(server, 'rs-sender@example.test', 'Good-Passw0rd');
    const batches = RECIPIENT_LOOKUP_LIMIT.limit / MAX_RECIPIENT_STATUS_EMAILS;
    const batch = (b: number) => Array.from({ length: MAX_RECIPIENT_STATUS_EMAILS }, (_, i) => `walk-${b}-${i}@example.test`);
    for (let b = 0; b < batches; b++) expect((await call(server, own, 'POST', URL_PATH, { emails: batch(b) })).status).toBe(200);

    const refused = await call(server, own, 'POST', URL_PATH, { emails: ['one-more@example.test'] });
    const error = await expectBackendError(refused, 429, 'RateLimitExceededException');
    expect(error.metadata).toMatchObject({ reason: 'lookupBudget' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The chips the sender already has are answered again (the send page re-asks after every change).
    expect((await call(server, own, 'POST', URL_PATH, { emails: batch(0).slice(0, 10) })).status).toBe(200);
    // A level-3 draft to a new address cannot be made (nor its keys asked): same budget (draft-lookups.test.ts).
    const newDraft = () => call(server, own, 'POST', `/api/2${DELIVERY_PATHS.create}`, { recipients: ['rs-keyed@example.test'], subject: 'E2E', securityLevel: 20 });
    expect((await expectBackendError(await newDraft(), 429, 'RateLimitExceededException')).metadata).toMatchObject({ reason: 'lookupBudget' });
    // Another sender has their own budget.
    const other = await signIn(server, 'rs-plain@example.test', 'Good-Passw0rd');
    expect((await call(server, other, 'POST', URL_PATH, { emails: ['one-more@example.test'] })).status).toBe(200);
    // An hour later the budget is back (the stored times move instead of the test waiting).
    await server.app.db.updateTable('recipient_lookups').set({ last_at: Date.now() - RECIPIENT_LOOKUP_LIMIT.windowMs - 1 }).execute();
    const draft = await newDraft();
    expect(draft.status, await draft.clone().text()).toBe(201);
    const { deliveryUuid } = (await draft.json()) as DeliveryDetail;
    expect((await call(server, own, 'GET', `/api/2${DELIVERY_PATHS.recipientKeys(deliveryUuid)}`)).status).toBe(200);
    // A draft whose addresses left the window costs them again: with the budget spent, its keys are 429.
    await server.app.db.deleteFrom('recipient_lookups').execute();
    for (let b = 0; b < batches; b++) expect((await call(server, own, 'POST', URL_PATH, { emails: batch(b + batches) })).status).toBe(200);
    await expectBackendError(await call(server, own, 'GET', `/api/2${DELIVERY_PATHS.recipientKeys(deliveryUuid)}`), 429, 'RateLimitExceededException');
    await server.app.db.deleteFrom('recipient_lookups').execute();
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
