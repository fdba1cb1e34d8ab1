import type { ListUsersResponse } from '@shared/contract/admin-users';
import { DELIVERY_PATHS, DELIVERY_SETTING_KEYS, MAX_RECIPIENT_STATUS_EMAILS, type DeliveryDetail } from '@shared/contract/deliveries';
import { SENDER_GROUP_PATHS } from '@shared/contract/sender-groups';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RECIPIENT_LOOKUP_LIMIT } from '../../server/security/recipient-lookups';
import type { BackendError } from '@shared/contract/errors';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';

/**
 * Draft create / update / send answer differently for registered and unregistered addresses (the
 * detail's `registered`, SenderNotLicensedException, InviteUserToShareException): issue 12 §2 puts
 * them under the look-up budget that recipient-status and recipient-keys share. Within the budget
 * the send page gets its messages; once it is spent, a new address gets the same 429 whether it
 * belongs to someone or not.
 */

let server: TestServer;
let admin: Session;
let uma: Session; // unlicensed sender
let ivo: Session; // licensed sender without ROLE_SHARES_CAN_INVITE
let lisa: Session; // licensed sender who may invite

const api = (path: string) => `/api/2${path}`;
const draft = (session: Session, recipients: string[]) => call(server, session, 'POST', api(DELIVERY_PATHS.create), { recipients, subject: 'Budget', body: 'A message.', securityLevel: 10 });
const statusUrl = api(DELIVERY_PATHS.recipientStatus);

/** The answer without its per-request parts (uuid), to compare two refusals. */
const comparable = ({ error, message, metadata, requestUri }: BackendError) => ({ error, message, metadata, requestUri });

/** Spends what is left of the budget of `login` on unknown addresses through the chips' route, as a walker would. */
async function exhaustBudget(session: Session, login: string, prefix: string): Promise<void> {
  const user = await server.app.users.findByLogin(login);
  const spent = (await server.app.db.selectFrom('recipient_lookups').select('address').where('user_id', '=', user!.id).execute()).length;
  let left = RECIPIENT_LOOKUP_LIMIT.limit - spent;
  for (let b = 0; left > 0; b++) {
    const emails = Array.from({ length: Math.min(left, MAX_RECIPIENT_STATUS_EMAILS) }, (_, i) => `${prefix}-${b}-${i}@example.test`);
    const answer = await call(server, session, 'POST', statusUrl, { emails });
    expect(answer.status, await answer.clone().text()).toBe(200);
    left -= emails.length;
  }
}

async function userUuid(email: string): Promise<string> {
  const list = (await (await call(server, admin, 'GET', `${api('/admin/users')}?q=${encodeURIComponent(email)}`)).json()) as ListUsersResponse;
  return list.users.find((u) => u.email === email)!.uuid;
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  for (const name of ['uma', 'ivo', 'lisa', 'reg1', 'reg2', 'reg3', 'reg4']) await createUserAsAdmin(server, admin, { email: `${name}@example.test` });
  const licence = await call(server, admin, 'PATCH', api(SENDER_GROUP_PATHS.userSender(await userUuid('uma@example.test'))), { licensed: false });
  expect(licence.status, await licence.clone().text()).toBe(200);
  await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.inviteRequiresRole]: true });
  const lisaRow = await server.app.users.findByLogin('lisa@example.test');
  await server.app.users.update(lisaRow!.id, { roles: JSON.stringify(['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SHARES_CAN_INVITE']) });
  uma = await signIn(server, 'uma@example.test', 'Good-Passw0rd');
  ivo = await signIn(server, 'ivo@example.test', 'Good-Passw0rd');
  lisa = await signIn(server, 'lisa@example.test', 'Good-Passw0rd');
}, 60_000);
afterAll(() => server?.close());
beforeEach(async () => {
  await server.app.db.deleteFrom('recipient_lookups').execute();
  await server.app.db.deleteFrom('rate_limit_events').execute();
});

describe('draft errors and the look-up budget', () => {
  it('an unlicensed sender: SenderNotLicensedException names the address within the budget; past it, registered and unknown addresses get the same 429', async () => {
    const within = await expectBackendError(await draft(uma, ['reg1@example.test', 'stranger@example.test']), 403, 'SenderNotLicensedException');
    expect(within.metadata).toMatchObject({ recipients: ['stranger@example.test'] });
    expect((await draft(uma, ['reg1@example.test'])).status).toBe(201);

    await exhaustBudget(uma, 'uma@example.test', 'uma-walk');
    const registered = await draft(uma, ['reg2@example.test']);
    const unknown = await draft(uma, ['nobody-here@example.test']);
    const a = await expectBackendError(registered, 429, 'RateLimitExceededException');
    const b = await expectBackendError(unknown, 429, 'RateLimitExceededException');
    expect(a.metadata).toMatchObject({ reason: 'lookupBudget' });
    expect(comparable(a)).toEqual(comparable(b));
    expect(Number(registered.headers.get('retry-after'))).toBeGreaterThan(0);
    // Nothing was stored for the refused drafts.
    const stored = await server.app.db.selectFrom('delivery_recipients').select('email').where('email', 'in', ['reg2@example.test', 'nobody-here@example.test']).execute();
    expect(stored).toEqual([]);
    // Addresses asked before are answered again, with their message (the send page re-sends its draft).
    const again = await expectBackendError(await draft(uma, ['reg1@example.test', 'stranger@example.test']), 403, 'SenderNotLicensedException');
    expect(again.metadata).toMatchObject({ recipients: ['stranger@example.test'] });
  });

  it('the invitation rule: InviteUserToShareException within the budget; past it, the same 429 for both kinds of address', async () => {
    const within = await expectBackendError(await draft(ivo, ['reg1@example.test', 'new-person@example.test']), 403, 'InviteUserToShareException');
    expect(within.metadata).toMatchObject({ recipients: ['new-person@example.test'] });

    await exhaustBudget(ivo, 'ivo@example.test', 'ivo-walk');
    const a = await expectBackendError(await draft(ivo, ['reg3@example.test']), 429, 'RateLimitExceededException');
    const b = await expectBackendError(await draft(ivo, ['another-new@example.test']), 429, 'RateLimitExceededException');
    expect(comparable(a)).toEqual(comparable(b));
  });

  it('a draft update with a new address costs the budget too, and so does the registered flag of the detail', async () => {
    const created = await draft(lisa, ['reg1@example.test', 'outsider@example.test']);
    expect(created.status, await created.clone().text()).toBe(201);
    const detail = (await created.json()) as DeliveryDetail;
    expect(Object.fromEntries(detail.recipients.map((r) => [r.email, r.registered]))).toEqual({ 'reg1@example.test': true, 'outsider@example.test': false });

    await exhaustBudget(lisa, 'lisa@example.test', 'lisa-walk');
    const update = (recipients: string[]) => call(server, lisa, 'PATCH', api(DELIVERY_PATHS.one(detail.deliveryUuid)), { recipients });
    const a = await expectBackendError(await update(['reg4@example.test']), 429, 'RateLimitExceededException');
    const b = await expectBackendError(await update(['outsider-2@example.test']), 429, 'RateLimitExceededException');
    expect(comparable(a)).toEqual(comparable(b));
    // The draft kept its recipients.
    const kept = (await (await call(server, lisa, 'GET', api(DELIVERY_PATHS.one(detail.deliveryUuid)))).json()) as DeliveryDetail;
    expect(kept.recipients.map((r) => r.email)).toEqual(['reg1@example.test', 'outsider@example.test']);
    // Changing the subject of the draft with its known addresses still works.
    const subject = await call(server, lisa, 'PATCH', api(DELIVERY_PATHS.one(detail.deliveryUuid)), { subject: 'Still mine' });
    expect(subject.status, await subject.clone().text()).toBe(200);
    // An hour later the budget is back (the stored times move instead of the test waiting).
    await server.app.db.updateTable('recipient_lookups').set({ last_at: Date.now() - RECIPIENT_LOOKUP_LIMIT.windowMs - 1 }).execute();
    expect((await update(['reg4@example.test'])).status).toBe(200);
  });

  it('refuses the draft routes to anonymous callers', async () => {
    await expectBackendError(await call(server, null, 'POST', api(DELIVERY_PATHS.create), { recipients: ['reg1@example.test'], subject: 'x', body: 'y' }), 401);
  });
});
