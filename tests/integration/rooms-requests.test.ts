import { createHash } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { DELIVERY_SETTING_KEYS, DELIVERY_WEB_LINKS, type DeliveryDetail, type DeliveryUploadFile } from '@shared/contract/deliveries';
import { AUTHORIZATION_ERROR } from '@shared/contract/errors';
import { parseAuthorizationErrors } from '@shared/auth/authorization-errors';
import { ROOM_REQUEST_TOKEN_HEADER } from '@shared/contract/link-token';
import { ROOM_REQUEST_IP_LIMIT, ROOM_REQUEST_PATHS, type RoomRequest, type RoomRequestInfo, type RoomRequestList } from '@shared/contract/room-requests';
import { ROOM_PATHS, type Room, type RoomContents, type RoomFolder } from '@shared/contract/rooms';
import { addressedTo, extractLink, readMailbox, waitForMailboxMail, type MailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_REQUEST_COPY_JOB } from '@server/rooms/requests/requests-delivery';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, updateSettings, type Session } from './core-helpers';
import { e2eActor, giveSecuPass } from './e2e-helpers';
import { createE2eRoom } from './rooms-e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Data-room requests (server/rooms/requests/requests*.ts, issue 15 §2): an OWNER or EDITOR asks an address
 * for files for a folder; the person answers with a delivery to the requester; its files land in
 * the folder bit-exact. Runs on SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

const PART_SIZE = 1024;
let server: TestServer;
let admin: Session;
const s: Record<'owner' | 'editor' | 'viewer' | 'outsider' | 'sender', Session> = {} as never;
const api = (path: string) => `/api/2${path}`;
const email = (name: string) => `${name}@requests.test`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
let room: Room;
let folder: RoomFolder;
/** The server's real log (the production logger and its redaction). */
const logLines: string[] = [];

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}
const req = (session: Session | null, method: string, path: string, body?: unknown) => call(server, session, method, api(path), body);
/** A token call as the web client makes it: the mailed token in the x-room-request-token header. */
const tokenReq = (session: Session | null, method: string, path: string, token: string, body?: unknown) =>
  call(server, session, method, api(path), body, { headers: { [ROOM_REQUEST_TOKEN_HEADER]: token } });

async function mailCount(to: string): Promise<number> {
  return (await readMailbox(server.mailboxDir)).filter(addressedTo(to)).length;
}

/** Creates a request as `who` and returns it with the token from the mail it caused. */
async function request(who: Session, to: string, message = 'Please send the signed contract', folderUuid: string | null = folder.uuid) {
  const seen = new Set((await readMailbox(server.mailboxDir)).map((m) => m.id));
  const created = await json<RoomRequest>(await req(who, 'POST', ROOM_REQUEST_PATHS.requests(room.uuid), { folderUuid, email: to, message }), 201);
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => !seen.has(m.id) && addressedTo(to)(m) && m.subject.includes('asks you for files'));
  return { created, mail, token: tokenOf(mail) };
}

function tokenOf(mail: MailboxMail): string {
  const link = mail.text.includes('/secumails/send') ? extractLink(mail, '/secumails/send') : extractLink(mail, '/auth/delivery-signup-dar');
  // In the fragment (issue 28): a browser never sends it to a server.
  expect(link.search).toBe('');
  const fragment = new URLSearchParams(link.hash.slice(1));
  const token = fragment.get('dar') ?? fragment.get('token');
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return token!;
}

function putPart(session: Session, deliveryUuid: string, fileId: string, index: number, bytes: Uint8Array) {
  return fetch(`${server.url}${api(`/deliveries/${deliveryUuid}/files/${fileId}/parts/${index}`)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(bytes), cookie: session.cookie, [ANTI_CSRF_HEADER]: session.csrf },
    body: new Blob([Uint8Array.from(bytes)]),
  });
}

async function uploadFile(session: Session, deliveryUuid: string, name: string, bytes: Uint8Array): Promise<void> {
  const file = await json<DeliveryUploadFile>(await req(session, 'POST', `/deliveries/${deliveryUuid}/files`, { name, size: bytes.length, mimeType: 'application/octet-stream' }), 201);
  for (let i = 0; i < file.partCount; i++) {
    const response = await putPart(session, deliveryUuid, file.fileId, i, bytes.subarray(i * file.partSize, (i + 1) * file.partSize));
    expect(response.status, await response.clone().text()).toBe(200);
  }
  await json(await req(session, 'POST', `/deliveries/${deliveryUuid}/files/${file.fileId}/commit`), 200);
}

/** The sender's answer: the dar draft, two files, the send; then the copy job runs. */
async function answer(sender: Session, token: string, level: number, files: Record<string, Uint8Array>): Promise<DeliveryDetail> {
  const draft = await json<DeliveryDetail>(await tokenReq(sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, { body: 'Here they are', securityLevel: level }), 201);
  for (const [name, bytes] of Object.entries(files)) await uploadFile(sender, draft.deliveryUuid, name, bytes);
  const sent = await json<DeliveryDetail>(await req(sender, 'POST', `/deliveries/${draft.deliveryUuid}/send`), 200);
  await server.app.jobs.whenIdle();
  return sent;
}

async function folderFiles(): Promise<Map<string, string>> {
  const contents = await json<RoomContents>(await req(s.owner, 'GET', ROOM_PATHS.folder(room.uuid, folder.uuid)), 200);
  return new Map(contents.files.map((f) => [f.name, f.uuid]));
}

async function download(fileUuid: string): Promise<Uint8Array> {
  const response = await fetch(`${server.url}${api(ROOM_PATHS.fileContent(room.uuid, fileUuid))}`, { headers: { cookie: s.owner.cookie } });
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

beforeAll(async () => {
  // trustProxy: the rate-limit tests call "from" other client addresses (X-Forwarded-For).
  server = await startTestServer({ logStream: { write: (line) => void logLines.push(line) }, config: { uploadPartSize: PART_SIZE, trustProxy: '127.0.0.1' } });
  admin = await signInAdmin(server);
  for (const name of ['owner', 'editor', 'viewer', 'outsider', 'sender'] as const) {
    await createUserAsAdmin(server, admin, { email: email(name), firstName: name === 'owner' ? 'Olga' : '', lastName: name === 'owner' ? 'Owner' : '' });
    s[name] = await signIn(server, email(name), 'Good-Passw0rd');
  }
  room = await json<Room>(await req(s.owner, 'POST', ROOM_PATHS.rooms, { name: 'Deals' }), 201);
  for (const [who, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER']] as const) await json(await req(s.owner, 'PUT', ROOM_PATHS.access(room.uuid), { user: email(who), role }), 200);
  folder = await json<RoomFolder>(await req(s.owner, 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Inbound' }), 201);
}, 180_000);
afterAll(() => server?.close());

it('runs on the database the environment asks for', () => {
  expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
});

describe('a registered sender answers', () => {
  it('level 1 and level 2 deliveries with two files each land in the folder bit-exact; the requester is mailed; the request is used', async () => {
    await json(await req(s.owner, 'POST', ROOM_PATHS.files(room.uuid), { folderUuid: folder.uuid, name: 'contract.pdf', size: 3, mimeType: 'application/pdf' }), 201);
    for (const [level, tag] of [[SECURITY_LEVELS.LEVEL_1, 'one'], [SECURITY_LEVELS.LEVEL_2, 'two']] as const) {
      const { created, mail, token } = await request(s.owner, email('sender'));
      expect(created).toMatchObject({ state: 'open', email: email('sender'), folderUuid: folder.uuid, folderName: 'Inbound', requestedBy: email('owner'), requestedByName: 'Olga Owner', filesCopied: 0 });
      // A registered address goes straight to the send page's dar variant.
      expect(extractLink(mail, '/secumails/send').pathname).toBe('/secumails/send');
      expect(mail.text).toContain('Please send the signed contract');
      const infoResponse = await tokenReq(null, 'GET', ROOM_REQUEST_PATHS.info, token);
      // Registered: no signup code in the authorization-errors header.
      expect(parseAuthorizationErrors(infoResponse.headers)).toBeNull();
      const info = await json<RoomRequestInfo>(infoResponse, 200);
      expect(info).toMatchObject({ requesterName: 'Olga Owner', requesterEmail: email('owner'), roomName: 'Deals', folderName: 'Inbound', registered: true, email: email('sender') });

      const files = { 'contract.pdf': new Uint8Array(testFileBytes(2500)), [`notes-${tag}.txt`]: new Uint8Array(testFileBytes(700)) };
      const ownerMails = await mailCount(email('owner'));
      const sent = await answer(s.sender, token, level, files);
      expect(sent.recipients.map((r) => r.email)).toEqual([email('owner')]);

      const listed = await folderFiles();
      // "contract.pdf" was taken (an upload in progress counts, a copy before too): kept both, numbered.
      const copiedName = level === SECURITY_LEVELS.LEVEL_1 ? 'contract (1).pdf' : 'contract (2).pdf';
      expect(listed.has(copiedName), [...listed.keys()].join()).toBe(true);
      expect(sha256(await download(listed.get(copiedName)!))).toBe(sha256(files['contract.pdf']));
      expect(sha256(await download(listed.get(`notes-${tag}.txt`)!))).toBe(sha256(files[`notes-${tag}.txt`]!));

      const notice = (await readMailbox(server.mailboxDir)).filter(addressedTo(email('owner')));
      expect(notice.length).toBeGreaterThan(ownerMails);
      expect(notice.some((m) => m.subject.includes('sent the files you requested') && m.text.includes('Deals / Inbound'))).toBe(true);

      const list = await json<RoomRequestList>(await req(s.owner, 'GET', ROOM_REQUEST_PATHS.requests(room.uuid)), 200);
      expect(list.requests.find((r) => r.uuid === created.uuid)).toMatchObject({ state: 'used', filesCopied: 2, requestedBy: email('owner'), requestedByName: 'Olga Owner' });
      // Single use: the link answers 410, a second answer too.
      await expectBackendError(await tokenReq(null, 'GET', ROOM_REQUEST_PATHS.info, token), 410);
      const again = await expectBackendError(await tokenReq(s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, {}), 410);
      expect(again.metadata).toMatchObject({ reason: 'used' });
    }
    // The uploader of a copied file is the sender; the activity log says so.
    const contents = await json<RoomContents>(await req(s.owner, 'GET', ROOM_PATHS.folder(room.uuid, folder.uuid)), 200);
    expect(contents.files.find((f) => f.name === 'notes-one.txt')?.uploadedBy).toBe(email('sender'));
  });

  it('the draft keeps the requester as its only recipient; an E2E level is refused; another account cannot use the link', async () => {
    const { token } = await request(s.editor, email('sender'), '');
    const refused = await expectBackendError(await tokenReq(s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, { securityLevel: SECURITY_LEVELS.LEVEL_3 }), 409, 'ConflictException');
    expect(refused.metadata).toMatchObject({ reason: 'encryptedLevel' });
    await expectBackendError(await tokenReq(s.outsider, 'POST', ROOM_REQUEST_PATHS.delivery, token, {}), 403, 'AccessDeniedException');
    const draft = await json<DeliveryDetail>(await tokenReq(s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, { securityLevel: SECURITY_LEVELS.LEVEL_2 }), 201);
    expect(draft.subject).toBe('Deals / Inbound');
    // The same link again continues that draft.
    expect((await json<DeliveryDetail>(await tokenReq(s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, {}), 201)).deliveryUuid).toBe(draft.deliveryUuid);
    await json(await req(s.sender, 'PATCH', `/deliveries/${draft.deliveryUuid}`, { recipients: [email('owner'), email('outsider')] }), 200);
    await uploadFile(s.sender, draft.deliveryUuid, 'x.bin', new Uint8Array(testFileBytes(10)));
    const fixed = await expectBackendError(await req(s.sender, 'POST', `/deliveries/${draft.deliveryUuid}/send`), 400);
    expect(fixed.metadata).toMatchObject({ reason: 'requestRecipientFixed' });
  });
});

describe('single use under concurrency', () => {
  it('two sends of the answering draft at once: one goes, the files are copied once', async () => {
    const { created, token } = await request(s.owner, email('sender'), 'race', null);
    const draft = await json<DeliveryDetail>(await tokenReq(s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, { securityLevel: SECURITY_LEVELS.LEVEL_2 }), 201);
    const bytes = new Uint8Array(testFileBytes(1800));
    await uploadFile(s.sender, draft.deliveryUuid, 'race.bin', bytes);
    const answers = await Promise.all([0, 1, 2].map(() => req(s.sender, 'POST', `/deliveries/${draft.deliveryUuid}/send`)));
    expect(answers.map((r) => r.status).filter((status) => status === 200)).toHaveLength(1);
    for (const refused of answers.filter((r) => r.status !== 200)) expect([409, 410]).toContain(refused.status);
    await server.app.jobs.whenIdle();
    const top = await json<RoomContents>(await req(s.owner, 'GET', ROOM_PATHS.room(room.uuid)), 200);
    expect(top.files.filter((f) => f.name.startsWith('race'))).toHaveLength(1);
    const list = await json<RoomRequestList>(await req(s.owner, 'GET', ROOM_REQUEST_PATHS.requests(room.uuid)), 200);
    expect(list.requests.find((r) => r.uuid === created.uuid)).toMatchObject({ state: 'used', filesCopied: 1, folderUuid: null });
  });
});

describe('storage quota', () => {
  it('a copy that does not fit waits (the job retries) and lands once there is room', async () => {
    const { created, token } = await request(s.owner, email('sender'), 'quota', null);
    const draft = await json<DeliveryDetail>(await tokenReq(s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, { securityLevel: SECURITY_LEVELS.LEVEL_2 }), 201);
    const bytes = new Uint8Array(testFileBytes(4000));
    await uploadFile(s.sender, draft.deliveryUuid, 'big-one.bin', bytes);
    const totals = await server.app.db.selectFrom('storage_totals').select('bytes').execute();
    await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.globalQuota]: totals.reduce((sum, t) => sum + Number(t.bytes), 0) + 100 });
    try {
      await json(await req(s.sender, 'POST', `/deliveries/${draft.deliveryUuid}/send`), 200);
      await server.app.jobs.whenIdle();
      expect(await server.app.db.selectFrom('room_files').select('id').where('name', '=', 'big-one.bin').executeTakeFirst()).toBeUndefined();
      const job = await server.app.db.selectFrom('jobs').select(['state', 'last_error']).where('kind', '=', ROOM_REQUEST_COPY_JOB).where('state', '=', 'pending').executeTakeFirstOrThrow();
      expect(job.last_error).toContain('no space left');
    } finally {
      await updateSettings(server, admin, { [DELIVERY_SETTING_KEYS.globalQuota]: 0 });
    }
    // The retry delay passes: the copy goes through.
    await server.app.db.updateTable('jobs').set({ run_at: Date.now() - 1 }).where('kind', '=', ROOM_REQUEST_COPY_JOB).where('state', '=', 'pending').execute();
    server.app.jobs.kick();
    await server.app.jobs.whenIdle();
    const copied = await server.app.db.selectFrom('room_files').select('sha256').where('name', '=', 'big-one.bin').executeTakeFirstOrThrow();
    expect(copied.sha256).toBe(sha256(bytes));
    const list = await json<RoomRequestList>(await req(s.owner, 'GET', ROOM_REQUEST_PATHS.requests(room.uuid)), 200);
    expect(list.requests.find((r) => r.uuid === created.uuid)).toMatchObject({ state: 'used', filesCopied: 1 });
  });
});

describe('an unregistered address', () => {
  it('signs up through the mailed link, signs in and sends; the files land in the folder', async () => {
    const to = 'newcomer@outside.test';
    const { mail, token } = await request(s.owner, to, 'Your ID please', folder.uuid);
    expect(extractLink(mail, '/auth/delivery-signup-dar').hash).toBe(`#token=${token}`);
    const infoResponse = await tokenReq(null, 'GET', ROOM_REQUEST_PATHS.info, token);
    // SPEC §7/§8: code 10 (delivery signup required, DAR) in the authorization-errors header.
    expect(parseAuthorizationErrors(infoResponse.headers)).toEqual([{ authorizationError: AUTHORIZATION_ERROR.DELIVERY_SIGNUP_REQUIRED }]);
    expect((await json<RoomRequestInfo>(infoResponse, 200)).registered).toBe(false);
    await expectBackendError(await tokenReq(null, 'POST', ROOM_REQUEST_PATHS.signup, token, { password: 'short' }), 400, 'ValidationException');
    expect(await json(await tokenReq(null, 'POST', ROOM_REQUEST_PATHS.signup, token, { password: 'Outside-Passw0rd-9', firstName: 'New', lastName: 'Comer' }), 201)).toEqual({ email: to });
    // Once: the account exists now.
    const twiceResponse = await tokenReq(null, 'POST', ROOM_REQUEST_PATHS.signup, token, { password: 'Outside-Passw0rd-9' });
    // Code 40 (user already registered) travels in the authorization-errors header as well (SPEC §7).
    expect(parseAuthorizationErrors(twiceResponse.headers)).toEqual([{ authorizationError: AUTHORIZATION_ERROR.USER_ALREADY_REGISTERED }]);
    const twice = await expectBackendError(twiceResponse, 409);
    expect(twice.metadata).toMatchObject({ reason: 'userAlreadyRegistered', authorizationError: 40 });
    const newcomer = await signIn(server, to, 'Outside-Passw0rd-9');
    const bytes = new Uint8Array(testFileBytes(3000));
    // A reply-only outsider account may answer its requester (and nobody else).
    await answer(newcomer, token, SECURITY_LEVELS.LEVEL_2, { 'passport.jpg': bytes });
    const listed = await folderFiles();
    expect(sha256(await download(listed.get('passport.jpg')!))).toBe(sha256(bytes));
    const other = await expectBackendError(await req(newcomer, 'POST', '/deliveries', { recipients: [email('editor')], subject: 'x', body: 'y', securityLevel: SECURITY_LEVELS.LEVEL_2 }), 403);
    expect(other.metadata).toMatchObject({ reason: 'replyOnly' });
  });
});

describe('refusals', () => {
  it('an expired request answers 410 on every token call', async () => {
    const { created, token } = await request(s.owner, email('sender'));
    await server.app.db.updateTable('room_requests').set({ expires_at: Date.now() - 1 }).where('uuid', '=', created.uuid).execute();
    for (const response of [
      await tokenReq(null, 'GET', ROOM_REQUEST_PATHS.info, token),
      await tokenReq(null, 'POST', ROOM_REQUEST_PATHS.signup, token, { password: 'Outside-Passw0rd-9' }),
      await tokenReq(s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, {}),
    ]) {
      const gone = await expectBackendError(response, 410);
      expect(gone.metadata).toMatchObject({ reason: 'expired' });
    }
    const list = await json<RoomRequestList>(await req(s.owner, 'GET', ROOM_REQUEST_PATHS.requests(room.uuid)), 200);
    expect(list.requests.find((r) => r.uuid === created.uuid)?.state).toBe('expired');
  });

  it('a revoked request answers 410, also for a draft started before', async () => {
    const { created, token } = await request(s.owner, email('sender'));
    const draft = await json<DeliveryDetail>(await tokenReq(s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, { securityLevel: SECURITY_LEVELS.LEVEL_1 }), 201);
    await uploadFile(s.sender, draft.deliveryUuid, 'late.bin', new Uint8Array(testFileBytes(10)));
    await expectBackendError(await req(s.editor, 'DELETE', ROOM_REQUEST_PATHS.request(room.uuid, created.uuid)), 403, 'AccessDeniedException');
    expect((await req(s.owner, 'DELETE', ROOM_REQUEST_PATHS.request(room.uuid, created.uuid))).status).toBe(204);
    const gone = await expectBackendError(await req(s.sender, 'POST', `/deliveries/${draft.deliveryUuid}/send`), 410);
    expect(gone.metadata).toMatchObject({ reason: 'revoked' });
    await expectBackendError(await tokenReq(null, 'GET', ROOM_REQUEST_PATHS.info, token), 410);
  });

  it('VIEWER 403, non-member 404, anonymous 401; only OWNERs list; bad input 400', async () => {
    const body = { folderUuid: folder.uuid, email: 'x@outside.test', message: '' };
    await expectBackendError(await req(s.viewer, 'POST', ROOM_REQUEST_PATHS.requests(room.uuid), body), 403, 'AccessDeniedException');
    await expectBackendError(await req(s.outsider, 'POST', ROOM_REQUEST_PATHS.requests(room.uuid), body), 404, 'NotFoundException');
    await expectBackendError(await req(null, 'POST', ROOM_REQUEST_PATHS.requests(room.uuid), body), 401);
    await expectBackendError(await req(s.editor, 'GET', ROOM_REQUEST_PATHS.requests(room.uuid)), 403, 'AccessDeniedException');
    await expectBackendError(await req(s.outsider, 'GET', ROOM_REQUEST_PATHS.requests(room.uuid)), 404, 'NotFoundException');
    const bad = await expectBackendError(await req(s.owner, 'POST', ROOM_REQUEST_PATHS.requests(room.uuid), { ...body, email: 'not-an-address' }), 400, 'ValidationException');
    expect(bad.metadata).toMatchObject({ field: 'email' });
    await expectBackendError(await tokenReq(null, 'GET', ROOM_REQUEST_PATHS.info, 'A'.repeat(43)), 404, 'NotFoundException');
    await expectBackendError(await tokenReq(null, 'GET', ROOM_REQUEST_PATHS.info, 'bad token!'), 400, 'ValidationException');
  });

  it('an end-to-end encrypted room answers 409 with the reason', async () => {
    const owner = await e2eActor(server, s.owner);
    await giveSecuPass(owner, 'Owner-SecuPass-requests-Marble-7');
    const { room: sealed, response } = await createE2eRoom(server, owner, 'Sealed');
    expect(response.status).toBe(201);
    const refused = await expectBackendError(await req(s.owner, 'POST', ROOM_REQUEST_PATHS.requests(sealed.uuid), { email: 'x@outside.test', message: '' }), 409, 'ConflictException');
    expect(refused.metadata).toMatchObject({ reason: 'encryptedRoom' });
    expect(refused.message).toContain('end-to-end encrypted');
  });
});

describe('the token travels in the x-room-request-token header, never in the URL (issue 28)', () => {
  it('without the header every token call is refused (400 ValidationException naming it), a wrong token 404, a malformed one 400', async () => {
    const { token } = await request(s.owner, email('sender'), 'header', null);
    const calls = [
      ['GET', ROOM_REQUEST_PATHS.info, undefined, null],
      ['POST', ROOM_REQUEST_PATHS.signup, { password: 'Outside-Passw0rd-9' }, null],
      ['POST', ROOM_REQUEST_PATHS.delivery, {}, s.sender],
    ] as const;
    for (const [method, path, body, session] of calls) {
      const missing = await expectBackendError(await req(session, method, path, body), 400, 'ValidationException');
      expect(JSON.stringify(missing.metadata), path).toContain(ROOM_REQUEST_TOKEN_HEADER);
      await expectBackendError(await tokenReq(session, method, path, `${token.slice(0, 30)} !`, body), 400, 'ValidationException');
      expect((await expectBackendError(await tokenReq(session, method, path, 'Q'.repeat(43), body), 404, 'NotFoundException')).message).not.toContain(token);
    }
    expect((await json<RoomRequestInfo>(await tokenReq(null, 'GET', ROOM_REQUEST_PATHS.info, token), 200)).email).toBe(email('sender'));
  });

  it('the path form of before is retired (404); no token of a token call reaches a log line', async () => {
    const { token } = await request(s.owner, email('sender'), 'retired', null);
    const before = logLines.length;
    for (const [method, path] of [['GET', `/room-requests/${token}`], ['POST', `/room-requests/${token}/delivery`], ['POST', `/room-requests/${token}/signup`]] as const) {
      const body = await expectBackendError(await req(method === 'GET' ? null : s.sender, method, path, method === 'GET' ? undefined : {}), 404, 'NotFoundException');
      // Nor does the error body echo it (requestUri redacted as in the log).
      expect(body.requestUri).toContain('/room-requests/[redacted]');
      expect(JSON.stringify(body)).not.toContain(token);
    }
    await json<RoomRequestInfo>(await tokenReq(null, 'GET', ROOM_REQUEST_PATHS.info, token), 200);
    await json<DeliveryDetail>(await tokenReq(s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, { securityLevel: SECURITY_LEVELS.LEVEL_2 }), 201);
    const log = logLines.slice(before).join('\n');
    // The calls are in the log (so the search below reads real lines); the token is in none.
    for (const url of ['/api/2/room-requests/[redacted]', '/api/2/room-requests/[redacted]/delivery', '/api/2/room-requests/by-token', '/api/2/room-requests/by-token/delivery']) {
      expect(log).toContain(`"url":"${url}"`);
    }
    expect(logLines.filter((line) => line.includes(token))).toEqual([]);
  });

  it('OpenAPI names the header as a required parameter of the three calls', async () => {
    const document = (await (await fetch(`${server.url}/api/2/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: unknown[] }>> };
    for (const [method, path] of [['get', ROOM_REQUEST_PATHS.info], ['post', ROOM_REQUEST_PATHS.signup], ['post', ROOM_REQUEST_PATHS.delivery]] as const) {
      expect(document.paths[api(path)]?.[method]?.parameters, path).toContainEqual(expect.objectContaining({ in: 'header', name: ROOM_REQUEST_TOKEN_HEADER, required: true }));
    }
  });
});

describe('rate limit of the token calls', () => {
  /** A token call "from" a client address (X-Forwarded-For through the trusted 127.0.0.1) to `target`, the token in its header. */
  function from(target: TestServer, ip: string, session: Session | null, method: string, path: string, token: string, body?: unknown) {
    const headers: Record<string, string> = { 'x-forwarded-for': ip, [ROOM_REQUEST_TOKEN_HEADER]: token };
    if (session) Object.assign(headers, { cookie: session.cookie, [ANTI_CSRF_HEADER]: session.csrf });
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${target.url}${api(path)}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  it('per client address, wrong tokens too, shared by two servers: 429 with retryAfterSeconds; another address still passes', async () => {
    const { token } = await request(s.owner, email('sender'), 'limits', null);
    // A second server on the same database: the budget is the database's, not one process's.
    const other = await startTestServer({ config: { uploadPartSize: PART_SIZE, trustProxy: '127.0.0.1' }, reuse: { dataDir: server.dataDir, databaseSchema: server.databaseSchema } });
    try {
      const guesser = '203.0.113.50';
      const wrong = 'W'.repeat(43);
      const calls = [
        (t: TestServer) => from(t, guesser, null, 'GET', ROOM_REQUEST_PATHS.info, wrong),
        (t: TestServer) => from(t, guesser, null, 'POST', ROOM_REQUEST_PATHS.signup, wrong, { password: 'Outside-Passw0rd-9' }),
        (t: TestServer) => from(t, guesser, s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, wrong, {}),
      ];
      for (let i = 0; i < ROOM_REQUEST_IP_LIMIT.limit; i++) {
        await expectBackendError(await calls[i % calls.length]!(i % 2 === 0 ? server : other), 404, 'NotFoundException');
      }
      // The budget is spent: the right token is refused too, on both servers and on every token call.
      for (const response of [
        await from(server, guesser, null, 'GET', ROOM_REQUEST_PATHS.info, token),
        await from(other, guesser, null, 'GET', ROOM_REQUEST_PATHS.info, token),
        await from(server, guesser, null, 'POST', ROOM_REQUEST_PATHS.signup, token, { password: 'Outside-Passw0rd-9' }),
        await from(other, guesser, s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, {}),
      ]) {
        const refused = await expectBackendError(response, 429, 'RateLimitExceededException');
        const seconds = Number(response.headers.get('retry-after'));
        expect(seconds).toBeGreaterThan(0);
        expect(seconds).toBeLessThanOrEqual(ROOM_REQUEST_IP_LIMIT.windowMs / 1000);
        expect(refused.metadata).toEqual({ retryAfterSeconds: seconds });
      }
      // Someone else (another client address) opens the link as usual.
      const info = await json<RoomRequestInfo>(await from(other, '203.0.113.51', null, 'GET', ROOM_REQUEST_PATHS.info, token), 200);
      expect(info.email).toBe(email('sender'));
      await json<DeliveryDetail>(await from(server, '203.0.113.51', s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, { securityLevel: SECURITY_LEVELS.LEVEL_2 }), 201);
    } finally {
      await other.close({ keepData: true });
    }
  });
});

describe('the copy gives up', () => {
  it('the folder deleted before the copy: after the last attempt the requester gets one mail; the delivery itself reached them', async () => {
    const doomed = await json<RoomFolder>(await req(s.owner, 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Doomed' }), 201);
    const { created, token } = await request(s.owner, email('sender'), 'gone soon', doomed.uuid);
    const draft = await json<DeliveryDetail>(await tokenReq(s.sender, 'POST', ROOM_REQUEST_PATHS.delivery, token, { securityLevel: SECURITY_LEVELS.LEVEL_2 }), 201);
    await uploadFile(s.sender, draft.deliveryUuid, 'orphan.bin', new Uint8Array(testFileBytes(500)));
    await uploadFile(s.sender, draft.deliveryUuid, 'orphan-2.bin', new Uint8Array(testFileBytes(300)));
    expect((await req(s.owner, 'DELETE', ROOM_PATHS.folder(room.uuid, doomed.uuid))).status).toBe(204);
    const isNotice = (m: MailboxMail) => addressedTo(email('owner'))(m) && m.subject.includes('could not be placed');
    const notices = async () => (await readMailbox(server.mailboxDir)).filter(isNotice);
    const before = (await notices()).length;

    await json(await req(s.sender, 'POST', `/deliveries/${draft.deliveryUuid}/send`), 200);
    await server.app.jobs.whenIdle();
    // Each retry's delay passes at once; no mail while attempts are left.
    const pending = () => server.app.db.selectFrom('jobs').select(['id', 'attempts']).where('kind', '=', ROOM_REQUEST_COPY_JOB).where('state', '=', 'pending').executeTakeFirst();
    for (let job = await pending(); job; job = await pending()) {
      expect((await notices()).length).toBe(before);
      await server.app.db.updateTable('jobs').set({ run_at: Date.now() - 1 }).where('id', '=', job.id).execute();
      server.app.jobs.kick();
      await server.app.jobs.whenIdle();
    }
    const failed = await server.app.db.selectFrom('jobs').select(['attempts', 'last_error']).where('kind', '=', ROOM_REQUEST_COPY_JOB).where('state', '=', 'failed').executeTakeFirstOrThrow();
    expect(failed.attempts).toBe(5);
    expect(failed.last_error).toContain('not found');

    const mails = await notices();
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1)!;
    expect(mail.subject).toContain(email('sender'));
    expect(mail.text).toContain('Deals / Doomed');
    expect(mail.text).toContain('2 requested file(s)');
    expect(extractLink(mail, '/secumails/inbox/').pathname).toBe(DELIVERY_WEB_LINKS.inbox(draft.deliveryUuid));
    // The delivery reached the requester: it opens with its files.
    const delivered = await json<DeliveryDetail>(await req(s.owner, 'GET', `/deliveries/${draft.deliveryUuid}`), 200);
    expect(delivered.files.map((f) => f.name).sort()).toEqual(['orphan-2.bin', 'orphan.bin']);
    const list = await json<RoomRequestList>(await req(s.owner, 'GET', ROOM_REQUEST_PATHS.requests(room.uuid)), 200);
    expect(list.requests.find((r) => r.uuid === created.uuid)).toMatchObject({ state: 'used', filesCopied: 0 });
    expect(await server.app.db.selectFrom('room_files').select('id').where('name', 'like', 'orphan%').execute()).toEqual([]);
  });
});
