import { randomBytes } from 'node:crypto';
import { TRASH_BIN_PATHS, type TrashBinList } from '@shared/contract/room-admin';
import type { RoomActivityList, RoomTrashList } from '@shared/contract/room-files';
import { ROOM_OPS_PATHS, type RoomFileVersionList } from '@shared/contract/room-ops';
import {
  RETENTION_ACTIVITY_DETAIL,
  RETENTION_CONFIRMATIONS,
  RETENTION_CONFIRMATIONS_MESSAGE,
  ROOM_RETENTION_MIN_DAYS_DEFAULT,
  ROOM_RETENTION_MIN_DAYS_KEY,
  ROOM_RETENTION_PATHS,
  type RoomRetention,
  type RoomRetentionPreview,
} from '@shared/contract/room-retention';
import { ROOM_PATHS, type Room, type RoomFolder } from '@shared/contract/rooms';
import { ROOM_E2E_VERSION_PATHS, type E2eFileVersionList } from '@shared/contract/rooms-e2e-versions';
import { MS_PER_DAY } from '@shared/contract/constants';
import { localDayStart, ROOM_RETENTION_JOB, runRoomRetention } from '@server/rooms/plain/retention';
import { sweepRoomFiles } from '@server/rooms/plain/sweep';
import { VERSION_MAX_AGE_MS } from '@server/rooms/plain/versions';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createPlainRoom, roomCall, uploadRoomFile } from './room-upload-helpers';
import { createE2eRoom, openRoomKey, req as e2eReq, json, uploadE2eFile } from './rooms-e2e-helpers';

/**
 * A room's retention policy (issue 31 §2, server/README "Room retention") on the real server (SQLite,
 * or PostgreSQL with KUVERT_TEST_DATABASE_URL): the policy routes with the SPEC §6 roles, the §5
 * refusals, the end-of-day job driven by its `now` (the clock tests control), in plain and Secure
 * rooms, and the 30-day version purge of both kinds.
 */

const PART_SIZE = 1024;
let server: TestServer;
let admin: Session;
const who = ['owner', 'editor', 'viewer', 'previewer', 'outsider'] as const;
type Who = (typeof who)[number];
const s = {} as Record<Who, Session>;
let secureOwner: E2eActor;
const email = (name: string) => `${name}@rooms-retention.test`;
const ALL_BOXES = [...RETENTION_CONFIRMATIONS];

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  admin = await signInAdmin(server);
  for (const name of who) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    s[name] = await signIn(server, email(name), 'Good-Passw0rd');
  }
  secureOwner = await e2eActor(server, s.owner);
  await giveSecuPass(secureOwner, 'owner-SecuPass-rooms-retention-Amber-7');
}, 240_000);
afterAll(() => server?.close());

const api = (path: string) => `/api/2${path}`;
const ask = (session: Session | null, method: string, path: string, body?: unknown) => call(server, session, method, api(path), body);

async function sharedRoom(name: string): Promise<Room> {
  const room = await createPlainRoom(server, s.owner, name);
  for (const [member, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await roomCall(server, s.owner, 'PUT', ROOM_PATHS.access(room.uuid), 200, { user: email(member), role });
  }
  return room;
}

// Text content: random bytes start with a file signature now and then ("MZ" 1 in 65,536), and the
// upload policy then rightly refuses the ".txt" as a program (seen once: 400 blockedContent).
const upload = (room: Room, name: string, options: { folderUuid?: string; replace?: boolean } = {}) =>
  uploadRoomFile(server, s.owner, room.uuid, { name, bytes: new TextEncoder().encode(`${name}: ${randomBytes(150).toString('hex')}`), partSize: PART_SIZE, ...options });

/** The file's last change `days` before now (the clock of the data, not of the server). */
const changedDaysAgo = (fileUuid: string, days: number) =>
  server.app.db.updateTable('room_files').set({ updated_at: Date.now() - days * MS_PER_DAY }).where('uuid', '=', fileUuid).execute();

const setPolicy = (session: Session | null, room: Room, periodDays: number | null, confirmations: string[] = ALL_BOXES) =>
  ask(session, 'PUT', ROOM_RETENTION_PATHS.policy(room.uuid), { periodDays, confirmations });

const trashOf = async (room: Room) => (await roomCall<RoomTrashList>(server, s.owner, 'GET', ROOM_PATHS.trash(room.uuid), 200)).entries.map((e) => e.uuid).sort();

describe('retention policy routes', () => {
  it('lets every member read the policy and only the OWNER change it or preview it; others 403, outsiders 404, anonymous 401', async () => {
    const room = await sharedRoom('Roles');
    for (const name of ['owner', 'editor', 'viewer', 'previewer'] as const) {
      expect(await roomCall<RoomRetention>(server, s[name], 'GET', ROOM_RETENTION_PATHS.policy(room.uuid), 200)).toEqual({ periodDays: null, pending: null, minimumDays: ROOM_RETENTION_MIN_DAYS_DEFAULT });
    }
    await expectBackendError(await ask(s.outsider, 'GET', ROOM_RETENTION_PATHS.policy(room.uuid)), 404, 'NotFoundException');
    await expectBackendError(await ask(null, 'GET', ROOM_RETENTION_PATHS.policy(room.uuid)), 401);

    const preview = `${ROOM_RETENTION_PATHS.preview(room.uuid)}?periodDays=30`;
    for (const name of ['editor', 'viewer', 'previewer'] as const) {
      const denied = await expectBackendError(await setPolicy(s[name], room, 30), 403, 'AccessDeniedException');
      expect(denied.message).toBe("You don't have sufficient rights, please ask your administrator");
      await expectBackendError(await ask(s[name], 'GET', preview), 403, 'AccessDeniedException');
    }
    await expectBackendError(await setPolicy(s.outsider, room, 30), 404, 'NotFoundException');
    await expectBackendError(await ask(s.outsider, 'GET', preview), 404, 'NotFoundException');
    await expectBackendError(await setPolicy(null, room, 30), 401);
    await expectBackendError(await ask(null, 'GET', preview), 401);
    // Nothing changed by the refusals.
    expect((await roomCall<RoomRetention>(server, s.owner, 'GET', ROOM_RETENTION_PATHS.policy(room.uuid), 200)).pending).toBeNull();

    const saved = await roomCall<RoomRetention>(server, s.owner, 'PUT', ROOM_RETENTION_PATHS.policy(room.uuid), 200, { periodDays: 30, confirmations: ALL_BOXES });
    expect(saved.pending?.periodDays).toBe(30);
    expect(await roomCall<RoomRetentionPreview>(server, s.owner, 'GET', preview, 200)).toEqual({ count: 0, files: [] });
  });

  it('refuses a period below the administrator’s minimum and a change without every box ticked, in the SPEC error shape', async () => {
    const room = await sharedRoom('Refusals');
    // The administrator's setting has its range (Secure rooms › General).
    for (const wrong of [0, 3651, 'ten']) {
      await expectBackendError(await ask(admin, 'PUT', '/admin/settings', { [ROOM_RETENTION_MIN_DAYS_KEY]: wrong }), 400, 'ValidationException');
    }
    await expectBackendError(await ask(s.owner, 'PUT', '/admin/settings', { [ROOM_RETENTION_MIN_DAYS_KEY]: 1 }), 403);
    await updateSettings(server, admin, { [ROOM_RETENTION_MIN_DAYS_KEY]: 10 });
    try {
      const below = await expectBackendError(await setPolicy(s.owner, room, 9), 400, 'ValidationException');
      expect(below.message).toBe('The deletion period must be at least 10 days');
      expect(below.metadata).toMatchObject({ field: 'periodDays', reason: 'belowMinimum', minimum: 10 });
      expect((await roomCall<RoomRetention>(server, s.owner, 'GET', ROOM_RETENTION_PATHS.policy(room.uuid), 200)).minimumDays).toBe(10);

      for (const boxes of [[], ALL_BOXES.slice(1), ALL_BOXES.slice(0, -1)]) {
        const unticked = await expectBackendError(await setPolicy(s.owner, room, 10, boxes), 400, 'ValidationException');
        expect(unticked.message).toBe(RETENTION_CONFIRMATIONS_MESSAGE);
        expect(unticked.message).toBe('You must accept all information to be able to continue');
      }
      for (const bad of [{ periodDays: 0, confirmations: ALL_BOXES }, { periodDays: 'ten', confirmations: ALL_BOXES }, { periodDays: 10, confirmations: ['nope'] }, { periodDays: 10 }]) {
        await expectBackendError(await ask(s.owner, 'PUT', ROOM_RETENTION_PATHS.policy(room.uuid), bad), 400, 'ValidationException');
      }
      await expectBackendError(await ask(s.owner, 'GET', `${ROOM_RETENTION_PATHS.preview(room.uuid)}?periodDays=abc`), 400, 'ValidationException');
      expect((await roomCall<RoomRetention>(server, s.owner, 'GET', ROOM_RETENTION_PATHS.policy(room.uuid), 200)).pending).toBeNull();
      // At the minimum it is taken; "no retention" is always allowed.
      expect((await roomCall<RoomRetention>(server, s.owner, 'PUT', ROOM_RETENTION_PATHS.policy(room.uuid), 200, { periodDays: 10, confirmations: ALL_BOXES })).pending?.periodDays).toBe(10);
      expect((await roomCall<RoomRetention>(server, s.owner, 'PUT', ROOM_RETENTION_PATHS.policy(room.uuid), 200, { periodDays: null, confirmations: ALL_BOXES })).pending).toBeNull();
    } finally {
      await updateSettings(server, admin, { [ROOM_RETENTION_MIN_DAYS_KEY]: ROOM_RETENTION_MIN_DAYS_DEFAULT });
    }
  });
});

describe('end-of-day retention', () => {
  it('applies a change only from the end of the day, then moves exactly the files last changed before the period to the trash, with activity', async () => {
    const room = await sharedRoom('Retention plain');
    const old = await upload(room, 'old.txt');
    const edge = await upload(room, 'edge.txt');
    const fresh = await upload(room, 'fresh.txt');
    const folder = await roomCall<RoomFolder>(server, s.owner, 'POST', ROOM_PATHS.folders(room.uuid), 201, { name: 'Gone' });
    const inTrashedFolder = await upload(room, 'inside.txt', { folderUuid: folder.uuid });
    await changedDaysAgo(old.uuid, 20);
    await changedDaysAgo(edge.uuid, 8);
    await changedDaysAgo(inTrashedFolder.uuid, 20);
    await roomCall(server, s.owner, 'DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid), 204);

    // The editor's preview: what 10 days would take at the next end of day.
    const preview = await roomCall<RoomRetentionPreview>(server, s.owner, 'GET', `${ROOM_RETENTION_PATHS.preview(room.uuid)}?periodDays=10`, 200);
    expect(preview.count).toBe(1);
    expect(preview.files.map((f) => [f.uuid, f.name])).toEqual([[old.uuid, 'old.txt']]);
    expect((await roomCall<RoomRetentionPreview>(server, s.owner, 'GET', `${ROOM_RETENTION_PATHS.preview(room.uuid)}?periodDays=7`, 200)).files.map((f) => f.uuid)).toEqual([old.uuid, edge.uuid]);

    const now = Date.now();
    const saved = await roomCall<RoomRetention>(server, s.owner, 'PUT', ROOM_RETENTION_PATHS.policy(room.uuid), 200, { periodDays: 10, confirmations: ALL_BOXES });
    const endOfDay = localDayStart(now, 1);
    expect(saved).toMatchObject({ periodDays: null, pending: { periodDays: 10, effectiveFrom: endOfDay } });
    // Every member sees the period in force and the waiting one.
    expect(await roomCall<RoomRetention>(server, s.viewer, 'GET', ROOM_RETENTION_PATHS.policy(room.uuid), 200)).toMatchObject({ periodDays: null, pending: { periodDays: 10 } });

    // Before the end of the day: nothing takes over, nothing moves.
    expect(await runRoomRetention(server.app, endOfDay - 1)).toMatchObject({ moved: 0 });
    expect(await trashOf(room)).toEqual([folder.uuid]);
    const row = await server.app.db.selectFrom('data_rooms').select(['retention_days', 'retention_next_days']).where('uuid', '=', room.uuid).executeTakeFirstOrThrow();
    expect(row).toEqual({ retention_days: null, retention_next_days: 10 });

    // The first run of the next day: the change is in force and the old file is in the room's trash.
    const result = await runRoomRetention(server.app, endOfDay + 60_000);
    expect(result.moved).toBe(1);
    expect(await trashOf(room)).toEqual([folder.uuid, old.uuid].sort());
    // The trash says the retention job moved it (no user); the folder an OWNER deleted names her.
    const listed = (await roomCall<RoomTrashList>(server, s.owner, 'GET', ROOM_PATHS.trash(room.uuid), 200)).entries;
    expect(listed.find((e) => e.uuid === old.uuid)).toMatchObject({ deletedBy: '', deletedByRetention: true });
    expect(listed.find((e) => e.uuid === folder.uuid)).toMatchObject({ deletedByRetention: false });
    expect(listed.find((e) => e.uuid === folder.uuid)?.deletedBy).not.toBe('');
    // The administrators' trash bin says so too (and names the OWNER for the folder).
    const bin = (await roomCall<TrashBinList>(server, admin, 'GET', `${TRASH_BIN_PATHS.list}?q=old.txt`, 200)).entries;
    expect(bin.find((e) => e.uuid === old.uuid)).toMatchObject({ deletedBy: '', deletedByRetention: true });
    const binFolder = (await roomCall<TrashBinList>(server, admin, 'GET', TRASH_BIN_PATHS.list, 200)).entries.find((e) => e.uuid === folder.uuid);
    expect(binFolder).toMatchObject({ deletedBy: email('owner'), deletedByRetention: false });
    expect(await roomCall<RoomRetention>(server, s.owner, 'GET', ROOM_RETENTION_PATHS.policy(room.uuid), 200)).toMatchObject({ periodDays: 10, pending: null });
    await roomCall(server, s.owner, 'GET', ROOM_PATHS.file(room.uuid, fresh.uuid), 200);
    await roomCall(server, s.owner, 'GET', ROOM_PATHS.file(room.uuid, edge.uuid), 200);
    await expectBackendError(await ask(s.owner, 'GET', ROOM_PATHS.file(room.uuid, old.uuid)), 404);
    const activity = await roomCall<RoomActivityList>(server, s.owner, 'GET', ROOM_PATHS.activity(room.uuid), 200);
    const moves = activity.entries.filter((e) => e.detail === RETENTION_ACTIVITY_DETAIL);
    expect(moves).toEqual([expect.objectContaining({ kind: 'delete', item: { type: 'file', uuid: old.uuid, name: 'old.txt' } })]);

    // Idempotent: the same day again (another server, a repeated run) moves nothing more.
    expect((await runRoomRetention(server.app, endOfDay + 2 * 60_000)).moved).toBe(0);
    // Restored, it counts as changed now and stays.
    await roomCall(server, s.owner, 'POST', ROOM_PATHS.trashRestore(room.uuid, old.uuid), 204);
    expect((await runRoomRetention(server.app, endOfDay + 3 * 60_000)).moved).toBe(0);
    // One period later the edge file's day has come too (and the restored one's has not).
    expect((await runRoomRetention(server.app, localDayStart(now, 3) + 60_000)).moved).toBe(1);
    expect(await trashOf(room)).toEqual([folder.uuid, edge.uuid].sort());

    // It runs as one leased periodic job for all servers.
    const job = await server.app.db.selectFrom('jobs').select(['kind', 'state']).where('unique_key', '=', ROOM_RETENTION_JOB).executeTakeFirst();
    expect(job).toMatchObject({ kind: ROOM_RETENTION_JOB, state: 'pending' });
  });

  it('moves the ciphertext rows of a Secure room to its trash the same way (the server reads no name)', async () => {
    const { room } = await createE2eRoom(server, secureOwner, 'Retention secure');
    const { handle } = await openRoomKey(server, secureOwner, room.uuid);
    const old = await uploadE2eFile(server, secureOwner, room.uuid, handle, { name: 'sealed-old.bin', bytes: new Uint8Array(randomBytes(500)), partSize: PART_SIZE });
    const fresh = await uploadE2eFile(server, secureOwner, room.uuid, handle, { name: 'sealed-fresh.bin', bytes: new Uint8Array(randomBytes(500)), partSize: PART_SIZE });
    await changedDaysAgo(old.uuid, 40);
    const sealedName = (await server.app.db.selectFrom('room_files').select('name').where('uuid', '=', old.uuid).executeTakeFirstOrThrow()).name;
    expect(sealedName).not.toContain('sealed-old');

    const preview = await json<RoomRetentionPreview>(await e2eReq(server, secureOwner, 'GET', `${ROOM_RETENTION_PATHS.preview(room.uuid)}?periodDays=30`), 200);
    expect(preview.files).toEqual([expect.objectContaining({ uuid: old.uuid, name: sealedName })]);
    await json(await e2eReq(server, secureOwner, 'PUT', ROOM_RETENTION_PATHS.policy(room.uuid), { periodDays: 30, confirmations: ALL_BOXES }), 200);
    expect((await runRoomRetention(server.app, localDayStart(Date.now(), 1) + 60_000)).moved).toBe(1);

    const trash = await json<RoomTrashList>(await e2eReq(server, secureOwner, 'GET', ROOM_PATHS.trash(room.uuid)), 200);
    expect(trash.entries.map((e) => [e.uuid, e.name, e.deletedByRetention])).toEqual([[old.uuid, sealedName, true]]);
    // The sealed key and signed metadata stay with the row, so a restore brings back a readable file.
    expect(await server.app.db.selectFrom('room_e2e_files').select('file_id').where('file_id', '=', (await server.app.db.selectFrom('room_files').select('id').where('uuid', '=', old.uuid).executeTakeFirstOrThrow()).id).executeTakeFirst()).toBeDefined();
    const activity = await json<RoomActivityList>(await e2eReq(server, secureOwner, 'GET', ROOM_PATHS.activity(room.uuid)), 200);
    expect(activity.entries.filter((e) => e.detail === RETENTION_ACTIVITY_DETAIL).map((e) => [e.kind, e.item.uuid])).toEqual([['delete', old.uuid]]);
    await json(await e2eReq(server, secureOwner, 'GET', ROOM_PATHS.file(room.uuid, fresh.uuid)), 200);
  });
});

describe('30-day version purge', () => {
  it('deletes earlier versions of plain and Secure room files 30 days after they were replaced, keeping the current content', async () => {
    const room = await sharedRoom('Versions');
    const file = await upload(room, 'doc.txt');
    await upload(room, 'doc.txt', { replace: true });
    const { room: secure } = await createE2eRoom(server, secureOwner, 'Versions secure');
    const { handle } = await openRoomKey(server, secureOwner, secure.uuid);
    const sealed = await uploadE2eFile(server, secureOwner, secure.uuid, handle, { name: 'v.bin', bytes: new Uint8Array(randomBytes(200)), partSize: PART_SIZE });
    await uploadE2eFile(server, secureOwner, secure.uuid, handle, { name: 'v.bin', bytes: new Uint8Array(randomBytes(300)), partSize: PART_SIZE, replace: { uuid: sealed.uuid, version: 2 } });
    const plainVersions = () => roomCall<RoomFileVersionList>(server, s.owner, 'GET', ROOM_OPS_PATHS.versions(room.uuid, file.uuid), 200);
    const secureVersions = async () => (await json<E2eFileVersionList>(await e2eReq(server, secureOwner, 'GET', ROOM_E2E_VERSION_PATHS.versions(secure.uuid, sealed.uuid)), 200)).versions;
    expect((await plainVersions()).versions).toHaveLength(2);
    const secureBefore = (await secureVersions()).length;
    expect(secureBefore).toBeGreaterThanOrEqual(1);

    // A day short of 30: kept.
    await sweepRoomFiles(server.app, Date.now() + VERSION_MAX_AGE_MS - MS_PER_DAY);
    expect((await plainVersions()).versions).toHaveLength(2);
    expect(await secureVersions()).toHaveLength(secureBefore);
    // Past 30 days: gone, with the sealed key and metadata of the Secure one (cascade), the current content stays.
    expect((await sweepRoomFiles(server.app, Date.now() + VERSION_MAX_AGE_MS + 60_000)).versions).toBeGreaterThanOrEqual(2);
    expect((await plainVersions()).versions).toHaveLength(1);
    expect(await secureVersions()).toHaveLength(secureBefore - 1);
    expect(await server.app.db.selectFrom('room_file_versions').select('room_file_versions.id').innerJoin('room_files', 'room_files.id', 'room_file_versions.file_id').where('room_files.uuid', 'in', [file.uuid, sealed.uuid]).execute()).toEqual([]);
  });
});
