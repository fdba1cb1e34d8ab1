import { randomUUID } from 'node:crypto';
import { NOTICE_PATHS, type NoticeList } from '@shared/contract/notices';
import { ROOM_PATHS, type Room } from '@shared/contract/rooms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eRoom, grant, json, req } from './rooms-e2e-helpers';

/**
 * In-app notices (issue 32 §1, server/rooms/kind/notice-inbox.ts): written beside the room mails,
 * read by their own user only (GET /notices, POST /notices/{uuid}/read, POST /notices/read-all).
 * Runs on SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

let server: TestServer;
const who = ['owner', 'bob', 'carol'] as const;
const a = {} as Record<(typeof who)[number], E2eActor>;
const email = (name: string) => `${name}@notices.test`;
const list = (actor: E2eActor, query = '') => req(server, actor, 'GET', `${NOTICE_PATHS.list}${query}`);

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signInAdmin(server);
  for (const name of who) {
    await createUserAsAdmin(server, admin, { email: email(name), firstName: name[0]!.toUpperCase() + name.slice(1), lastName: 'Bell' });
    a[name] = await e2eActor(server, await signIn(server, email(name), 'Good-Passw0rd'));
  }
  await giveSecuPass(a.owner, 'owner-SecuPass-notices-Quartz-4');
}, 240_000);
afterAll(() => server?.close());

describe('in-app notices', () => {
  it('no session: every notices route answers 401 in the SPEC error shape', async () => {
    await expectBackendError(await call(server, null, 'GET', `/api/2${NOTICE_PATHS.list}`), 401);
    await expectBackendError(await call(server, null, 'POST', `/api/2${NOTICE_PATHS.read(randomUUID())}`), 401);
    await expectBackendError(await call(server, null, 'POST', `/api/2${NOTICE_PATHS.readAll}`), 401);
  });

  it('added to a plain room: a notice naming the room, newest first, unread until read; someone else’s is 404', async () => {
    const room = await json<Room>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name: 'Bell room Ärger' }), 201);
    const second = await json<Room>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name: 'Bell room two' }), 201);
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('bob'), role: 'VIEWER' }), 200);
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(second.uuid), { user: email('bob'), role: 'EDITOR' }), 200);

    const page = await json<NoticeList>(await list(a.bob), 200);
    expect(page.unread).toBe(2);
    expect(page.items.map((n) => [n.kind, n.roomName, n.role, n.actorName, n.secure, n.read])).toEqual([
      ['roomAdded', 'Bell room two', 'EDITOR', 'Owner Bell', false, false],
      ['roomAdded', 'Bell room Ärger', 'VIEWER', 'Owner Bell', false, false],
    ]);
    expect(page.items[1]!.roomUuid).toBe(room.uuid);
    // Paged: one per page, the older one second.
    const paged = await json<NoticeList>(await list(a.bob, '?page=2&pageSize=1'), 200);
    expect(paged).toMatchObject({ total: 2, page: 2, pageSize: 1, items: [expect.objectContaining({ roomName: 'Bell room Ärger' })] });

    // Nobody else sees them, or may mark them read.
    expect((await json<NoticeList>(await list(a.carol), 200)).items).toEqual([]);
    const notice = page.items[0]!;
    await expectBackendError(await req(server, a.carol, 'POST', NOTICE_PATHS.read(notice.uuid)), 404, 'NotFoundException');
    expect((await json<NoticeList>(await list(a.bob), 200)).unread).toBe(2);

    expect((await req(server, a.bob, 'POST', NOTICE_PATHS.read(notice.uuid))).status).toBe(204);
    const after = await json<NoticeList>(await list(a.bob), 200);
    expect(after.unread).toBe(1);
    expect(after.items.map((n) => n.read)).toEqual([true, false]);
    await expectBackendError(await req(server, a.bob, 'POST', NOTICE_PATHS.read(randomUUID())), 404);

    expect((await req(server, a.bob, 'POST', NOTICE_PATHS.readAll)).status).toBe(204);
    expect((await json<NoticeList>(await list(a.bob), 200)).unread).toBe(0);
  });

  it('bad input: the SPEC error shape, never a stack', async () => {
    await expectBackendError(await list(a.bob, '?pageSize=0'), 400);
    await expectBackendError(await list(a.bob, '?page=abc'), 400);
    await expectBackendError(await list(a.bob, '?unknown=1'), 400);
    await expectBackendError(await req(server, a.bob, 'POST', NOTICE_PATHS.read('not-a-uuid')), 400);
  });

  it('Secure room: added, key waiting (to the OWNER), key granted — never the room’s name', async () => {
    const { room } = await createE2eRoom(server, a.owner, 'Sealed-Bell-Marker-19');
    await json(await req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('carol'), role: 'EDITOR' }), 200);
    await giveSecuPass(a.carol, 'carol-SecuPass-notices-Basalt-8');
    expect((await grant(server, a.owner, room.uuid, a.carol.userUuid)).status).toBe(200);

    const carol = await json<NoticeList>(await list(a.carol), 200);
    expect(carol.items.map((n) => [n.kind, n.roomUuid, n.secure, n.roomName, n.actorName])).toEqual([
      ['roomKeyGranted', room.uuid, true, null, 'Owner Bell'],
      ['roomAdded', room.uuid, true, null, 'Owner Bell'],
    ]);
    const owner = await json<NoticeList>(await list(a.owner), 200);
    expect(owner.items.map((n) => [n.kind, n.roomUuid, n.secure, n.roomName, n.actorName])).toEqual([['roomKeyWaiting', room.uuid, true, null, 'Carol Bell']]);
    for (const body of [carol, owner]) expect(JSON.stringify(body)).not.toContain(room.name);
  });
});
