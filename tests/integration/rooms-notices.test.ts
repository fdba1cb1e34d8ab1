import type { RoomActivityList, RoomTrashList } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomContents, type RoomFolder } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS } from '@shared/contract/rooms-e2e';
import { addressedTo, readMailbox, waitForMailboxMail, type MailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, expectBackendError, signIn, signInAdmin } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eRoom, grant, json, req } from './rooms-e2e-helpers';

/**
 * Room notices (issue 32, server/rooms/sharing/room-notices.ts), read from the mailbox: a registered
 * person added to a room, a Secure room's OWNER told a member waits for the key, the member told it
 * was granted — each in the recipient's language, a Secure room's name in none of them. Runs on
 * SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

let server: TestServer;
const who = ['owner', 'bob', 'carol', 'dora'] as const;
const a = {} as Record<(typeof who)[number], E2eActor>;
const LANG = { owner: 'en', bob: 'de', carol: 'fr', dora: 'en' } as const;
const email = (name: string) => `${name}@rooms-notices.test`;
const seen = new Set<string>();

/** The next unseen mail to `name` whose subject matches. */
async function nextMail(name: string, subject: RegExp): Promise<MailboxMail> {
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => !seen.has(m.id) && addressedTo(email(name))(m) && subject.test(m.subject));
  seen.add(mail.id);
  return mail;
}

const unseenTo = async (name: string) => (await readMailbox(server.mailboxDir)).filter((m) => !seen.has(m.id) && addressedTo(email(name))(m));
const share = (by: E2eActor, room: Room, name: string, role: string | null) => req(server, by, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(name), role });

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signInAdmin(server);
  for (const name of who) {
    await createUserAsAdmin(server, admin, { email: email(name), firstName: name[0]!.toUpperCase() + name.slice(1), lastName: 'Notice', language: LANG[name] });
    a[name] = await e2eActor(server, await signIn(server, email(name), 'Good-Passw0rd'));
  }
  await giveSecuPass(a.owner, 'owner-SecuPass-rooms-notices-Quartz-4');
  // The accounts' own mails (address proofs) are no room notices.
  for (const mail of await readMailbox(server.mailboxDir)) seen.add(mail.id);
}, 240_000);
afterAll(() => server?.close());

describe('room notices', () => {
  it('mails a registered person added to a plain room, in their language, once', async () => {
    const room = await json<Room>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name: 'Deal Ärger 2027' }), 201);
    await json(await share(a.owner, room, 'bob', 'VIEWER'), 200);
    const mail = await nextMail('bob', /Datenraum/);
    expect(mail.subject).toContain('Owner Notice');
    expect(mail.text).toContain('„Deal Ärger 2027“');
    expect(mail.text).toContain('VIEWER');
    expect(mail.text).toContain(`${server.url}/datarooms/${room.uuid}`);
    // A role change is no new access: no second mail (the grant to dora below proves the mailer ran after).
    await json(await share(a.owner, room, 'bob', 'EDITOR'), 200);
    await json(await share(a.owner, room, 'dora', 'VIEWER'), 200);
    await nextMail('dora', /shared a data room/);
    expect(await unseenTo('bob')).toEqual([]);
  });

  it('refuses a non-owner adding someone, and nobody is mailed', async () => {
    const room = await json<Room>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name: 'Refused share' }), 201);
    await json(await share(a.owner, room, 'bob', 'EDITOR'), 200);
    await nextMail('bob', /Datenraum/);
    await expectBackendError(await share(a.bob, room, 'carol', 'VIEWER'), 403);
    // dora's mail comes after the refusal: had carol been mailed, it would be in the mailbox by now.
    await json(await share(a.owner, room, 'dora', 'VIEWER'), 200);
    await nextMail('dora', /shared a data room/);
    expect(await unseenTo('carol')).toEqual([]);
  });

  it('Secure room: added, waiting for the key, granted — no room name in any mail', async () => {
    const { room } = await createE2eRoom(server, a.owner, 'Sealed-Name-Marker-71c');
    await json(await share(a.owner, room, 'carol', 'EDITOR'), 200);
    const added = await nextMail('carol', /salle de données/);
    expect(added.text).toContain('espace sécurisé');
    expect(added.text).toContain(`${server.url}/secure-rooms/${room.uuid}`);

    // carol activates end-to-end encryption: the OWNER is told (in English) a grant is awaited.
    await giveSecuPass(a.carol, 'carol-SecuPass-rooms-notices-Basalt-8');
    const waiting = await nextMail('owner', /is waiting for access to a Secure room/);
    expect(waiting.text).toContain('Carol Notice (carol@rooms-notices.test)');
    expect(waiting.text).toContain(`${server.url}/secure-rooms/${room.uuid}`);
    // carol is no OWNER: she is not told to grant herself.
    expect((await unseenTo('carol')).map((m) => m.subject)).toEqual([]);

    expect((await grant(server, a.owner, room.uuid, a.carol.userUuid)).status).toBe(200);
    const granted = await nextMail('carol', /accès à un espace sécurisé a été accordé/);
    expect(granted.text).toContain('Owner Notice');
    expect(granted.text).toContain(`${server.url}/secure-rooms/${room.uuid}`);

    for (const mail of [added, waiting, granted]) {
      expect(`${mail.subject}${mail.text}${mail.html}`).not.toContain('Sealed-Name-Marker-71c');
      expect(`${mail.subject}${mail.text}${mail.html}`).not.toContain(room.name);
    }
  });

  it('a member who cannot grant cannot trigger the granted mail', async () => {
    const { room } = await createE2eRoom(server, a.owner, 'Second sealed room');
    await json(await share(a.owner, room, 'dora', 'EDITOR'), 200);
    await nextMail('dora', /shared a data room/);
    await giveSecuPass(a.dora, 'dora-SecuPass-rooms-notices-Granite-2');
    await nextMail('owner', /Dora Notice is waiting/);
    await json(await share(a.owner, room, 'carol', 'EDITOR'), 200);
    await nextMail('carol', /salle de données/);
    // carol (EDITOR) may not grant dora the key: refused, dora gets no "granted" mail.
    await expectBackendError(await req(server, a.carol, 'PUT', ROOM_E2E_PATHS.grant(room.uuid, a.dora.userUuid), { approve: true }), 403);
    expect(await unseenTo('dora')).toEqual([]);
  });
});

describe('names instead of addresses (issue 32)', () => {
  it("the activity's actor and the trash's deleted-by carry the display name besides the address", async () => {
    const room = await json<Room>(await req(server, a.owner, 'POST', ROOM_PATHS.rooms, { name: 'Named room' }), 201);
    await json(await share(a.owner, room, 'bob', 'EDITOR'), 200);
    const folder = await json<RoomFolder>(await req(server, a.bob, 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Bob folder', parentUuid: null }), 201);
    // "Created by": the room's and the folder's creators by name in the contents.
    const contents = await json<RoomContents>(await req(server, a.owner, 'GET', ROOM_PATHS.room(room.uuid)), 200);
    expect(contents.room).toMatchObject({ createdBy: email('owner'), createdByName: 'Owner Notice' });
    expect(contents.folders).toEqual([expect.objectContaining({ createdBy: email('bob'), createdByName: 'Bob Notice' })]);
    expect((await req(server, a.bob, 'DELETE', ROOM_PATHS.folder(room.uuid, folder.uuid))).status).toBe(204);

    const trash = await json<RoomTrashList>(await req(server, a.owner, 'GET', ROOM_PATHS.trash(room.uuid)), 200);
    expect(trash.entries).toEqual([expect.objectContaining({ name: 'Bob folder', deletedBy: email('bob'), deletedByName: 'Bob Notice' })]);

    const activity = await json<RoomActivityList>(await req(server, a.owner, 'GET', ROOM_PATHS.activity(room.uuid)), 200);
    const people = new Set(activity.entries.map((e) => `${e.actorName} <${e.actor}>`));
    expect(people).toEqual(new Set([`Owner Notice <${email('owner')}>`, `Bob Notice <${email('bob')}>`]));
  });
});
