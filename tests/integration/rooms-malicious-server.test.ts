import { ROOM_PATHS, type Room } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS, type E2eMember, type E2eRoomState } from '@shared/contract/rooms-e2e';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, signIn, signInAdmin } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { roomKeyTrust } from '@shared/transfer/room-key-trust';
import { memberEntryOf, memberListFlags, roomMemberListTrust, writeRoomMemberList } from '@shared/transfer/room-member-list';
import { createE2eRoom, grant, json, openRoomKey, readE2eFolder, renameE2eFileBody, req, sha256Hex, signGrant, uploadE2eFile } from './rooms-e2e-helpers';

/**
 * A malicious server against an END-TO-END ENCRYPTED ROOM (issue 28 §2; the deliveries' suite is
 * malicious-server.test.ts): the test changes the database the way a compromised server could,
 * with a member's help where the case needs one, and expects the reader's specific error. The
 * reader is the shared code the browser runs (CryptoService = the Worker's code; the helper reads
 * as web/features/rooms/e2e/e2e-room-client.ts does); tests/e2e/rooms-malicious-server.spec.ts
 * shows the same cases in the browser. Real server, SQLite or PostgreSQL (KUVERT_TEST_DATABASE_URL).
 */

const PART_SIZE = 1024;
let server: TestServer;
const who = ['owner', 'editor', 'viewer', 'outsider'] as const;
const a = {} as Record<(typeof who)[number], E2eActor>;
const email = (name: string) => `${name}@rooms-malicious.test`;

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await signInAdmin(server);
  for (const name of who) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    a[name] = await e2eActor(server, await signIn(server, email(name), 'Good-Passw0rd'));
    await giveSecuPass(a[name], `${name}-SecuPass-rooms-malicious-Fjord-28`);
  }
}, 240_000);
afterAll(() => server?.close());

const share = (room: Room, name: (typeof who)[number], role: string | null) => req(server, a.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(name), role });

/** A room with the owner's file, EDITOR and VIEWER shared and granted. */
async function roomWithFile(title: string) {
  const { room } = await createE2eRoom(server, a.owner, title);
  for (const [name, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER']] as const) {
    await json(await share(room, name, role), 200);
    await json(await grant(server, a.owner, room.uuid, a[name].userUuid), 200);
  }
  const { handle } = await openRoomKey(server, a.owner, room.uuid);
  const bytes = new Uint8Array(3 * PART_SIZE + 5).map((_, i) => i % 251);
  const { file } = await uploadE2eFile(server, a.owner, room.uuid, handle, { name: 'Offer.pdf', bytes, partSize: PART_SIZE });
  const row = await server.app.db.selectFrom('room_files').selectAll().where('uuid', '=', file!.uuid).executeTakeFirstOrThrow();
  return { room, file: file!, row, bytes };
}

/** What the member writes with the server's help: the file's metadata re-signed with her own key (her rename body, same name). */
async function reSignAs(member: E2eActor, room: Room, fileUuid: string, fileId: number): Promise<void> {
  const { handle } = await openRoomKey(server, member, room.uuid);
  const { metadata } = await renameE2eFileBody(server, member, room.uuid, handle, fileUuid, 'Offer.pdf');
  // The server stores it and names her as the signer (what a PATCH by an EDITOR would leave).
  const user = await server.app.db.selectFrom('users').select('id').where('uuid', '=', member.userUuid).executeTakeFirstOrThrow();
  await server.app.db.updateTable('room_e2e_files').set({ metadata, signed_by: user.id }).where('file_id', '=', fileId).execute();
}

describe('who may call GET …/e2e, and the signers’ roles it lists', () => {
  it('members see every signer with their role now (null once removed); an outsider gets 404', async () => {
    const r = await roomWithFile('Roles');
    const stateOf = async (actor: E2eActor) => json<E2eRoomState>(await req(server, actor, 'GET', ROOM_E2E_PATHS.state(r.room.uuid)), 200);
    expect((await stateOf(a.viewer)).signers.map((s) => [s.email, s.role])).toEqual([[email('owner'), 'OWNER']]);
    await reSignAs(a.editor, r.room, r.file.uuid, r.row.id);
    expect((await stateOf(a.owner)).signers.map((s) => [s.email, s.role])).toEqual([[email('owner'), 'OWNER'], [email('editor'), 'EDITOR']]);
    await json(await share(r.room, 'editor', null), 200);
    expect((await stateOf(a.owner)).signers.find((s) => s.email === email('editor'))?.role).toBeNull();
    expect((await req(server, a.outsider, 'GET', ROOM_E2E_PATHS.state(r.room.uuid))).status).toBe(404);
  }, 120_000);
});

describe('case 3: re-signed content under another name', () => {
  it('a VIEWER’s signature, stored by the server as the file’s, is refused (room-signer-not-writer); an EDITOR’s is shown as hers', async () => {
    const r = await roomWithFile('Re-signed');
    const before = await readE2eFolder(server, a.editor, r.room.uuid);
    expect(sha256Hex(before.files.get('Offer.pdf')!.bytes)).toBe(sha256Hex(r.bytes));

    // The VIEWER re-signs (her signature is valid; the room key is hers too): refused for her role.
    await reSignAs(a.viewer, r.room, r.file.uuid, r.row.id);
    await expect(readE2eFolder(server, a.editor, r.room.uuid, undefined, { download: false })).rejects.toMatchObject({ code: 'room-signer-not-writer' });
    // The server leaves signed_by at the uploader: the viewer's key is then not the owner's — no key to check with.
    await server.app.db.updateTable('room_e2e_files').set({ signed_by: null }).where('file_id', '=', r.row.id).execute();
    await expect(readE2eFolder(server, a.editor, r.room.uuid, undefined, { download: false })).rejects.toThrow(/signing key is not listed/);

    // An EDITOR's re-signature verifies, and the reader knows it is hers (not the uploader's).
    await reSignAs(a.editor, r.room, r.file.uuid, r.row.id);
    const read = await readE2eFolder(server, a.viewer, r.room.uuid, undefined, { download: false });
    expect(read.files.get('Offer.pdf')!.metadata.uploaderUserId).toBe(a.owner.userUuid);
    const state = await json<E2eRoomState>(await req(server, a.viewer, 'GET', ROOM_E2E_PATHS.state(r.room.uuid)), 200);
    expect(state.signers.find((s) => s.userUuid === a.editor.userUuid)?.role).toBe('EDITOR');
    // The same EDITOR made VIEWER: her re-signature is refused from then on.
    await json(await share(r.room, 'editor', 'VIEWER'), 200);
    await expect(readE2eFolder(server, a.viewer, r.room.uuid, undefined, { download: false })).rejects.toMatchObject({ code: 'room-signer-not-writer' });
  }, 120_000);
});

/** What the member's client decides about her copy (shared/transfer/room-key-trust.ts, the web client's code). */
async function trustOf(actor: E2eActor, room: Room) {
  const state = await json<E2eRoomState>(await req(server, actor, 'GET', ROOM_E2E_PATHS.state(room.uuid)), 200);
  if (!state.roomKey) throw new Error(`no copy (${state.state})`);
  // The granter's OWNER role from the signed member list once the room has one (case 4).
  const members = await roomMemberListTrust(actor.client, e2eOf(actor), { roomUuid: room.uuid, me: actor.userUuid });
  return roomKeyTrust(actor.client, e2eOf(actor), { roomUuid: room.uuid, me: actor.userUuid, copy: state.roomKey, memberList: members.ok ? members.list : null });
}
const e2eOf = (actor: E2eActor) => ({ crypto: actor.crypto, keys: actor.keys!, pins: actor.pins });
const membersOf = async (room: Room) => (await json<{ members: E2eMember[] }>(await req(server, a.owner, 'GET', ROOM_E2E_PATHS.members(room.uuid)), 200)).members;
const userIdOf = async (actor: E2eActor) => (await server.app.db.selectFrom('users').select('id').where('uuid', '=', actor.userUuid).executeTakeFirstOrThrow()).id;

describe('signed room-key grants: who may store one', () => {
  it('the grant is stored beside the copy and handed back; a grant naming another member, key, room or granter is 400 grantMismatch; a VIEWER cannot grant (403)', async () => {
    const r = await roomWithFile('Grants');
    const state = await json<E2eRoomState>(await req(server, a.viewer, 'GET', ROOM_E2E_PATHS.state(r.room.uuid)), 200);
    expect(state.roomKey?.grant?.grant).toMatchObject({ roomId: r.room.uuid, recipientUserId: a.viewer.userUuid, granterUserId: a.owner.userUuid, epoch: 1 });
    expect(state.roomKey?.granter).toMatchObject({ userUuid: a.owner.userUuid, role: 'OWNER' });
    expect(await trustOf(a.viewer, r.room)).toEqual({ ok: true });
    expect(await trustOf(a.owner, r.room)).toEqual({ ok: true });

    const { handle } = await openRoomKey(server, a.owner, r.room.uuid);
    const copy = await a.owner.crypto.wrapRoomKey({ roomKey: handle, roomId: r.room.uuid, recipientPublicKey: a.viewer.keys!.encryption.publicKey });
    const put = (grantFor: Awaited<ReturnType<typeof signGrant>>, by = a.owner) => req(server, by, 'PUT', ROOM_E2E_PATHS.grant(r.room.uuid, a.viewer.userUuid), { approve: true, recipientKeyId: copy.recipientKeyId, wrappedKey: copy, grant: grantFor });
    for (const wrong of [
      await signGrant(a.owner, r.room.uuid, a.editor.userUuid, copy), // another member
      await signGrant(a.owner, '00000000-0000-4000-8000-000000000000', a.viewer.userUuid, copy), // another room
      await signGrant(a.editor, r.room.uuid, a.viewer.userUuid, copy), // signed as somebody else than the caller
    ]) {
      const response = await put(wrong);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { metadata?: { reason?: string } }).metadata?.reason).toBe('grantMismatch');
    }
    expect((await put(await signGrant(a.viewer, r.room.uuid, a.viewer.userUuid, copy), a.viewer)).status).toBe(403);
    expect((await put(await signGrant(a.owner, r.room.uuid, a.viewer.userUuid, copy))).status).toBe(200);
    expect(await trustOf(a.viewer, r.room)).toEqual({ ok: true });
  }, 120_000);
});

describe('case 1: a room key of the server’s making', () => {
  it('a copy the server wrapped itself is refused (room-key-grant-invalid); without a grant it is room-key-grant-missing; a non-OWNER granter is refused', async () => {
    const r = await roomWithFile('Server key');
    const db = server.app.db;
    expect(await trustOf(a.editor, r.room)).toEqual({ ok: true });
    // The server draws its own room key and wraps it to the EDITOR's public key (HPKE needs no secret).
    const own = await a.outsider.crypto.generateRoomKey();
    const forged = await a.outsider.crypto.wrapRoomKey({ roomKey: own.handle, roomId: r.room.uuid, recipientPublicKey: a.editor.keys!.encryption.publicKey });
    const descriptor = db.updateTable('access_descriptors').where('resource_id', '=', r.room.uuid).where('recipient_key_id', '=', a.editor.keys!.encryption.keyId).where('invalidated_at', 'is', null);
    await descriptor.set({ wrapped_key: JSON.stringify(forged) }).execute();
    // It opens (the member could read a room the server re-sealed under it), but the owner's grant names another copy.
    await openRoomKey(server, a.editor, r.room.uuid);
    expect(await trustOf(a.editor, r.room)).toEqual({ ok: false, code: 'room-key-grant-invalid' });
    // The server drops the grant: a copy without one.
    const editorId = (await db.selectFrom('users').select('id').where('uuid', '=', a.editor.userUuid).executeTakeFirstOrThrow()).id;
    const roomId = (await db.selectFrom('data_rooms').select('id').where('uuid', '=', r.room.uuid).executeTakeFirstOrThrow()).id;
    const saved = await db.selectFrom('room_e2e_key_grants').selectAll().where('room_id', '=', roomId).where('user_id', '=', editorId).executeTakeFirstOrThrow();
    await db.deleteFrom('room_e2e_key_grants').where('room_id', '=', roomId).where('user_id', '=', editorId).execute();
    expect(await trustOf(a.editor, r.room)).toEqual({ ok: false, code: 'room-key-grant-missing' });
    // The grant back, and the server names the VIEWER as granter: not an OWNER.
    const viewerId = (await db.selectFrom('users').select('id').where('uuid', '=', a.viewer.userUuid).executeTakeFirstOrThrow()).id;
    await db.insertInto('room_e2e_key_grants').values({ ...saved, granted_by: viewerId }).execute();
    expect(await trustOf(a.editor, r.room)).toEqual({ ok: false, code: 'room-key-grant-invalid' });
    const members = await json<{ members: E2eMember[] }>(await req(server, a.owner, 'GET', ROOM_E2E_PATHS.members(r.room.uuid)), 200);
    expect(members.members.find((m) => m.user.uuid === a.editor.userUuid)?.state).toBe('approved');
  }, 120_000);
});

describe('case 4: a member the server invents', () => {
  it('the signed list does not hold her: flagged, her key shown for approval, her upload refused (room-signer-not-writer); a role the server raises does not make a granter', async () => {
    const r = await roomWithFile('Invented member');
    const db = server.app.db;
    // The OWNER signs the list of the members she shared the room with (her client does on every change).
    await writeRoomMemberList(a.owner.client, e2eOf(a.owner), { roomUuid: r.room.uuid, me: a.owner.userUuid, current: null, base: (await membersOf(r.room)).map(memberEntryOf) });
    const listOf = async (actor: E2eActor) => {
      const read = await roomMemberListTrust(actor.client, e2eOf(actor), { roomUuid: r.room.uuid, me: actor.userUuid });
      if (!read.ok) throw new Error(read.code);
      return read.list;
    };
    expect(memberListFlags(await listOf(a.owner), await membersOf(r.room)).size).toBe(0);

    // The server adds a membership row for the outsider, as EDITOR.
    const roomId = (await db.selectFrom('data_rooms').select('id').where('uuid', '=', r.room.uuid).executeTakeFirstOrThrow()).id;
    const template = await db.selectFrom('room_access').selectAll().where('room_id', '=', roomId).where('user_id', '=', await userIdOf(a.editor)).executeTakeFirstOrThrow();
    const { id: _id, ...row } = template;
    await db.insertInto('room_access').values({ ...row, user_id: await userIdOf(a.outsider) }).execute();
    const members = await membersOf(r.room);
    const invented = members.find((m) => m.user.uuid === a.outsider.userUuid)!;
    expect(invented.state).toBe('pending');
    expect([...memberListFlags(await listOf(a.owner), members)]).toEqual([[a.outsider.userUuid, 'unlisted']]);
    // What the approval dialog shows: the fingerprint of the key it would wrap to — the outsider's own
    // (she reads hers out to compare) — and that the owner never met this key (no pin: not verified).
    const live = invented.keys.find((k) => k.usage === 'encryption')!;
    expect((await a.owner.crypto.fingerprint({ publicKey: live.publicKey })).fingerprint).toBe(a.outsider.keys!.encryption.fingerprint);
    expect(await a.owner.pins.get(`${a.outsider.userUuid}:encryption`)).toBeUndefined();

    // Approved with one click after all (the grant alone, no new list): her upload is refused to every reader.
    await json(await grant(server, a.owner, r.room.uuid, a.outsider.userUuid), 200);
    const { handle } = await openRoomKey(server, a.outsider, r.room.uuid);
    await uploadE2eFile(server, a.outsider, r.room.uuid, handle, { name: 'Invoice.pdf', bytes: new Uint8Array(10).fill(7), partSize: PART_SIZE });
    await expect(readE2eFolder(server, a.viewer, r.room.uuid, undefined, { download: false })).rejects.toMatchObject({ code: 'room-signer-not-writer' });
    // Once an OWNER lists her, the same upload verifies.
    await writeRoomMemberList(a.owner.client, e2eOf(a.owner), { roomUuid: r.room.uuid, me: a.owner.userUuid, current: await listOf(a.owner), upsert: [memberEntryOf(invented)] });
    expect((await readE2eFolder(server, a.viewer, r.room.uuid, undefined, { download: false })).files.has('Invoice.pdf')).toBe(true);

    // The server makes the EDITOR an OWNER (room_access) and lets her grant the VIEWER a copy: the
    // signed list still says EDITOR, so the grant is refused (room-key-grant-invalid).
    await db.updateTable('room_access').set({ role: 'OWNER' }).where('room_id', '=', roomId).where('user_id', '=', await userIdOf(a.editor)).execute();
    expect(await trustOf(a.viewer, r.room)).toEqual({ ok: true });
    await json(await grant(server, a.editor, r.room.uuid, a.viewer.userUuid), 200);
    expect(await trustOf(a.viewer, r.room)).toEqual({ ok: false, code: 'room-key-grant-invalid' });
    // The server serves the list of another room, or a list with the outsider edited in: refused.
    const stored = await db.selectFrom('room_e2e_member_lists').selectAll().where('room_id', '=', roomId).executeTakeFirstOrThrow();
    const signed = JSON.parse(stored.signed_list) as { list: { members: unknown[] } };
    signed.list.members = signed.list.members.filter((m) => (m as { userId: string }).userId !== a.outsider.userUuid);
    await db.updateTable('room_e2e_member_lists').set({ signed_list: JSON.stringify(signed) }).where('room_id', '=', roomId).execute();
    expect(await roomMemberListTrust(a.viewer.client, e2eOf(a.viewer), { roomUuid: r.room.uuid, me: a.viewer.userUuid })).toMatchObject({ ok: false, code: 'room-member-list-invalid' });
  }, 180_000);
});
