import { randomBytes } from 'node:crypto';
import type { AdminUser, ListUsersResponse } from '@shared/contract/admin-users';
import type { DeliverySendConfig } from '@shared/contract/config';
import { DELIVERY_PATHS, DELIVERY_SETTING_KEYS, SHARE_PROOF_COOKIE, type DeliveryDetail } from '@shared/contract/deliveries';
import { SENDER_GROUP_PATHS, type SenderGroup, type SenderGroupList } from '@shared/contract/sender-groups';
import { SETTING_KEYS } from '@shared/contract/settings';
import { addressedTo, extractLink, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { ShareProofJar } from '@tests/support/share-proof';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';

/**
 * Who may send what (server/deliveries/senders.ts): licensed senders, sender groups with their
 * levels, the invitation rule, and the level-1 email proof (share-proof.ts). Reply-only external
 * accounts are covered with a real delivery signup in external-recipient.test.ts.
 */

let server: TestServer;
let admin: Session;
let alice: Session; // a licensed sender
let uma: Session; // made unlicensed by the administrator
let lena: Session; // licensed registered recipient
let gina: Session; // member of a sender group
let ivo: Session; // sender without ROLE_SHARES_CAN_INVITE
let ines: Session; // sender with ROLE_SHARES_CAN_INVITE

const api = (path: string) => `/api/2${path}`;
const SENDER_ROLES = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER'] as const;

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function userUuid(email: string): Promise<string> {
  const list = await json<ListUsersResponse>(await call(server, admin, 'GET', `${api('/admin/users')}?q=${encodeURIComponent(email)}`), 200);
  return list.users.find((u) => u.email === email)!.uuid;
}

const setSender = async (email: string, body: Record<string, unknown>) =>
  json<AdminUser>(await call(server, admin, 'PATCH', api(SENDER_GROUP_PATHS.userSender(await userUuid(email))), body), 200);

const draft = (session: Session, recipients: string[], extra: Record<string, unknown> = {}) =>
  call(server, session, 'POST', api(DELIVERY_PATHS.create), { recipients, subject: 'Rules', body: 'A message.', ...extra });
const sendConfig = async (session: Session) => json<DeliverySendConfig>(await call(server, session, 'GET', api('/delivery/send/config')), 200);

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  for (const name of ['alice', 'uma', 'lena', 'nils', 'gina', 'ivo']) await createUserAsAdmin(server, admin, { email: `${name}@example.test` });
  await createUserAsAdmin(server, admin, { email: 'ines@example.test', roleNames: [...SENDER_ROLES, 'ROLE_SHARES_CAN_INVITE'] });
  const as = (name: string) => signIn(server, `${name}@example.test`, 'Good-Passw0rd');
  alice = await as('alice');
  uma = await as('uma');
  lena = await as('lena');
  gina = await as('gina');
  ivo = await as('ivo');
  ines = await as('ines');
  // Seven accounts, each proving its address (two sign-ins) on a shared 2-core machine.
}, 180_000);
afterAll(() => server?.close());

describe('licensing', () => {
  it('accounts made by an administrator are licensed; the administrator toggles the flag', async () => {
    const list = await json<ListUsersResponse>(await call(server, admin, 'GET', `${api('/admin/users')}?q=example.test`), 200);
    expect(list.users.every((u) => u.licensed)).toBe(true);
    expect((await setSender('uma@example.test', { licensed: false })).licensed).toBe(false);
    expect((await setSender('nils@example.test', { licensed: false })).licensed).toBe(false);
    expect((await sendConfig(uma)).sender).toMatchObject({ licensed: false, replyOnly: false });
  });

  it('an unlicensed sender reaches licensed users only: unlicensed or unregistered recipients → SenderNotLicensedException', async () => {
    const refused = await expectBackendError(await draft(uma, ['lena@example.test', 'nils@example.test', 'new@partner.test']), 403, 'SenderNotLicensedException');
    expect(refused.metadata).toEqual({ recipients: ['nils@example.test', 'new@partner.test'] });
    // Additional recipients count too.
    const cc = await expectBackendError(await draft(uma, ['lena@example.test'], { additionalRecipients: ['cc@partner.test'] }), 403, 'SenderNotLicensedException');
    expect(cc.metadata).toEqual({ recipients: ['cc@partner.test'] });
    const ok = await json<DeliveryDetail>(await draft(uma, ['Lena@Example.test']), 201);
    await json<DeliveryDetail>(await call(server, uma, 'POST', api(DELIVERY_PATHS.send(ok.deliveryUuid))), 200);
    // A licensed sender reaches anyone.
    expect((await draft(alice, ['nils@example.test', 'new@partner.test'])).status).toBe(201);
  });

  it('is checked again at send: a draft made while licensed cannot go out once the licence is gone', async () => {
    await setSender('uma@example.test', { licensed: true });
    const made = await json<DeliveryDetail>(await draft(uma, ['outside@partner.test']), 201);
    await setSender('uma@example.test', { licensed: false });
    const refused = await expectBackendError(await call(server, uma, 'POST', api(DELIVERY_PATHS.send(made.deliveryUuid))), 403, 'SenderNotLicensedException');
    expect(refused.metadata).toEqual({ recipients: ['outside@partner.test'] });
    // Editing the draft is checked as well.
    await expectBackendError(await call(server, uma, 'PATCH', api(DELIVERY_PATHS.one(made.deliveryUuid)), { recipients: ['x@partner.test'] }), 403, 'SenderNotLicensedException');
  });
});

describe('sender groups', () => {
  let group: SenderGroup;

  it('the administrator creates, lists, renames, sets levels and assigns; bad input is refused', async () => {
    group = (await json<{ group: SenderGroup }>(await call(server, admin, 'POST', api(SENDER_GROUP_PATHS.list), { name: 'Legal', levels: [20, 10] }), 201)).group;
    expect(group).toMatchObject({ name: 'Legal', levels: [10, 20], memberCount: 0 });
    await expectBackendError(await call(server, admin, 'POST', api(SENDER_GROUP_PATHS.list), { name: 'legal', levels: [0] }), 409, 'ConflictException');
    await expectBackendError(await call(server, admin, 'POST', api(SENDER_GROUP_PATHS.list), { name: 'Empty', levels: [] }), 400, 'ValidationException');
    await expectBackendError(await call(server, admin, 'POST', api(SENDER_GROUP_PATHS.list), { name: 'Odd', levels: [5] }), 400, 'ValidationException');
    await expectBackendError(await call(server, admin, 'POST', api(SENDER_GROUP_PATHS.list), { name: ' ', levels: [0] }), 400, 'ValidationException');
    await expectBackendError(await call(server, admin, 'PATCH', api(SENDER_GROUP_PATHS.one('00000000-0000-4000-8000-000000000000')), { name: 'X' }), 404, 'NotFoundException');
    const renamed = await json<{ group: SenderGroup }>(await call(server, admin, 'PATCH', api(SENDER_GROUP_PATHS.one(group.groupUuid)), { name: 'Legal team' }), 200);
    expect(renamed.group.name).toBe('Legal team');
    const assigned = await setSender('gina@example.test', { senderGroupUuid: group.groupUuid });
    expect(assigned.senderGroupUuid).toBe(group.groupUuid);
    await expectBackendError(await call(server, admin, 'PATCH', api(SENDER_GROUP_PATHS.userSender(assigned.uuid)), { senderGroupUuid: 'nope' }), 400, 'ValidationException');
    const list = await json<SenderGroupList>(await call(server, admin, 'GET', api(SENDER_GROUP_PATHS.list)), 200);
    expect(list.groups).toEqual([{ groupUuid: group.groupUuid, name: 'Legal team', levels: [10, 20], memberCount: 1 }]);
  });

  it('a member sends with the levels both the group and the global settings allow; the minimal one is the first', async () => {
    const config = await sendConfig(gina);
    expect([config.allowSecurityLevel1, config.allowSecurityLevel2, config.allowSecurityLevel3, config.allowSecurityLevel4]).toEqual([false, true, true, false]);
    expect(config.sender?.group).toBe('Legal team');
    expect((await json<DeliveryDetail>(await draft(gina, ['lena@example.test']), 201)).securityLevel).toBe(10);
    const refused = await expectBackendError(await draft(gina, ['lena@example.test'], { securityLevel: 0 }), 400, 'ValidationException');
    expect(refused.metadata).toMatchObject({ field: 'securityLevel', reason: 'notAllowed', allowed: [10, 20] });
    // Others keep the global levels.
    expect((await json<DeliveryDetail>(await draft(alice, ['lena@example.test']), 201)).securityLevel).toBe(0);
    // The global settings still apply on top of the group.
    await updateSettings(server, admin, { [SETTING_KEYS.allowSecurityLevel2]: false });
    try {
      expect((await json<DeliveryDetail>(await draft(gina, ['lena@example.test']), 201)).securityLevel).toBe(20);
      await updateSettings(server, admin, { [SETTING_KEYS.allowSecurityLevel3]: false });
      await expectBackendError(await draft(gina, ['lena@example.test']), 400, 'ValidationException');
    } finally {
      await updateSettings(server, admin, { [SETTING_KEYS.allowSecurityLevel2]: true, [SETTING_KEYS.allowSecurityLevel3]: true });
    }
  });

  it('new levels apply at once (also at send); deleting the group returns its members to the global levels', async () => {
    const made = await json<DeliveryDetail>(await draft(gina, ['lena@example.test']), 201);
    await json(await call(server, admin, 'PATCH', api(SENDER_GROUP_PATHS.one(group.groupUuid)), { levels: [30] }), 200);
    await expectBackendError(await call(server, gina, 'POST', api(DELIVERY_PATHS.send(made.deliveryUuid))), 400, 'ValidationException');
    expect((await sendConfig(gina)).allowSecurityLevel4).toBe(true);
    expect((await call(server, admin, 'DELETE', api(SENDER_GROUP_PATHS.one(group.groupUuid)))).status).toBe(204);
    const config = await sendConfig(gina);
    expect([config.allowSecurityLevel1, config.allowSecurityLevel2, config.allowSecurityLevel3, config.allowSecurityLevel4]).toEqual([true, true, true, true]);
    expect(config.sender?.group).toBeNull();
    expect((await json<DeliveryDetail>(await draft(gina, ['lena@example.test']), 201)).securityLevel).toBe(0);
    await expectBackendError(await call(server, admin, 'DELETE', api(SENDER_GROUP_PATHS.one(group.groupUuid))), 404);
  });
});

describe('inviting new users when sharing', () => {
  it('with the setting on, only ROLE_SHARES_CAN_INVITE may send to unregistered addresses (InviteUserToShareException)', async () => {
    // Off (the default): anyone invites.
    expect((await sendConfig(ivo)).sender?.mayInvite).toBe(true);
    expect((await draft(ivo, ['fresh@partner.test'])).status).toBe(201);
    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.inviteRequiresRole]: true });
    try {
      expect((await sendConfig(ivo)).sender?.mayInvite).toBe(false);
      const refused = await expectBackendError(await draft(ivo, ['lena@example.test', 'fresh@partner.test', 'other@partner.test']), 403, 'InviteUserToShareException');
      expect(refused.metadata).toEqual({ recipients: ['fresh@partner.test', 'other@partner.test'] });
      // Registered users are fine; the role lifts the rule.
      expect((await draft(ivo, ['lena@example.test'])).status).toBe(201);
      expect((await sendConfig(ines)).sender?.mayInvite).toBe(true);
      const invited = await json<DeliveryDetail>(await draft(ines, ['fresh@partner.test']), 201);
      expect((await call(server, ines, 'POST', api(DELIVERY_PATHS.send(invited.deliveryUuid)))).status).toBe(200);
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.inviteRequiresRole]: false });
    }
  });
});

describe('level-1 email proof', () => {
  async function sentTo(to: string) {
    const made = await json<DeliveryDetail>(await draft(alice, [to], { securityLevel: 0, subject: `Proof ${to}` }), 201);
    await json(await call(server, alice, 'POST', api(DELIVERY_PATHS.send(made.deliveryUuid))), 200);
    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo(to)(m) && m.subject.includes(`Proof ${to}`));
    const link = extractLink(mail, '/secumails/');
    return { to, deliveryUuid: made.deliveryUuid, link, token: new URLSearchParams(link.hash.slice(1)).get('token')! };
  }
  const viewUrl = (s: { deliveryUuid: string; token: string }) => `${server.url}${api(DELIVERY_PATHS.one(s.deliveryUuid))}?token=${encodeURIComponent(s.token)}`;

  it('the proof is bound to its share and runs out; a wrong address earns none; the signed-in recipient needs none', async () => {
    const one = await sentTo(`p1-${randomBytes(3).toString('hex')}@partner.test`);
    const two = await sentTo(`p2-${randomBytes(3).toString('hex')}@partner.test`);
    const jar = new ShareProofJar(server.url);
    // A wrong address: refused and no cookie.
    expect(await jar.confirm(one.link, 'someone@else.test')).toBe(400);
    expect(jar.cookieFor(viewUrl(one))).toBeUndefined();
    expect(await jar.confirm(one.link, one.to)).toBe(200);
    expect((await jar.fetch(viewUrl(one))).status).toBe(200);
    // Share one's proof, handed to share two's delivery by hand: refused.
    const proof = jar.cookieFor(viewUrl(one))!;
    const foreign = await expectBackendError(await fetch(viewUrl(two), { headers: { cookie: proof } }), 403, 'AccessDeniedException');
    expect(foreign.metadata).toEqual({ reason: 'emailConfirmationRequired' });
    // The proof never opens a delivery without the token.
    await expectBackendError(await fetch(`${server.url}${api(DELIVERY_PATHS.one(one.deliveryUuid))}`, { headers: { cookie: proof } }), 401);
    // Expired: refused again.
    await server.app.db.updateTable('share_proofs').set({ expires_at: Date.now() - 1 }).execute();
    await expectBackendError(await jar.fetch(viewUrl(one)), 403, 'AccessDeniedException');
    // Only the hash is stored.
    const stored = await server.app.db.selectFrom('share_proofs').select('hash').execute();
    expect(stored.map((r) => r.hash)).not.toContain(proof.slice(SHARE_PROOF_COOKIE.length + 1));
  });

  it('a registered level-1 recipient who is signed in reads the delivery without the prompt', async () => {
    const sent = await sentTo('lena@example.test');
    const view = await fetch(viewUrl(sent), { headers: { cookie: lena.cookie } });
    expect(view.status).toBe(200);
    expect(((await view.json()) as DeliveryDetail).viewer).toBe('recipient');
  });
});

describe('authorisation of the administration calls', () => {
  it('anonymous → 401, a user → 403, an administrator → the data', async () => {
    const created = await json<{ group: SenderGroup }>(await call(server, admin, 'POST', api(SENDER_GROUP_PATHS.list), { name: 'Matrix', levels: [0] }), 201);
    const someone = await userUuid('nils@example.test');
    const calls: Array<[string, string, unknown, number]> = [
      ['GET', SENDER_GROUP_PATHS.list, undefined, 200],
      ['POST', SENDER_GROUP_PATHS.list, { name: 'Matrix 2', levels: [0] }, 201],
      ['PATCH', SENDER_GROUP_PATHS.one(created.group.groupUuid), { name: 'Matrix renamed' }, 200],
      ['PATCH', SENDER_GROUP_PATHS.userSender(someone), { licensed: false }, 200],
      ['DELETE', SENDER_GROUP_PATHS.one(created.group.groupUuid), undefined, 204],
    ];
    for (const [method, path, body, status] of calls) {
      await expectBackendError(await call(server, null, method, api(path), body), 401, 'AuthenticationRequiredException');
      await expectBackendError(await call(server, alice, method, api(path), body), 403, 'AccessDeniedException');
      // Nothing changed by the refused calls.
      expect((await call(server, admin, method, api(path), body)).status, `${method} ${path}`).toBe(status);
    }
    // A user cannot license themselves.
    await expectBackendError(await call(server, uma, 'PATCH', api(SENDER_GROUP_PATHS.userSender(await userUuid('uma@example.test'))), { licensed: true }), 403);
    expect((await sendConfig(uma)).sender?.licensed).toBe(false);
  });
});
