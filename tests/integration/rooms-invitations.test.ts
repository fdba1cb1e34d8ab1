import { createHash } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { ROOM_INVITATION_ENDPOINTS } from '@shared/contract/endpoints/room-invitations';
import { EMAIL_CHECK_IP_LIMIT } from '@shared/contract/external';
import type { RoomUploadFile } from '@shared/contract/room-files';
import {
  ROOM_INVITATION_VALID_DAYS_KEY,
  type InvitationDetails,
  type InvitationSignupResponse,
  type RoomAccessSetResult,
  type RoomInvitationList,
} from '@shared/contract/room-invitations';
import { ROOM_PATHS, type Room, type RoomContents, type RoomList } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS, type E2eMemberList } from '@shared/contract/rooms-e2e';
import { addressedTo, extractLink, linkToken, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, forgetFailures, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eRoom } from './rooms-e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Data-room invitations of addresses without an account (server/rooms/sharing/invitations.ts): the
 * invitation mail, the public check and signup (single use, also when raced), expiry, revoke, the
 * inviter's invite right, and the new member reading a file bit-exact. Runs on SQLite, and on
 * PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

const PART_SIZE = 1024;
const PASSWORD = 'Invited-Passw0rd-9';
let server: TestServer;
let admin: Session;
let owner: Session;
let editor: Session;
let ownerE2e: E2eActor;
const email = (name: string) => `${name}@rooms-invite.test`;
const api = (path: string) => `/api/2${path}`;
const seenMails = new Set<string>();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

const as = (session: Session | null, method: string, path: string, body?: unknown) => call(server, session, method, api(path), body);
const check = (token: string) => as(null, 'POST', ROOM_INVITATION_ENDPOINTS.check.path, { token });
const signUp = (token: string, extra: Record<string, unknown> = {}) =>
  as(null, 'POST', ROOM_INVITATION_ENDPOINTS.signup.path, { token, password: PASSWORD, firstName: 'Ina', lastName: 'Vited', language: 'en', ...extra });
const invitationsPath = (roomUuid: string) => `/rooms/${roomUuid}/invitations`;

async function newRoom(name: string): Promise<Room> {
  return json<Room>(await as(owner, 'POST', ROOM_PATHS.rooms, { name }), 201);
}

/** Shares the room with an address without an account; answers the invitation and the mailed token. */
async function invite(room: Room, address: string, role = 'EDITOR', folderUuid?: string): Promise<{ result: RoomAccessSetResult; token: string }> {
  const result = await json<RoomAccessSetResult>(await as(owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: address, role, ...(folderUuid ? { folderUuid } : {}) }), 200);
  expect(result.invitation).toMatchObject({ email: address.toLowerCase(), role, expired: false });
  // The first mail to the address not seen before carries this invitation's link.
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => !seenMails.has(m.id) && addressedTo(address)(m) && m.text.includes('/auth/dataroom-signup'));
  seenMails.add(mail.id);
  const link = extractLink(mail, '/auth/dataroom-signup');
  expect(link.origin).toBe(new URL(server.url).origin);
  // Issue 28 §1: the token in the fragment (linkToken refuses a query token), in no form of the mail.
  expect(`${mail.text}${mail.html}`).not.toMatch(/[?&]token=/);
  return { result, token: linkToken(link) };
}

async function upload(session: Session, room: Room, name: string, size: number): Promise<{ file: RoomUploadFile; bytes: Uint8Array }> {
  const bytes = new Uint8Array(testFileBytes(size));
  const file = await json<RoomUploadFile>(await as(session, 'POST', ROOM_PATHS.files(room.uuid), { name, size, mimeType: 'application/pdf' }), 201);
  for (let i = 0; i < file.partCount; i++) {
    const part = bytes.subarray(i * PART_SIZE, Math.min(size, (i + 1) * PART_SIZE));
    const response = await fetch(`${server.url}${api(ROOM_PATHS.filePart(room.uuid, file.uuid, i))}`, {
      method: 'PUT',
      headers: { cookie: session.cookie, [ANTI_CSRF_HEADER]: session.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(part) },
      body: new Blob([Uint8Array.from(part)]),
    });
    await json(response, 200);
  }
  return { file: await json<RoomUploadFile>(await as(session, 'POST', ROOM_PATHS.fileCommit(room.uuid, file.uuid)), 200), bytes };
}

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  admin = await signInAdmin(server);
  for (const name of ['owner', 'editor'] as const) await createUserAsAdmin(server, admin, { email: email(name) });
  owner = await signIn(server, email('owner'), 'Good-Passw0rd');
  editor = await signIn(server, email('editor'), 'Good-Passw0rd');
}, 180_000);
afterAll(() => server?.close());
// Every public call counts against the per-IP budget; all tests come from 127.0.0.1.
beforeEach(() => forgetFailures(server));

describe('inviting an address without an account', () => {
  it('mails a link; the check shows the room; the signup makes a member who sees the room and downloads a file bit-exact', async () => {
    const room = await newRoom('Deal room');
    const { file, bytes } = await upload(owner, room, 'Term sheet.pdf', 3 * PART_SIZE + 5);
    const { result, token } = await invite(room, 'Ina.Vited@Outside.test', 'EDITOR');
    expect(token.length).toBeGreaterThanOrEqual(40);
    // The token is stored only as its hash.
    const stored = await server.app.db.selectFrom('room_invitations').selectAll().where('uuid', '=', result.invitation!.uuid).executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(sha256(new TextEncoder().encode(token)));
    expect(JSON.stringify(stored)).not.toContain(token);
    // 14 days by default.
    expect(result.invitation!.expiresAt - result.invitation!.createdAt).toBe(14 * 86_400_000);

    // The owner's list shows it as pending.
    const list = await json<RoomInvitationList>(await as(owner, 'GET', invitationsPath(room.uuid)), 200);
    expect(list.invitations).toEqual([expect.objectContaining({ email: 'ina.vited@outside.test', role: 'EDITOR', folderUuid: null, expired: false, invitedBy: email('owner') })]);

    const details = await json<InvitationDetails>(await check(token), 200);
    expect(details).toMatchObject({ email: 'ina.vited@outside.test', role: 'EDITOR', encrypted: false, roomName: 'Deal room' });

    // The password rules of the delivery signup apply.
    const weak = await expectBackendError(await signUp(token, { password: 'short' }), 400);
    expect(weak.metadata).toMatchObject({ violations: expect.arrayContaining(['minLength']) });

    const done = await json<InvitationSignupResponse>(await signUp(token), 201);
    expect(done).toEqual({ email: 'ina.vited@outside.test', roomUuid: room.uuid, folderUuid: null });
    const member = await signIn(server, 'ina.vited@outside.test', PASSWORD);
    const rooms = await json<RoomList>(await as(member, 'GET', ROOM_PATHS.rooms), 200);
    expect(rooms.rooms.map((r) => r.uuid)).toContain(room.uuid);
    const contents = await json<RoomContents>(await as(member, 'GET', ROOM_PATHS.room(room.uuid)), 200);
    expect(contents.room.role).toBe('EDITOR');
    const download = await fetch(`${server.url}${api(ROOM_PATHS.fileContent(room.uuid, file.uuid))}`, { headers: { cookie: member.cookie } });
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));

    // Used: the link is gone, the invitation leaves the pending list.
    const used = await expectBackendError(await check(token), 410, 'InvitationExpiredException');
    expect(used.metadata).toMatchObject({ reason: 'invitationExpiredOrUsed' });
    await expectBackendError(await signUp(token), 410, 'InvitationExpiredException');
    expect((await json<RoomInvitationList>(await as(owner, 'GET', invitationsPath(room.uuid)), 200)).invitations).toEqual([]);
  });

  it('two signups at once: exactly one succeeds, the other answers 410', async () => {
    const room = await newRoom('Race room');
    const { token } = await invite(room, 'racer@outside.test', 'VIEWER');
    const answers = await Promise.all([signUp(token), signUp(token)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 410]);
    const loser = answers.find((r) => r.status === 410)!;
    await expectBackendError(loser, 410, 'InvitationExpiredException');
    const accounts = await server.app.db.selectFrom('users').select('id').where('email', '=', 'racer@outside.test').execute();
    expect(accounts).toHaveLength(1);
    const entries = await server.app.db.selectFrom('room_access').select('role').where('user_id', '=', accounts[0]!.id).execute();
    expect(entries).toEqual([{ role: 'VIEWER' }]);
  });

  it('an expired link answers 410; a wrong token 404 in the SPEC shape; a revoked invitation 410', async () => {
    const room = await newRoom('Expiry room');
    const { result, token } = await invite(room, 'late@outside.test');
    await server.app.db.updateTable('room_invitations').set({ expires_at: Date.now() - 1 }).where('uuid', '=', result.invitation!.uuid).execute();
    await expectBackendError(await check(token), 410, 'InvitationExpiredException');
    await expectBackendError(await signUp(token), 410, 'InvitationExpiredException');
    const listed = await json<RoomInvitationList>(await as(owner, 'GET', invitationsPath(room.uuid)), 200);
    expect(listed.invitations[0]).toMatchObject({ email: 'late@outside.test', expired: true });

    const wrong = await expectBackendError(await check(`${'x'.repeat(43)}`), 404, 'NotFoundException');
    expect(wrong.metadata).toMatchObject({ reason: 'linkInvalid' });
    await expectBackendError(await signUp('y'.repeat(43)), 404, 'NotFoundException');
    await expectBackendError(await check('short'), 400, 'ValidationException');

    // Inviting again sends a new link and retires the old one; revoking makes the new link 410 too.
    const again = await invite(room, 'late@outside.test', 'VIEWER');
    expect(again.token).not.toBe(token);
    await expectBackendError(await check(token), 410, 'InvitationExpiredException');
    expect((await json<InvitationDetails>(await check(again.token), 200)).role).toBe('VIEWER');
    await expectBackendError(await as(editor, 'DELETE', `${invitationsPath(room.uuid)}/${again.result.invitation!.uuid}`), 404, 'NotFoundException');
    await json(await as(owner, 'DELETE', `${invitationsPath(room.uuid)}/${again.result.invitation!.uuid}`), 204);
    await expectBackendError(await check(again.token), 410, 'InvitationExpiredException');
    await expectBackendError(await signUp(again.token), 410, 'InvitationExpiredException');
    await expectBackendError(await as(owner, 'DELETE', `${invitationsPath(room.uuid)}/${again.result.invitation!.uuid}`), 404, 'NotFoundException');
    expect((await json<RoomInvitationList>(await as(owner, 'GET', invitationsPath(room.uuid)), 200)).invitations).toEqual([]);
  });

  it('an inviter without the invite right gets the 400 of today; a non-owner cannot invite; a username is no address', async () => {
    const room = await newRoom('Rights room');
    await json(await as(owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email('editor'), role: 'EDITOR' }), 200);
    // EDITORs do not manage access.
    await expectBackendError(await as(editor, 'PUT', ROOM_PATHS.access(room.uuid), { user: 'someone@outside.test', role: 'VIEWER' }), 403, 'AccessDeniedException');
    await expectBackendError(await as(editor, 'GET', invitationsPath(room.uuid)), 403, 'AccessDeniedException');
    const notAnAddress = await expectBackendError(await as(owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: 'nobody', role: 'VIEWER' }), 400, 'InviteUserToShareException');
    expect(notAnAddress.metadata).toMatchObject({ reason: 'notRegistered' });

    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.inviteRequiresRole]: true });
    try {
      const refused = await expectBackendError(await as(owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: 'someone@outside.test', role: 'VIEWER' }), 400, 'InviteUserToShareException');
      expect(refused.metadata).toMatchObject({ field: 'user', reason: 'notRegistered' });
      expect(refused.message).toBe('Only registered users can be invited to a data room');
      expect(await server.app.db.selectFrom('room_invitations').select('id').where('email', '=', 'someone@outside.test').execute()).toEqual([]);
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.inviteRequiresRole]: false });
    }
  });

  it('the validity follows the setting; a folder invitation lands the member in that folder only', async () => {
    await updateSettings(server, admin, { [ROOM_INVITATION_VALID_DAYS_KEY]: 3 });
    try {
      const room = await newRoom('Folder room');
      const folder = await json<{ uuid: string }>(await as(owner, 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Inbox' }), 201);
      const { result, token } = await invite(room, 'folder@outside.test', 'VIEWER', folder.uuid);
      expect(result.invitation!.expiresAt - result.invitation!.createdAt).toBe(3 * 86_400_000);
      expect(result.invitation!.folderUuid).toBe(folder.uuid);
      expect((await json<RoomInvitationList>(await as(owner, 'GET', `${invitationsPath(room.uuid)}?folderUuid=${folder.uuid}`), 200)).invitations).toHaveLength(1);
      expect((await json<RoomInvitationList>(await as(owner, 'GET', invitationsPath(room.uuid)), 200)).invitations).toHaveLength(0);
      const done = await json<InvitationSignupResponse>(await signUp(token), 201);
      expect(done.folderUuid).toBe(folder.uuid);
      const member = await signIn(server, 'folder@outside.test', PASSWORD);
      await json(await as(member, 'GET', ROOM_PATHS.folder(room.uuid, folder.uuid)), 200);
      await expectBackendError(await as(member, 'GET', ROOM_PATHS.room(room.uuid)), 404, 'NotFoundException');
    } finally {
      await updateSettings(server, admin, { [ROOM_INVITATION_VALID_DAYS_KEY]: 14 });
    }
  });

  it('an E2E room: the check says encrypted without the name; the new member has no room key yet (noSecuPass)', async () => {
    ownerE2e ??= await e2eActor(server, owner);
    await giveSecuPass(ownerE2e, 'owner-SecuPass-rooms-invite-Marble-7');
    const { room, response } = await createE2eRoom(server, ownerE2e, 'Sealed deal');
    expect(response.status).toBe(201);
    const { token } = await invite(room, 'sealed@outside.test', 'EDITOR');
    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('sealed@outside.test')(m));
    expect(mail.text).not.toContain('Sealed deal');
    expect(await json<InvitationDetails>(await check(token), 200)).toMatchObject({ encrypted: true, roomName: null, role: 'EDITOR' });
    await json(await signUp(token), 201);
    const members = await json<E2eMemberList>(await as(owner, 'GET', ROOM_E2E_PATHS.members(room.uuid)), 200);
    expect(members.members.find((m) => m.user.email === 'sealed@outside.test')).toMatchObject({ role: 'EDITOR', state: 'noSecuPass', missingFileKey: false, encryptionNotActivated: true });
  });

  it('the public calls are rate limited per client address like the delivery signup (429)', async () => {
    for (let i = 0; i < EMAIL_CHECK_IP_LIMIT.limit; i++) await expectBackendError(await check(`${'z'.repeat(42)}${i % 10}`), 404, 'NotFoundException');
    const limited = await expectBackendError(await check('z'.repeat(43)), 429, 'RateLimitExceededException');
    expect(limited.metadata.retryAfterSeconds).toBeGreaterThan(0);
    await expectBackendError(await signUp('z'.repeat(43)), 429, 'RateLimitExceededException');
  });
});
