import type { AdminUser } from '@shared/contract/admin-users';
import type { LicenceCount, LicenceKind, LicenceOverview } from '@shared/contract/licence';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

/** Licence caps (KUVERT_LICENCE_*) on a real server: counts, holders, refusals with their figures. */
let server: TestServer;
let admin: Session;
const api = (path: string) => `/api/2${path}`;
const CAPS = { senders: 3, dataRoomCreators: 1, activeForms: 5 } as const;

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function licence(kind: LicenceKind, session: Session = admin): Promise<LicenceCount> {
  const overview = await json<LicenceOverview>(await call(server, session, 'GET', api('/admin/licence')), 200);
  return overview.licences.find((l) => l.kind === kind)!;
}

async function userByEmail(email: string): Promise<AdminUser> {
  const page = await json<{ users: AdminUser[] }>(await call(server, admin, 'GET', api(`/admin/users?q=${encodeURIComponent(email)}`)), 200);
  return page.users.find((u) => u.email === email)!;
}

async function expectLimit(response: Response, kind: LicenceKind, cap: number, used: number) {
  const error = await expectBackendError(response, 409, 'LicenseLimitExceededException');
  expect(error.metadata).toEqual({ licence: kind, cap, used, requested: 1 });
  expect(error.message).toContain(`${used} of ${cap}`);
}

beforeAll(async () => {
  server = await startTestServer({ config: { licenceSenders: CAPS.senders, licenceDataRoomCreators: CAPS.dataRoomCreators, licenceActiveForms: CAPS.activeForms } });
  admin = await signInAdmin(server);
});
afterAll(async () => server?.close());

describe('licence counts and caps', () => {
  it('counts the administrator as the first licensed sender; forms are not counted yet', async () => {
    const senders = await licence('senders');
    expect(senders).toMatchObject({ cap: CAPS.senders, used: 1, available: true });
    expect(senders.holders.map((h) => h.email)).toEqual([server.admin.email]);
    expect(await licence('dataRoomCreators')).toMatchObject({ cap: CAPS.dataRoomCreators, used: 0, holders: [] });
    expect(await licence('activeForms')).toMatchObject({ cap: CAPS.activeForms, used: 0, available: true });
  });

  it('who may read it: administrators and user administrators; others 403, anonymous 401', async () => {
    await createUserAsAdmin(server, admin, { email: 'ua@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_USER_ADMIN'] });
    const userAdmin = await signIn(server, 'ua@example.test', 'Good-Passw0rd');
    expect((await licence('senders', userAdmin)).used).toBe(2);
    await createUserAsAdmin(server, admin, { email: 'plain@example.test', licensed: false });
    const plain = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
    await expectBackendError(await call(server, plain, 'GET', api('/admin/licence')), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'GET', api('/admin/licence')), 401, 'AuthenticationRequiredException');
  });

  it('refuses a licensed user beyond the sender cap with the figures; an unlicensed one is created', async () => {
    await createUserAsAdmin(server, admin, { email: 'third@example.test' });
    expect((await licence('senders')).used).toBe(3);
    await expectLimit(await call(server, admin, 'POST', api('/admin/users'), { email: 'fourth@example.test', password: 'Good-Passw0rd' }), 'senders', 3, 3);
    expect(await userByEmail('fourth@example.test')).toBeUndefined();
    await json(await call(server, admin, 'POST', api('/admin/users'), { email: 'fourth@example.test', password: 'Good-Passw0rd', licensed: false }), 201);
    expect((await userByEmail('fourth@example.test')).licensed).toBe(false);
    expect((await licence('senders')).used).toBe(3);
  });

  it('refuses licensing one more at the cap; revoking a licence frees the seat', async () => {
    const fourth = await userByEmail('fourth@example.test');
    await expectLimit(await call(server, admin, 'PATCH', api(`/admin/users/${fourth.uuid}/sender`), { licensed: true }), 'senders', 3, 3);
    expect((await userByEmail('fourth@example.test')).licensed).toBe(false);
    const third = await userByEmail('third@example.test');
    await json(await call(server, admin, 'PATCH', api(`/admin/users/${third.uuid}/sender`), { licensed: false }), 200);
    await json(await call(server, admin, 'PATCH', api(`/admin/users/${fourth.uuid}/sender`), { licensed: true }), 200);
    // Licensing someone already licensed takes no second seat.
    await json(await call(server, admin, 'PATCH', api(`/admin/users/${fourth.uuid}/sender`), { licensed: true }), 200);
    const senders = await licence('senders');
    expect(senders.used).toBe(3);
    expect(senders.holders.map((h) => h.email)).toEqual([server.admin.email, 'fourth@example.test', 'ua@example.test']);
  });

  it('caps data-room creators (ROLE_SECUROOMS_CREATOR) on role changes and on create', async () => {
    const fourth = await userByEmail('fourth@example.test');
    await json(await call(server, admin, 'PATCH', api(`/admin/users/${fourth.uuid}`), { roleNames: [...fourth.roleNames, 'ROLE_SECUROOMS_CREATOR'] }), 200);
    const creators = await licence('dataRoomCreators');
    expect(creators).toMatchObject({ used: 1 });
    // The holder's status reads as on the users page: made by an administrator, the address not yet proven ("Invited").
    expect(creators.holders).toEqual([expect.objectContaining({ email: 'fourth@example.test', disabled: false, emailVerified: false })]);
    expect((await userByEmail('fourth@example.test')).emailVerified).toBe(false);
    const third = await userByEmail('third@example.test');
    await expectLimit(await call(server, admin, 'PATCH', api(`/admin/users/${third.uuid}`), { roleNames: ['ROLE_UI_USER', 'ROLE_SECUROOMS_CREATOR'] }), 'dataRoomCreators', 1, 1);
    await expectLimit(
      await call(server, admin, 'POST', api('/admin/users'), { email: 'fifth@example.test', password: 'Good-Passw0rd', licensed: false, roleNames: ['ROLE_UI_USER', 'ROLE_SECUROOMS_CREATOR'] }),
      'dataRoomCreators',
      1,
      1,
    );
    // Other role changes of a holder stay possible at the cap.
    await json(await call(server, admin, 'PATCH', api(`/admin/users/${fourth.uuid}`), { roleNames: ['ROLE_UI_USER', 'ROLE_SECUROOMS_CREATOR'] }), 200);
    expect((await licence('dataRoomCreators')).used).toBe(1);
  });

  it('a disabled user holds no licence; enabling takes the seat again, refused at the cap (issue 33 §2)', async () => {
    const fourth = await userByEmail('fourth@example.test');
    const third = await userByEmail('third@example.test');
    // Fourth is a licensed sender and the only creator: disabled, both seats free up.
    await json(await call(server, admin, 'POST', api(`/admin/users/${fourth.uuid}/disable`)), 200);
    expect((await licence('dataRoomCreators')).used).toBe(0);
    expect((await licence('dataRoomCreators')).holders).toEqual([]);
    expect((await licence('senders')).used).toBe(2);
    expect((await licence('senders')).holders.map((h) => h.email)).not.toContain('fourth@example.test');
    // The free creator seat goes to third; enabling fourth would now go beyond the cap.
    await json(await call(server, admin, 'PATCH', api(`/admin/users/${third.uuid}`), { roleNames: ['ROLE_UI_USER', 'ROLE_SECUROOMS_CREATOR'] }), 200);
    await expectLimit(await call(server, admin, 'POST', api(`/admin/users/${fourth.uuid}/enable`)), 'dataRoomCreators', 1, 1);
    expect((await userByEmail('fourth@example.test')).disabled).toBe(true);
    // Once third gives the seat back, fourth is enabled and holds both licences again.
    await json(await call(server, admin, 'PATCH', api(`/admin/users/${third.uuid}`), { roleNames: ['ROLE_UI_USER'] }), 200);
    await json(await call(server, admin, 'POST', api(`/admin/users/${fourth.uuid}/enable`)), 200);
    expect((await licence('dataRoomCreators')).used).toBe(1);
    expect((await licence('senders')).used).toBe(3);
    // Only an administrator or user administrator may enable (the denial).
    await expectBackendError(await call(server, null, 'POST', api(`/admin/users/${fourth.uuid}/enable`)), 401);
  });
});

describe('without caps', () => {
  it('every licence reads as uncapped and nothing is refused', async () => {
    const open = await startTestServer();
    try {
      const openAdmin = await signInAdmin(open);
      const overview = await json<LicenceOverview>(await call(open, openAdmin, 'GET', api('/admin/licence')), 200);
      expect(overview.licences.map((l) => [l.kind, l.cap])).toEqual([
        ['senders', null],
        ['dataRoomCreators', null],
        ['activeForms', null],
      ]);
      await createUserAsAdmin(open, openAdmin, { email: 'creator@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_SECUROOMS_CREATOR'] });
    } finally {
      await open.close();
    }
  });
});
