import type { DeliverySendConfig } from '@shared/contract/config';
import { DELIVERY_PATHS, SHARE_PROOF_COOKIE } from '@shared/contract/deliveries';
import { EMAIL_CHECK_LIMIT, EXTERNAL_PATHS, EXTERNAL_SETTING_KEYS, SMS_MAX_ATTEMPTS, type EmailCheckResponse } from '@shared/contract/external';
import { addressedTo, extractLink, extractSmsCode, readMailbox, readMailboxSms, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { AUTHORIZATION_ERROR } from '@shared/contract/errors';
import { parseAuthorizationErrors } from '@shared/auth/authorization-errors';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, forgetFailures, postAuth, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';

// The external recipient's path against the real server: email prompt (right, wrong, rate
// limit), the download disclaimer setting, delivery signup with and without the SMS code
// (written to the mailbox folder), phone numbers, and each route's refusals.

let server: TestServer;
let admin: Session;
let alice: Session; // sender
let carol: Session; // another sender

const api = (path: string) => `/api/2${path}`;
let counter = 0;
const uniqueAddress = (name: string) => `${name}-${++counter}@outside.test`;

beforeAll(async () => {
  // The test client (127.0.0.1) is the "proxy": X-Forwarded-For plays other client addresses; without it, 127.0.0.1.
  server = await startTestServer({ config: { trustProxy: '127.0.0.1' } });
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'alice@example.test' });
  await createUserAsAdmin(server, admin, { email: 'carol@example.test' });
  alice = await signIn(server, 'alice@example.test', 'Good-Passw0rd');
  carol = await signIn(server, 'carol@example.test', 'Good-Passw0rd');
});
afterAll(() => server?.close());
beforeEach(() => forgetFailures(server));

interface Sent {
  deliveryUuid: string;
  shareUuid: string;
  token: string;
  link: URL;
}

/** Alice sends a message-only delivery to `to` and the link from the mail is returned. */
async function sendTo(to: string, securityLevel: 0 | 10, phone?: string): Promise<Sent> {
  const created = await call(server, alice, 'POST', api(DELIVERY_PATHS.create), { recipients: [to], subject: `For ${to}`, body: 'Hello from outside.', securityLevel });
  expect(created.status, await created.clone().text()).toBe(201);
  const { deliveryUuid } = (await created.json()) as { deliveryUuid: string };
  if (phone) {
    const set = await call(server, alice, 'PUT', api(EXTERNAL_PATHS.phoneNumbers(deliveryUuid)), { phoneNumbers: [{ email: to, phoneNumber: phone }] });
    expect(set.status, await set.clone().text()).toBe(200);
  }
  const sent = await call(server, alice, 'POST', api(DELIVERY_PATHS.send(deliveryUuid)));
  expect(sent.status, await sent.clone().text()).toBe(200);
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(to)(m) && m.text.includes('/email-prompt/'));
  const link = extractLink(mail, '/secumails/');
  const match = /\/secumails\/(?:de|en|fr)\/email-prompt\/([0-9a-f-]{36})$/.exec(link.pathname);
  expect(match, link.href).not.toBeNull();
  const token = new URLSearchParams(link.hash.slice(1)).get('token');
  expect(token).toBeTruthy();
  return { deliveryUuid, shareUuid: match![1]!, token: token!, link };
}

const post = (path: string, body: unknown) => call(server, null, 'POST', api(path), body);
const emailCheck = (s: Pick<Sent, 'shareUuid' | 'token'>, email: string) => post(EXTERNAL_PATHS.emailCheck(s.shareUuid), { email, token: s.token });
/** The same check from another client address (X-Forwarded-For through the trusted 127.0.0.1). */
const emailCheckFrom = (from: string, s: Pick<Sent, 'shareUuid' | 'token'>, email: string) =>
  fetch(`${server.url}${api(EXTERNAL_PATHS.emailCheck(s.shareUuid))}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ email, token: s.token }),
  });

const smsFiles = () => readMailboxSms(server.mailboxDir);
const codeOf = (text: string) => extractSmsCode({ id: '', to: '', text });

describe('email prompt', () => {
  it('level 1: the right address (any case) leads to the download; a wrong one is refused clearly', async () => {
    const to = uniqueAddress('dora');
    const sent = await sendTo(to, 0);
    const wrong = await expectBackendError(await emailCheck(sent, 'someone@else.test'), 400, 'ValidationException');
    expect(wrong.metadata).toMatchObject({ reason: 'emailMismatch', field: 'email' });
    const right = await emailCheck(sent, `  ${to.toUpperCase()} `);
    expect(right.status).toBe(200);
    expect(parseAuthorizationErrors(right.headers)).toBeNull(); // no account needed at level 1
    const body = (await right.json()) as EmailCheckResponse;
    expect(body).toMatchObject({ deliveryUuid: sent.deliveryUuid, shareUuid: sent.shareUuid, securityLevel: 0, next: 'download', disclaimer: null });
    // The check hands out the proof (HttpOnly cookie scoped to the delivery); token + proof open it.
    const setCookie = right.headers.getSetCookie().find((c) => c.startsWith(`${SHARE_PROOF_COOKIE}=`));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toContain(`Path=${api(DELIVERY_PATHS.one(sent.deliveryUuid))}`);
    const viewUrl = `${server.url}${api(DELIVERY_PATHS.one(sent.deliveryUuid))}?token=${encodeURIComponent(sent.token)}`;
    expect((await fetch(viewUrl, { headers: { cookie: setCookie!.split(';')[0]! } })).status).toBe(200);
    // The token alone is refused: the prompt is not only a screen.
    const alone = await expectBackendError(await fetch(viewUrl), 403, 'AccessDeniedException');
    expect(alone.metadata).toMatchObject({ reason: 'emailConfirmationRequired' });
  });

  it('a wrong token, an unknown share or another share with this token → 404 alike', async () => {
    const one = await sendTo(uniqueAddress('erin'), 0);
    const two = await sendTo(uniqueAddress('finn'), 0);
    await expectBackendError(await emailCheck({ ...one, token: 'not-the-token' }, 'x@y.test'), 404, 'NotFoundException');
    await expectBackendError(await emailCheck({ shareUuid: '00000000-0000-4000-8000-000000000000', token: one.token }, 'x@y.test'), 404);
    await expectBackendError(await emailCheck({ shareUuid: two.shareUuid, token: one.token }, 'x@y.test'), 404);
    await expectBackendError(await emailCheck({ shareUuid: 'not-a-uuid', token: one.token }, 'x@y.test'), 404);
    await expectBackendError(await post(EXTERNAL_PATHS.emailCheck(one.shareUuid), { email: 'x@y.test' }), 400, 'ValidationException');
  });

  it('is rate limited per share and client address: after 10 wrong addresses even the right one waits there (429 with Retry-After)', async () => {
    const to = uniqueAddress('gina');
    const sent = await sendTo(to, 0);
    for (let i = 0; i < EMAIL_CHECK_LIMIT.limit; i++) expect((await emailCheck(sent, `wrong${i}@else.test`)).status).toBe(400);
    const limited = await emailCheck(sent, to);
    const error = await expectBackendError(limited, 429, 'RateLimitExceededException');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(error.metadata).toHaveProperty('retryAfterSeconds');
  });

  it("someone else's wrong tries (another client address) do not lock out the recipient; right tries and wrong tokens cost no share budget", async () => {
    const to = uniqueAddress('hedy');
    const sent = await sendTo(to, 0);
    // Someone who got hold of the link guesses until refused.
    for (let i = 0; i < EMAIL_CHECK_LIMIT.limit; i++) expect((await emailCheckFrom('203.0.113.66', sent, `guess${i}@else.test`)).status).toBe(400);
    await expectBackendError(await emailCheckFrom('203.0.113.66', sent, to), 429, 'RateLimitExceededException');
    // Someone with the share id only: wrong tokens are 404 and spend nothing of the share.
    for (let i = 0; i < 3; i++) expect((await emailCheckFrom('203.0.113.67', { ...sent, token: `forged-${i}` }, to)).status).toBe(404);
    // The recipient, from their own address, mistypes a few times and still gets in — again and again.
    for (let i = 0; i < EMAIL_CHECK_LIMIT.limit - 1; i++) expect((await emailCheckFrom('198.51.100.40', sent, `typo${i}@else.test`)).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await emailCheckFrom('198.51.100.40', sent, to)).status).toBe(200);
  });

  it('shows the download disclaimer when the setting asks for one, in the chosen language', async () => {
    await updateSettings(server, admin, { [EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled]: true, [`${EXTERNAL_SETTING_KEYS.downloadDisclaimerText}.de`]: 'Nur für den Empfänger.' });
    try {
      const to = uniqueAddress('hugo');
      const sent = await sendTo(to, 0);
      const answer = await post(EXTERNAL_PATHS.emailCheck(sent.shareUuid), { email: to, token: sent.token, language: 'de' });
      expect(((await answer.json()) as EmailCheckResponse).disclaimer).toEqual({ text: 'Nur für den Empfänger.' });
    } finally {
      await updateSettings(server, admin, { [EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled]: false });
    }
  });
});

describe('delivery signup (level 2)', () => {
  it('an unregistered recipient gets a signup link, signs up with the link and the address, then signs in and sees the delivery', async () => {
    const to = uniqueAddress('ida');
    const sent = await sendTo(to, 10);
    const checkResponse = await emailCheck(sent, to);
    // SPEC §7/§8: code 5 (delivery registration required) in the authorization-errors header.
    expect(parseAuthorizationErrors(checkResponse.headers)).toEqual([{ authorizationError: AUTHORIZATION_ERROR.DELIVERY_REGISTRATION_REQUIRED }]);
    const checked = (await checkResponse.json()) as EmailCheckResponse;
    expect(checked).toMatchObject({ next: 'signup', securityLevel: 10, sms: { required: false, phoneHint: null } });

    // Password policy of the product (10 characters, upper, lower, digit).
    const weak = await expectBackendError(await post(EXTERNAL_PATHS.signup(sent.shareUuid), { email: to, token: sent.token, password: 'short' }), 400, 'ValidationException');
    expect(weak.metadata).toHaveProperty('violations');
    // The wrong address cannot sign up with a valid link.
    await expectBackendError(await post(EXTERNAL_PATHS.signup(sent.shareUuid), { email: 'thief@else.test', token: sent.token, password: 'Outside-Passw0rd' }), 400);
    expect(await postAuth(server, 'thief@else.test', 'Outside-Passw0rd').then((a) => a.response.status)).toBe(401);

    const created = await post(EXTERNAL_PATHS.signup(sent.shareUuid), { email: to, token: sent.token, password: 'Outside-Passw0rd', firstName: 'Ida' });
    expect(created.status, await created.clone().text()).toBe(201);
    expect(await created.json()).toEqual({ email: to, deliveryUuid: sent.deliveryUuid });

    // The address counts as verified: sign-in succeeds without a code, and the delivery is there.
    const session = await signIn(server, to, 'Outside-Passw0rd');
    const view = await call(server, session, 'GET', api(DELIVERY_PATHS.one(sent.deliveryUuid)));
    expect(view.status).toBe(200);
    expect(((await view.json()) as { viewer: string }).viewer).toBe('recipient');

    // The signed-up account is an unlicensed outsider (ROLE_SENDER_EXTERNAL) that may only reply.
    const config = (await (await call(server, session, 'GET', api('/delivery/send/config'))).json()) as DeliverySendConfig;
    expect(config.sender).toEqual({ licensed: false, replyOnly: true, mayInvite: true, group: null });
    const reply = await call(server, session, 'POST', api(DELIVERY_PATHS.create), { recipients: ['alice@example.test'], subject: 'Re: thanks', body: 'Got it.', securityLevel: 10 });
    expect(reply.status, await reply.clone().text()).toBe(201);
    const replyUuid = ((await reply.json()) as { deliveryUuid: string }).deliveryUuid;
    expect((await call(server, session, 'POST', api(DELIVERY_PATHS.send(replyUuid)))).status).toBe(200);
    const elsewhere = await expectBackendError(
      await call(server, session, 'POST', api(DELIVERY_PATHS.create), { recipients: ['alice@example.test', 'carol@example.test'], subject: 'Hi', body: 'x', securityLevel: 10 }),
      403,
      'RecipientNotAllowedException',
    );
    expect(elsewhere.metadata).toEqual({ recipients: ['carol@example.test'], reason: 'replyOnly' });

    // The link is spent: no second account, no second signup.
    await expectBackendError(await post(EXTERNAL_PATHS.signup(sent.shareUuid), { email: to, token: sent.token, password: 'Outside-Passw0rd' }), 404);
  });

  it('a registered recipient is sent to sign in, and signup is refused for them and for level 1', async () => {
    await createUserAsAdmin(server, admin, { email: 'jay@outside.test' });
    const created = await call(server, alice, 'POST', api(DELIVERY_PATHS.create), { recipients: ['jay@outside.test'], subject: 'Registered', body: 'Hi', securityLevel: 10 });
    const { deliveryUuid } = (await created.json()) as { deliveryUuid: string };
    expect((await call(server, alice, 'POST', api(DELIVERY_PATHS.send(deliveryUuid)))).status).toBe(200);
    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('jay@outside.test')(m) && m.text.includes(deliveryUuid));
    // Registered, level 2: the ordinary inbox link, no token to sign up with.
    expect(extractLink(mail, '/secumails/').pathname).toBe(`/secumails/inbox/${deliveryUuid}`);

    const level1 = await sendTo(uniqueAddress('kim'), 0);
    const refused = await expectBackendError(
      await post(EXTERNAL_PATHS.signup(level1.shareUuid), { email: await recipientOf(level1), token: level1.token, password: 'Outside-Passw0rd' }),
      400,
    );
    expect(refused.metadata).toMatchObject({ reason: 'signupNotApplicable' });
  });

  it('with a phone number: the code goes by SMS to the mailbox folder; wrong, missing and used-up codes are refused; only the right one creates the account', async () => {
    const to = uniqueAddress('lena');
    const sent = await sendTo(to, 10, '+49 170 1234567');
    const checked = (await (await emailCheck(sent, to)).json()) as EmailCheckResponse;
    expect(checked.sms).toEqual({ required: true, phoneHint: '•••567' });

    const signup = (smsCode?: string) => post(EXTERNAL_PATHS.signup(sent.shareUuid), { email: to, token: sent.token, password: 'Outside-Passw0rd', ...(smsCode ? { smsCode } : {}) });
    expect((await expectBackendError(await signup(), 400)).metadata).toMatchObject({ reason: 'smsCodeRequired' });

    const before = (await smsFiles()).length;
    const requested = await post(EXTERNAL_PATHS.smsCode(sent.shareUuid), { email: to, token: sent.token });
    expect(requested.status, await requested.clone().text()).toBe(200);
    expect(await requested.json()).toMatchObject({ phoneHint: '•••567', codeLength: 6, resendAfterSeconds: 60 });
    const files = await smsFiles();
    expect(files).toHaveLength(before + 1);
    const sms = files.at(-1)!;
    expect(sms.to).toBe('+491701234567');
    const code = codeOf(sms.text);
    // Listed by the development mailbox page.
    expect(await (await fetch(`${server.url}/dev/mailbox`, { headers: { cookie: admin.cookie } })).text()).toContain('+491701234567');

    // Resend within the cool-down → 429.
    await expectBackendError(await post(EXTERNAL_PATHS.smsCode(sent.shareUuid), { email: to, token: sent.token }), 429, 'RateLimitExceededException');

    const wrongCode = code === '000000' ? '111111' : '000000';
    expect((await expectBackendError(await signup(wrongCode), 400)).metadata).toMatchObject({ reason: 'smsCodeWrong', attemptsLeft: SMS_MAX_ATTEMPTS - 1 });
    expect(await postAuth(server, to, 'Outside-Passw0rd').then((a) => a.response.status)).toBe(401);
    const ok = await signup(code);
    expect(ok.status, await ok.clone().text()).toBe(201);
    await signIn(server, to, 'Outside-Passw0rd');
  });

  it('locks the code after too many wrong tries, and an expired code is refused', async () => {
    const to = uniqueAddress('mo');
    const sent = await sendTo(to, 10, '+4915112345678');
    expect((await post(EXTERNAL_PATHS.smsCode(sent.shareUuid), { email: to, token: sent.token })).status).toBe(200);
    const code = codeOf((await smsFiles()).at(-1)!.text);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const signup = (smsCode: string) => post(EXTERNAL_PATHS.signup(sent.shareUuid), { email: to, token: sent.token, password: 'Outside-Passw0rd', smsCode });
    for (let i = 1; i < SMS_MAX_ATTEMPTS; i++) expect((await expectBackendError(await signup(wrongCode), 400)).metadata).toMatchObject({ reason: 'smsCodeWrong' });
    expect((await expectBackendError(await signup(wrongCode), 400)).metadata).toMatchObject({ reason: 'smsCodeLocked' });
    expect((await expectBackendError(await signup(code), 400)).metadata).toMatchObject({ reason: 'smsCodeLocked' });

    // A fresh code (after the cool-down), then let it expire.
    await server.app.db.updateTable('delivery_signups').set({ code_sent_at: 0 }).execute();
    await forgetFailures(server);
    expect((await post(EXTERNAL_PATHS.smsCode(sent.shareUuid), { email: to, token: sent.token })).status).toBe(200);
    const fresh = codeOf((await smsFiles()).at(-1)!.text);
    await server.app.db.updateTable('delivery_signups').set({ code_expires_at: Date.now() - 1 }).execute();
    expect((await expectBackendError(await signup(fresh), 400)).metadata).toMatchObject({ reason: 'smsCodeExpired' });
    expect(await postAuth(server, to, 'Outside-Passw0rd').then((a) => a.response.status)).toBe(401);
  });

  it('when the setting requires SMS and the sender gave no number, signup is refused with phoneNumberMissing', async () => {
    await updateSettings(server, admin, { [EXTERNAL_SETTING_KEYS.signupRequiresSms]: true });
    try {
      const to = uniqueAddress('nia');
      const sent = await sendTo(to, 10);
      expect(((await (await emailCheck(sent, to)).json()) as EmailCheckResponse).sms).toEqual({ required: true, phoneHint: null });
      const refused = await post(EXTERNAL_PATHS.signup(sent.shareUuid), { email: to, token: sent.token, password: 'Outside-Passw0rd' });
      expect((await expectBackendError(refused, 400)).metadata).toMatchObject({ reason: 'phoneNumberMissing' });
      const sms = await post(EXTERNAL_PATHS.smsCode(sent.shareUuid), { email: to, token: sent.token });
      expect((await expectBackendError(sms, 400)).metadata).toMatchObject({ reason: 'phoneNumberMissing' });
    } finally {
      await updateSettings(server, admin, { [EXTERNAL_SETTING_KEYS.signupRequiresSms]: false });
    }
  });
});

/** The address a share was sent to (read by its sender). */
async function recipientOf(sent: Sent): Promise<string> {
  const detail = (await (await call(server, alice, 'GET', api(DELIVERY_PATHS.one(sent.deliveryUuid)))).json()) as { recipients: Array<{ shareUuid: string; email: string }> };
  return detail.recipients.find((r) => r.shareUuid === sent.shareUuid)!.email;
}

describe('phone numbers and refusals', () => {
  it('only the delivery’s sender sets phone numbers; bad numbers and strangers are refused', async () => {
    const to = uniqueAddress('otto');
    const created = await call(server, alice, 'POST', api(DELIVERY_PATHS.create), { recipients: [to], subject: 'Phones', body: 'Hi', securityLevel: 10 });
    const { deliveryUuid } = (await created.json()) as { deliveryUuid: string };
    const path = api(EXTERNAL_PATHS.phoneNumbers(deliveryUuid));
    const body = { phoneNumbers: [{ email: to, phoneNumber: '+49123456789' }] };

    await expectBackendError(await call(server, null, 'PUT', path, body), 401, 'AuthenticationRequiredException');
    await expectBackendError(await call(server, alice, 'PUT', path, body, { csrf: null }), 403, 'CsrfTokenException');
    await expectBackendError(await call(server, carol, 'PUT', path, body), 404, 'NotFoundException');
    const bad = await expectBackendError(await call(server, alice, 'PUT', path, { phoneNumbers: [{ email: to, phoneNumber: '0170 123' }] }), 400, 'ValidationException');
    expect(bad.metadata).toMatchObject({ reason: 'invalidPhone' });
    const stranger = await expectBackendError(await call(server, alice, 'PUT', path, { phoneNumbers: [{ email: 'nobody@else.test', phoneNumber: '+49123456789' }] }), 400);
    expect(stranger.metadata).toMatchObject({ reason: 'unknownRecipient' });

    const ok = await call(server, alice, 'PUT', path, body);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { recipients: unknown[] }).recipients).toEqual([expect.objectContaining({ email: to, phoneNumber: '+49123456789' })]);
    const removed = await call(server, alice, 'PUT', path, { phoneNumbers: [{ email: to, phoneNumber: null }] });
    expect(((await removed.json()) as { recipients: Array<{ phoneNumber: string | null }> }).recipients[0]!.phoneNumber).toBeNull();
  });

  it('the share calls refuse anonymous callers without the link, another delivery’s token and a signed-in stranger alike', async () => {
    const to = uniqueAddress('pia');
    const mine = await sendTo(to, 10);
    const other = await sendTo(uniqueAddress('quinn'), 10);
    for (const path of [EXTERNAL_PATHS.emailCheck(mine.shareUuid), EXTERNAL_PATHS.smsCode(mine.shareUuid), EXTERNAL_PATHS.signup(mine.shareUuid)]) {
      const body = { email: to, token: other.token, password: 'Outside-Passw0rd' };
      const payload = path.endsWith('/signup') ? body : { email: to, token: other.token };
      // Another delivery's token.
      await expectBackendError(await call(server, null, 'POST', api(path), payload), 404, 'NotFoundException');
      // A signed-in stranger (Carol) with a made-up token gets nothing either.
      await expectBackendError(await call(server, carol, 'POST', api(path), { ...payload, token: 'x'.repeat(43) }), 404);
      // No token at all: a validation error, never the data.
      await expectBackendError(await call(server, null, 'POST', api(path), { email: to }), 400, 'ValidationException');
    }
    // Without an account, the level-2 delivery itself stays closed to the link holder.
    await expectBackendError(await fetch(`${server.url}${api(DELIVERY_PATHS.one(mine.deliveryUuid))}?token=${encodeURIComponent(mine.token)}`), 401);
  });

  it('a resent notification replaces the signup link: the old token stops working, the new one works', async () => {
    const to = uniqueAddress('rita');
    const first = await sendTo(to, 10);
    const resent = await call(server, alice, 'POST', api(DELIVERY_PATHS.resend(first.deliveryUuid)), { shareUuid: first.shareUuid });
    expect(resent.status, await resent.clone().text()).toBe(200);
    const mails = (await readMailbox(server.mailboxDir)).filter((m) => addressedTo(to)(m) && m.text.includes('/email-prompt/'));
    expect(mails).toHaveLength(2);
    const token = new URLSearchParams(extractLink(mails[1]!, '/secumails/').hash.slice(1)).get('token')!;
    expect(token).not.toBe(first.token);
    await expectBackendError(await emailCheck(first, to), 404);
    expect((await emailCheck({ ...first, token }, to)).status).toBe(200);
  });

  it('publishes the external calls in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/api/2/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const paths = Object.keys(doc.paths);
    for (const route of [EXTERNAL_PATHS.linkCheckRoute, EXTERNAL_PATHS.emailCheckRoute, EXTERNAL_PATHS.smsCodeRoute, EXTERNAL_PATHS.signupRoute, EXTERNAL_PATHS.phoneNumbersRoute]) {
      const openApiPath = `/api/2${route.replace(/:([A-Za-z]+)/g, '{$1}')}`;
      expect(paths, openApiPath).toContain(openApiPath);
    }
  });
});

describe('link check (before the email prompt asks anything)', () => {
  const linkCheck = (s: Pick<Sent, 'shareUuid' | 'token'>) => post(EXTERNAL_PATHS.linkCheck(s.shareUuid), { token: s.token });

  it('a good link answers its level; a wrong token, unknown share or another share’s token are 404 linkInvalid alike', async () => {
    const one = await sendTo(uniqueAddress('lara'), 0);
    const two = await sendTo(uniqueAddress('milo'), 10);
    const good = await linkCheck(one);
    expect(good.status, await good.clone().text()).toBe(200);
    expect(good.headers.get('cache-control')).toBe('no-store');
    expect(await good.json()).toEqual({ securityLevel: 0 });
    expect(await (await linkCheck(two)).json()).toEqual({ securityLevel: 10 });
    for (const refused of [{ ...one, token: 'not-the-token' }, { shareUuid: two.shareUuid, token: one.token }, { shareUuid: '00000000-0000-4000-8000-000000000000', token: one.token }, { shareUuid: 'x', token: one.token }]) {
      const error = await expectBackendError(await linkCheck(refused), 404, 'NotFoundException');
      expect(error.metadata).toEqual({ reason: 'linkInvalid' });
    }
    await expectBackendError(await post(EXTERNAL_PATHS.linkCheck(one.shareUuid), {}), 400, 'ValidationException');
    await expectBackendError(await post(EXTERNAL_PATHS.linkCheck(one.shareUuid), { token: one.token, email: 'x@y.test' }), 400, 'ValidationException');
  });

  it('expired and deleted are told to the holder of the right token only, by the link check and the email check alike', async () => {
    const expired = await sendTo(uniqueAddress('nora'), 0);
    const expiredAt = Date.now() - 60_000;
    await server.app.db.updateTable('deliveries').set({ expires_at: expiredAt }).where('uuid', '=', expired.deliveryUuid).execute();
    for (const response of [await linkCheck(expired), await emailCheck(expired, 'whoever@outside.test')]) {
      const error = await expectBackendError(response, 404, 'NotFoundException');
      expect(error.metadata).toEqual({ reason: 'expired', expiredAt });
    }
    expect((await expectBackendError(await linkCheck({ ...expired, token: 'not-the-token' }), 404)).metadata).toEqual({ reason: 'linkInvalid' });

    const deleted = await sendTo(uniqueAddress('olga'), 10);
    const removed = await call(server, alice, 'DELETE', api(DELIVERY_PATHS.one(deleted.deliveryUuid)));
    expect(removed.status, await removed.clone().text()).toBe(204);
    for (const response of [await linkCheck(deleted), await emailCheck(deleted, 'whoever@outside.test')]) {
      expect((await expectBackendError(response, 404, 'NotFoundException')).metadata).toEqual({ reason: 'deleted' });
    }
    expect((await expectBackendError(await linkCheck({ ...deleted, token: 'not-the-token' }), 404)).metadata).toEqual({ reason: 'linkInvalid' });
  });
});
