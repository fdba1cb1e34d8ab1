import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { PASSWORD_LINK_INVITATION_FLAG } from '@shared/contract/auth-escalation';
import type { AdminUser, BannedRecipients, CreateUserResponse } from '@shared/contract/admin-users';
import type { AuditLogResponse } from '@shared/contract/audit';
import type { DeliveryDetail, DeliveryUploadFile } from '@shared/contract/deliveries';
import { filesUnder, testFileBytes } from '@tests/support/files';
import { addressedTo, extractLink, linkToken, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, postAuth, signIn, signInAdmin, type Session } from './core-helpers';

let server: TestServer;
let admin: Session;
let userAdmin: Session;
let plain: Session;
const api = (path: string) => `/api/2${path}`;
const PASSWORD = 'Good-Passw0rd';

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function userByEmail(email: string): Promise<AdminUser> {
  const page = await json<{ users: AdminUser[] }>(await call(server, admin, 'GET', api(`/admin/users?q=${encodeURIComponent(email)}`)), 200);
  const user = page.users.find((u) => u.email === email);
  expect(user, email).toBeDefined();
  return user!;
}

/** A proven account with a session. */
async function member(email: string, roleNames?: string[]): Promise<{ user: AdminUser; session: Session }> {
  await createUserAsAdmin(server, admin, { email, ...(roleNames ? { roleNames: roleNames as never } : {}) });
  return { user: await userByEmail(email), session: await signIn(server, email, PASSWORD) };
}

async function auditActions(): Promise<string[]> {
  const log = await json<AuditLogResponse>(await call(server, admin, 'GET', api('/admin/audit-log?pageSize=200')), 200);
  return log.entries.map((e) => e.action);
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  userAdmin = (await member('ua@example.test', ['ROLE_UI_USER', 'ROLE_USER_ADMIN'])).session;
  plain = (await member('plain@example.test')).session;
});
afterAll(async () => server?.close());

describe('create: invitation mail', () => {
  it('without a password the user is invited; the link sets the password and proves the address', async () => {
    const created = await json<CreateUserResponse>(
      await call(server, userAdmin, 'POST', api('/admin/users'), { email: 'invited@example.test', firstName: 'Ina', language: 'de', roleNames: ['ROLE_UI_USER', 'ROLE_OUTLOOK'] }),
      201,
    );
    expect(created.invited).toBe(true);
    expect(created.user.roleNames).toEqual(['ROLE_UI_USER', 'ROLE_OUTLOOK']);
    expect((await userByEmail('invited@example.test')).emailVerified).toBe(false);
    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo('invited@example.test'));
    expect(mail.subject).toContain('Einladung');
    const link = extractLink(mail, '/auth/reset-password');
    // The page speaks of a first password ("Set your password"), not a changed one (issue 33 §2).
    expect(link.searchParams.get(PASSWORD_LINK_INVITATION_FLAG)).toBe('1');
    const token = linkToken(link);
    const confirm = await fetch(`${server.url}/api/2/auth/password-reset/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'Invited-Passw0rd' }),
    });
    expect([200, 204], await confirm.clone().text()).toContain(confirm.status);
    // Proven by the link: the first sign-in needs no code.
    expect((await postAuth(server, 'invited@example.test', 'Invited-Passw0rd')).response.status).toBe(200);
    expect((await userByEmail('invited@example.test')).emailVerified).toBe(true);
    expect(await auditActions()).toContain('user.created');
  });

  it('resends an invitation to an unproven user only; denials', async () => {
    await json(await call(server, admin, 'POST', api('/admin/users'), { email: 'later@example.test' }), 201);
    const later = await userByEmail('later@example.test');
    expect((await call(server, userAdmin, 'POST', api(`/admin/users/${later.uuid}/invitation`))).status).toBe(204);
    const proven = await userByEmail('plain@example.test');
    const body = await expectBackendError(await call(server, admin, 'POST', api(`/admin/users/${proven.uuid}/invitation`)), 409, 'ConflictException');
    expect(body.metadata.reason).toBe('alreadyVerified');
    await expectBackendError(await call(server, plain, 'POST', api(`/admin/users/${later.uuid}/invitation`)), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'POST', api(`/admin/users/${later.uuid}/invitation`)), 401);
  });
});

describe('edit roles, names, language', () => {
  it('an admin grants ROLE_OUTLOOK; the add-in sign-in works then', async () => {
    const { user } = await member('outlook@example.test');
    const addinSignIn = () =>
      fetch(`${server.url}/api/2/auth`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`outlook@example.test:${PASSWORD}`).toString('base64')}`, 'content-type': 'application/json', 'x-kuvert-client': 'outlook-addin' },
      });
    expect((await addinSignIn()).status).toBe(403);
    const updated = await json<AdminUser>(
      await call(server, admin, 'PATCH', api(`/admin/users/${user.uuid}`), { roleNames: [...user.roleNames, 'ROLE_OUTLOOK'], language: 'fr', lastName: 'Outlook' }),
      200,
    );
    expect(updated.roleNames).toContain('ROLE_OUTLOOK');
    expect(updated.language).toBe('fr');
    expect(updated.lastName).toBe('Outlook');
    expect((await addinSignIn()).status).toBe(200);
    expect(await auditActions()).toContain('user.updated');
  });

  it('ROLE_USER_ADMIN edits users but not administrators, and grants no admin role; bad input is 400', async () => {
    const { user } = await member('edit-me@example.test');
    expect((await call(server, userAdmin, 'PATCH', api(`/admin/users/${user.uuid}`), { roleNames: ['ROLE_UI_USER', 'ROLE_SECUROOMS_USER'] })).status).toBe(200);
    await expectBackendError(await call(server, userAdmin, 'PATCH', api(`/admin/users/${user.uuid}`), { roleNames: ['ROLE_ADMIN'] }), 403, 'AccessDeniedException');
    // Creating one is refused the same way (403, not a validation error), and creates nobody.
    await expectBackendError(await call(server, userAdmin, 'POST', api('/admin/users'), { email: 'would-be-admin@example.test', roleNames: ['ROLE_ADMIN'] }), 403, 'AccessDeniedException');
    expect(await server.app.db.selectFrom('users').select('id').where('email', '=', 'would-be-admin@example.test').executeTakeFirst()).toBeUndefined();
    const adminUser = await userByEmail(server.admin.email);
    await expectBackendError(await call(server, userAdmin, 'PATCH', api(`/admin/users/${adminUser.uuid}`), { firstName: 'Mallory' }), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, plain, 'PATCH', api(`/admin/users/${user.uuid}`), { firstName: 'X' }), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'PATCH', api(`/admin/users/${user.uuid}`), { firstName: 'X' }), 401);
    await expectBackendError(await call(server, admin, 'PATCH', api(`/admin/users/${user.uuid}`), { roleNames: ['ROLE_NOPE'] }), 400, 'ValidationException');
    await expectBackendError(await call(server, admin, 'PATCH', api(`/admin/users/${user.uuid}`), {}), 400, 'ValidationException');
    await expectBackendError(await call(server, admin, 'PATCH', api('/admin/users/no-such-user'), { firstName: 'X' }), 404, 'NotFoundException');
    // Nobody takes ROLE_ADMIN from themselves (the installation keeps an administrator).
    const self = await expectBackendError(await call(server, admin, 'PATCH', api(`/admin/users/${adminUser.uuid}`), { roleNames: ['ROLE_UI_USER'] }), 409, 'ConflictException');
    expect(self.metadata.reason).toBe('self');
  });

  it('an admin may edit, demote and promote another administrator', async () => {
    const { user } = await member('second-admin@example.test', ['ROLE_UI_USER', 'ROLE_ADMIN']);
    const demoted = await json<AdminUser>(await call(server, admin, 'PATCH', api(`/admin/users/${user.uuid}`), { roleNames: ['ROLE_UI_USER'] }), 200);
    expect(demoted.roleNames).toEqual(['ROLE_UI_USER']);
  });
});

describe('disable and enable', () => {
  it('every session of a disabled user ends at once; sign-in answers code 8; enabling lets them in again', async () => {
    const { user, session } = await member('disable-me@example.test');
    const second = await signIn(server, 'disable-me@example.test', PASSWORD);
    expect((await call(server, session, 'GET', api('/user'))).status).toBe(200);
    const disabled = await json<AdminUser>(await call(server, userAdmin, 'POST', api(`/admin/users/${user.uuid}/disable`)), 200);
    expect(disabled.disabled).toBe(true);
    for (const s of [session, second]) expect((await call(server, s, 'GET', api('/deliveries/inbox'))).status).toBe(401);
    expect(await server.app.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    const refused = await postAuth(server, 'disable-me@example.test', PASSWORD);
    expect(refused.response.status).toBe(403);
    expect(refused.errors.map((e) => e.authorizationError)).toContain(8);
    const enabled = await json<AdminUser>(await call(server, userAdmin, 'POST', api(`/admin/users/${user.uuid}/enable`)), 200);
    expect(enabled.disabled).toBe(false);
    expect((await postAuth(server, 'disable-me@example.test', PASSWORD)).response.status).toBe(200);
    const actions = await auditActions();
    expect(actions).toContain('user.disabled');
    expect(actions).toContain('user.enabled');
  });

  it('denials: anonymous, plain user, user admin on an admin, oneself, the last administrator', async () => {
    const { user } = await member('keep-enabled@example.test');
    await expectBackendError(await call(server, null, 'POST', api(`/admin/users/${user.uuid}/disable`)), 401);
    await expectBackendError(await call(server, plain, 'POST', api(`/admin/users/${user.uuid}/disable`)), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, admin, 'POST', api(`/admin/users/${user.uuid}/disable`), undefined, { csrf: null }), 403, 'CsrfTokenException');
    const adminUser = await userByEmail(server.admin.email);
    await expectBackendError(await call(server, userAdmin, 'POST', api(`/admin/users/${adminUser.uuid}/disable`)), 403, 'AccessDeniedException');
    const self = await expectBackendError(await call(server, admin, 'POST', api(`/admin/users/${adminUser.uuid}/disable`)), 409, 'ConflictException');
    expect(self.metadata.reason).toBe('self');
    const ua = await userByEmail('ua@example.test');
    const selfUa = await expectBackendError(await call(server, userAdmin, 'POST', api(`/admin/users/${ua.uuid}/disable`)), 409, 'ConflictException');
    expect(selfUa.metadata.reason).toBe('self');
    expect((await userByEmail('keep-enabled@example.test')).disabled).toBe(false);
  });

  it('the last administrator cannot be disabled or deleted by another administrator either', async () => {
    const { user: other, session: otherAdmin } = await member('temp-admin@example.test', ['ROLE_UI_USER', 'ROLE_ADMIN']);
    const adminUser = await userByEmail(server.admin.email);
    // Two administrators: the other may disable the first …
    expect((await call(server, otherAdmin, 'POST', api(`/admin/users/${adminUser.uuid}/disable`))).status).toBe(200);
    // … and then the first (disabled, signed out) is not counted: the other is the last one.
    expect((await call(server, admin, 'GET', api('/admin/users'))).status).toBe(401);
    const last = await expectBackendError(await call(server, otherAdmin, 'DELETE', api(`/admin/users/${other.uuid}`)), 409, 'ConflictException');
    expect(last.metadata.reason).toBe('self');
    expect((await call(server, otherAdmin, 'POST', api(`/admin/users/${adminUser.uuid}/enable`))).status).toBe(200);
    admin = await signInAdmin(server);
    // Now the first deletes the temporary one.
    expect((await call(server, admin, 'DELETE', api(`/admin/users/${other.uuid}`))).status).toBe(204);
  });
});

describe('delete', () => {
  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

  async function sentDelivery(session: Session, to: string): Promise<string> {
    const draft = await json<DeliveryDetail>(await call(server, session, 'POST', api('/deliveries'), { recipients: [to], subject: `For ${to}`, body: 'Hello', securityLevel: 0 }), 201);
    const bytes = testFileBytes(2000);
    const file = await json<DeliveryUploadFile>(await call(server, session, 'POST', api(`/deliveries/${draft.deliveryUuid}/files`), { name: 'a.pdf', size: bytes.length, mimeType: 'application/pdf' }), 201);
    const put = await fetch(`${server.url}${api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/parts/0`)}`, {
      method: 'PUT',
      headers: { cookie: session.cookie, [ANTI_CSRF_HEADER]: session.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(bytes) },
      body: new Blob([Uint8Array.from(bytes)]),
    });
    expect(put.status, await put.clone().text()).toBe(200);
    await json(await call(server, session, 'POST', api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/commit`)), 200);
    await json(await call(server, session, 'POST', api(`/deliveries/${draft.deliveryUuid}/send`)), 200);
    return draft.deliveryUuid;
  }

  it('their sent deliveries go with rows and bytes; deliveries they received stay; nothing orphaned', async () => {
    const { user, session } = await member('leaver@example.test');
    const { session: stayer } = await member('stayer@example.test');
    const sent = await sentDelivery(session, 'stayer@example.test');
    const received = await sentDelivery(stayer, 'leaver@example.test');
    const blobs = join(server.dataDir, 'blobs');
    const bytesOf = async (uuid: string) => (await filesUnder(blobs)).filter((p) => p.includes(uuid));
    expect(await bytesOf(sent)).not.toEqual([]);

    await expectBackendError(await call(server, plain, 'DELETE', api(`/admin/users/${user.uuid}`)), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'DELETE', api(`/admin/users/${user.uuid}`)), 401);
    expect((await call(server, userAdmin, 'DELETE', api(`/admin/users/${user.uuid}`))).status).toBe(204);

    const db = server.app.db;
    expect(await db.selectFrom('users').select('id').where('id', '=', user.id).execute()).toEqual([]);
    expect(await db.selectFrom('deliveries').select('id').where('uuid', '=', sent).execute()).toEqual([]);
    expect(await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    // Nothing points at a row that is gone.
    const orphans = await Promise.all([
      db.selectFrom('deliveries').leftJoin('users', 'users.id', 'deliveries.sender_id').select('deliveries.id').where('users.id', 'is', null).execute(),
      db.selectFrom('delivery_recipients').leftJoin('deliveries', 'deliveries.id', 'delivery_recipients.delivery_id').select('delivery_recipients.id').where('deliveries.id', 'is', null).execute(),
      db.selectFrom('delivery_files').leftJoin('deliveries', 'deliveries.id', 'delivery_files.delivery_id').select('delivery_files.id').where('deliveries.id', 'is', null).execute(),
      db.selectFrom('delivery_file_parts').leftJoin('delivery_files', 'delivery_files.id', 'delivery_file_parts.file_id').select('delivery_file_parts.file_id').where('delivery_files.id', 'is', null).execute(),
      db.selectFrom('delivery_activity').leftJoin('deliveries', 'deliveries.id', 'delivery_activity.delivery_id').select('delivery_activity.id').where('deliveries.id', 'is', null).execute(),
      db.selectFrom('public_keys').leftJoin('users', 'users.id', 'public_keys.user_id').select('public_keys.key_id').where('users.id', 'is', null).execute(),
    ]);
    expect(orphans.map((rows) => rows.length)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await bytesOf(sent)).toEqual([]);
    // What they received stays with its sender, bytes included.
    const stays = await json<DeliveryDetail>(await call(server, stayer, 'GET', api(`/deliveries/${received}`)), 200);
    expect(stays.deliveryUuid).toBe(received);
    expect(await bytesOf(received)).not.toEqual([]);
    // The audit log keeps who it was.
    const log = await json<AuditLogResponse>(await call(server, admin, 'GET', api('/admin/audit-log?action=user.deleted')), 200);
    expect(log.entries[0]?.details).toMatchObject({ email: 'leaver@example.test', deliveries: 1 });
    // The account cannot sign in; the address is free for a new account.
    expect((await postAuth(server, 'leaver@example.test', PASSWORD)).response.status).toBe(401);
    expect((await call(server, admin, 'POST', api('/admin/users'), { email: 'leaver@example.test' })).status).toBe(201);
  });

  it('a user admin cannot delete an administrator; nobody deletes themselves', async () => {
    const adminUser = await userByEmail(server.admin.email);
    await expectBackendError(await call(server, userAdmin, 'DELETE', api(`/admin/users/${adminUser.uuid}`)), 403, 'AccessDeniedException');
    const self = await expectBackendError(await call(server, admin, 'DELETE', api(`/admin/users/${adminUser.uuid}`)), 409, 'ConflictException');
    expect(self.metadata.reason).toBe('self');
    await expectBackendError(await call(server, admin, 'DELETE', api('/admin/users/unknown')), 404, 'NotFoundException');
  });
});

describe('banned recipients', () => {
  it('a user admin bans and lifts an address; sending to it is refused meanwhile', async () => {
    const { session: sender } = await member('ban-sender@example.test');
    const banned = await json<BannedRecipients>(await call(server, userAdmin, 'POST', api('/admin/banned-recipients'), { entry: ' Spam@Example.TEST ' }), 200);
    expect(banned.entries).toContain('spam@example.test');
    const domain = await json<BannedRecipients>(await call(server, admin, 'POST', api('/admin/banned-recipients'), { entry: '@evil.test' }), 200);
    expect(domain.entries).toEqual(expect.arrayContaining(['spam@example.test', '@evil.test']));
    const refused = await call(server, sender, 'POST', api('/deliveries'), { recipients: ['spam@example.test'], subject: 'x', body: 'y', securityLevel: 0 });
    await expectBackendError(refused, 400, 'RecipientNotAllowedException');
    const lifted = await json<BannedRecipients>(await call(server, userAdmin, 'DELETE', api(`/admin/banned-recipients/${encodeURIComponent('spam@example.test')}`)), 200);
    expect(lifted.entries).toEqual(['@evil.test']);
    expect((await call(server, sender, 'POST', api('/deliveries'), { recipients: ['spam@example.test'], subject: 'x', body: 'y', securityLevel: 0 })).status).toBe(201);
    await expectBackendError(await call(server, admin, 'DELETE', api(`/admin/banned-recipients/${encodeURIComponent('nobody@example.test')}`)), 404, 'NotFoundException');
    await expectBackendError(await call(server, admin, 'POST', api('/admin/banned-recipients'), { entry: 'not an address' }), 400, 'ValidationException');
    await expectBackendError(await call(server, plain, 'POST', api('/admin/banned-recipients'), { entry: 'x@example.test' }), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, plain, 'GET', api('/admin/banned-recipients')), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'GET', api('/admin/banned-recipients')), 401);
    const actions = await auditActions();
    expect(actions).toContain('recipient.banned');
    expect(actions).toContain('recipient.unbanned');
  });

  it('ROLE_USER_ADMIN manages users but not system settings', async () => {
    await expectBackendError(await call(server, userAdmin, 'GET', api('/admin/settings')), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, userAdmin, 'PUT', api('/admin/settings'), { 'kuvert.signup.enabled': true }), 403, 'AccessDeniedException');
    expect((await call(server, userAdmin, 'GET', api('/admin/users'))).status).toBe(200);
  });
});
