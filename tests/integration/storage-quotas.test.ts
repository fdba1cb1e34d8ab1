import { randomBytes } from 'node:crypto';
import type { DeliveryDetail } from '@shared/contract/deliveries';
import { ROOM_OPS_PATHS, type StorageQuota } from '@shared/contract/room-ops';
import { ROOM_PATHS } from '@shared/contract/rooms';
import { USER_QUOTA_SETTING_KEY, type RoomQuotaList, type RoomQuotaRow, type UserQuota } from '@shared/contract/storage-quotas';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createPlainRoom, roomCall, uploadRoomFile } from './room-upload-helpers';
import { createE2eRoom, json, openRoomKey, uploadE2eFile } from './rooms-e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Storage quotas per room and per user (issue 32; shared/contract/storage-quotas.ts, server/README
 * "Storage quotas") on the real server: the administration's routes (ROLE_ADMIN only), bad figures
 * refused with the SPEC error shape, a room upload (plain and Secure) and a delivery's file refused
 * past the quota with GlobalQuotaReachedException and its figures, accepted under it; the quota view.
 * Runs on SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

const PART_SIZE = 1024;
let server: TestServer;
let admin: Session;
let owner: Session;
let member: Session;
let outsider: Session;
const email = (name: string) => `${name}@storage-quotas.test`;
const api = (path: string) => `/api/2${path}`;

const uuidOf = async (session: Session) => (await json<{ user: { uuid: string } }>(await call(server, session, 'GET', api('/user')), 200)).user.uuid;
const setRoomQuota = (session: Session | null, roomUuid: string, quota: unknown) => call(server, session, 'PUT', api(`/admin/rooms/${roomUuid}/storage-quota`), { quota });
const setUserQuota = (session: Session | null, userUuid: string, quota: unknown) => call(server, session, 'PUT', api(`/admin/users/${userUuid}/storage-quota`), { quota });
const quotaView = async (session: Session, roomUuid?: string) =>
  json<StorageQuota>(await call(server, session, 'GET', api(`${ROOM_OPS_PATHS.quota}${roomUuid ? `?roomUuid=${roomUuid}` : ''}`)), 200);

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  admin = await signInAdmin(server);
  for (const name of ['owner', 'member', 'outsider']) await createUserAsAdmin(server, admin, { email: email(name) });
  owner = await signIn(server, email('owner'), 'Good-Passw0rd');
  member = await signIn(server, email('member'), 'Good-Passw0rd');
  outsider = await signIn(server, email('outsider'), 'Good-Passw0rd');
}, 120_000);
afterAll(() => server?.close());

describe('administration of the quotas', () => {
  it('only an administrator lists and sets room and user quotas (403 for others, 401 signed out)', async () => {
    const room = await createPlainRoom(server, owner, 'Admin quota room');
    const ownerUuid = await uuidOf(owner);
    await expectBackendError(await call(server, owner, 'GET', api('/admin/storage-quotas/rooms')), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'GET', api('/admin/storage-quotas/rooms')), 401);
    await expectBackendError(await setRoomQuota(owner, room.uuid, 5000), 403, 'AccessDeniedException');
    await expectBackendError(await setRoomQuota(null, room.uuid, 5000), 401);
    await expectBackendError(await setUserQuota(owner, ownerUuid, 5000), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, owner, 'GET', api(`/admin/users/${ownerUuid}/storage-quota`)), 403, 'AccessDeniedException');

    const row = await json<RoomQuotaRow>(await setRoomQuota(admin, room.uuid, 5000), 200);
    expect(row).toMatchObject({ uuid: room.uuid, name: 'Admin quota room', encrypted: false, owner: email('owner'), used: 0, quota: 5000 });
    const list = await json<RoomQuotaList>(await call(server, admin, 'GET', api('/admin/storage-quotas/rooms?q=admin QUOTA')), 200);
    expect(list.rooms.map((r) => [r.uuid, r.quota])).toEqual([[room.uuid, 5000]]);
    expect((await json<RoomQuotaRow>(await setRoomQuota(admin, room.uuid, null), 200)).quota).toBeNull();

    expect(await json<UserQuota>(await setUserQuota(admin, ownerUuid, 7000), 200)).toEqual({ used: 0, quota: 7000, effective: 7000 });
    await updateSettings(server, admin, { [USER_QUOTA_SETTING_KEY]: 9000 });
    try {
      expect(await json<UserQuota>(await setUserQuota(admin, ownerUuid, null), 200)).toEqual({ used: 0, quota: null, effective: 9000 });
    } finally {
      await updateSettings(server, admin, { [USER_QUOTA_SETTING_KEY]: 0 });
    }
    expect(await json<UserQuota>(await call(server, admin, 'GET', api(`/admin/users/${ownerUuid}/storage-quota`)), 200)).toEqual({ used: 0, quota: null, effective: null });
  });

  it('refuses bad figures with the validation error shape and unknown rooms and users with 404, never a 5xx', async () => {
    const room = await createPlainRoom(server, owner, 'Bad figures room');
    for (const bad of [-1, 'lots', 1.5, 2 ** 50 + 1, Number.MAX_SAFE_INTEGER * 4, true]) {
      const refused = await expectBackendError(await setRoomQuota(admin, room.uuid, bad), 400, 'ValidationException');
      expect(refused.message).toBeTruthy();
      await expectBackendError(await setUserQuota(admin, await uuidOf(member), bad), 400, 'ValidationException');
    }
    await expectBackendError(await call(server, admin, 'PUT', api(`/admin/rooms/${room.uuid}/storage-quota`), { quota: 5, extra: 1 }), 400, 'ValidationException');
    await expectBackendError(await setRoomQuota(admin, '00000000-0000-4000-8000-000000000000', 5), 404, 'NotFoundException');
    await expectBackendError(await setRoomQuota(admin, 'not-a-uuid', 5), 400, 'ValidationException');
    await expectBackendError(await setUserQuota(admin, 'nobody', 5), 404, 'NotFoundException');
    const negativeDefault = await call(server, admin, 'PUT', api('/admin/settings'), { [USER_QUOTA_SETTING_KEY]: -5 });
    expect(negativeDefault.status).toBe(400);
  });
});

describe('uploads against the quotas', () => {
  it('a plain room: under its quota accepted (files, trash and versions counted), past it 507 with the figures; the view shows the room', async () => {
    const room = await createPlainRoom(server, owner, 'Plain quota room');
    await roomCall(server, owner, 'PUT', ROOM_PATHS.access(room.uuid), 200, { user: email('member'), role: 'EDITOR' });
    await json(await setRoomQuota(admin, room.uuid, 5000), 200);
    await uploadRoomFile(server, member, room.uuid, { name: 'a.bin', bytes: testFileBytes(2000), partSize: PART_SIZE });
    // The next version keeps the first one's bytes: 2000 + 1500 stored.
    const second = await uploadRoomFile(server, member, room.uuid, { name: 'a.bin', bytes: testFileBytes(1500), partSize: PART_SIZE, replace: true });
    // In the trash the bytes still count.
    await roomCall(server, member, 'DELETE', ROOM_PATHS.file(room.uuid, second.uuid), 204);
    const refused = await expectBackendError(await call(server, member, 'POST', api(ROOM_PATHS.files(room.uuid)), { name: 'b.bin', size: 1501 }), 507, 'GlobalQuotaReachedException');
    expect(refused.metadata).toEqual({ spaceAvailable: 1500, spaceRequired: 1501, quota: 'room' });
    await uploadRoomFile(server, member, room.uuid, { name: 'c.bin', bytes: testFileBytes(1500), partSize: PART_SIZE });

    const view = await quotaView(member, room.uuid);
    expect(view.room).toEqual({ used: 5000, total: 5000 });
    expect(view.user).toEqual({ used: 0, total: null });
    expect((await quotaView(owner)).user).toEqual({ used: 5000, total: null });
    await expectBackendError(await call(server, outsider, 'GET', api(`${ROOM_OPS_PATHS.quota}?roomUuid=${room.uuid}`)), 404, 'NotFoundException');
    await expectBackendError(await call(server, member, 'GET', api(`${ROOM_OPS_PATHS.quota}?roomUuid=nope`)), 400, 'ValidationException');
  });

  it("a room's bytes count against its creator's user quota", async () => {
    const room = await createPlainRoom(server, outsider, 'Creator quota room');
    const outsiderUuid = await uuidOf(outsider);
    await json(await setUserQuota(admin, outsiderUuid, 3000), 200);
    try {
      await uploadRoomFile(server, outsider, room.uuid, { name: 'ok.bin', bytes: testFileBytes(2500), partSize: PART_SIZE });
      const refused = await expectBackendError(await call(server, outsider, 'POST', api(ROOM_PATHS.files(room.uuid)), { name: 'big.bin', size: 501 }), 507, 'GlobalQuotaReachedException');
      expect(refused.metadata).toEqual({ spaceAvailable: 500, spaceRequired: 501, quota: 'user' });
      expect((await quotaView(outsider)).user).toEqual({ used: 2500, total: 3000 });
    } finally {
      await json(await setUserQuota(admin, outsiderUuid, null), 200);
    }
  });

  it("a delivery's files: the sender's quota (own or the default) refuses a file past it", async () => {
    const draft = await json<DeliveryDetail>(
      await call(server, member, 'POST', api('/deliveries'), { recipients: ['bob@example.test'], subject: 'Quota', body: 'Files', securityLevel: 0 }),
      201,
    );
    await updateSettings(server, admin, { [USER_QUOTA_SETTING_KEY]: 3000 });
    try {
      expect((await call(server, member, 'POST', api(`/deliveries/${draft.deliveryUuid}/files`), { name: 'one.pdf', size: 2000, mimeType: 'application/pdf' })).status).toBe(201);
      const refused = await expectBackendError(
        await call(server, member, 'POST', api(`/deliveries/${draft.deliveryUuid}/files`), { name: 'two.pdf', size: 1001, mimeType: 'application/pdf' }),
        507,
        'GlobalQuotaReachedException',
      );
      expect(refused.metadata).toEqual({ spaceAvailable: 1000, spaceRequired: 1001, quota: 'user' });
      // The user's own quota wins over the default.
      await json(await setUserQuota(admin, await uuidOf(member), 10_000), 200);
      expect((await call(server, member, 'POST', api(`/deliveries/${draft.deliveryUuid}/files`), { name: 'two.pdf', size: 1001, mimeType: 'application/pdf' })).status).toBe(201);
    } finally {
      await updateSettings(server, admin, { [USER_QUOTA_SETTING_KEY]: 0 });
    }
  });

  it('a Secure room: the ciphertext sizes count; an upload past the quota is refused before any part', async () => {
    const actor: E2eActor = await e2eActor(server, owner);
    await giveSecuPass(actor, 'owner-SecuPass-storage-quotas-Amber-7');
    const { room } = await createE2eRoom(server, actor, 'Secure quota room');
    const { handle } = await openRoomKey(server, actor, room.uuid);
    const first = await uploadE2eFile(server, actor, room.uuid, handle, { name: 'one.bin', bytes: randomBytes(1500), partSize: PART_SIZE });
    const stored = first.file!.size;
    await json(await setRoomQuota(admin, room.uuid, stored + 100), 200);
    const refused = await uploadE2eFile(server, actor, room.uuid, handle, { name: 'two.bin', bytes: randomBytes(1500), partSize: PART_SIZE });
    const body = await expectBackendError(refused.announce, 507, 'GlobalQuotaReachedException');
    expect(body.metadata).toMatchObject({ spaceAvailable: 100, quota: 'room' });
    expect((await quotaView(owner, room.uuid)).room).toEqual({ used: stored, total: stored + 100 });
    const rows = await json<RoomQuotaList>(await call(server, admin, 'GET', api('/admin/storage-quotas/rooms')), 200);
    expect(rows.rooms.find((r) => r.uuid === room.uuid)).toMatchObject({ name: '', encrypted: true, used: stored });
  });
});
