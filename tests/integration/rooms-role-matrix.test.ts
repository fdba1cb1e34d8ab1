import { RETENTION_CONFIRMATIONS } from '@shared/contract/room-retention';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { fillPath, type Endpoint } from '@shared/contract/endpoint';
import { ENDPOINT_AREAS } from '@shared/contract/endpoints';
import { BackendErrorSchema } from '@shared/contract/errors';
import type { RoomAccessSetResult } from '@shared/contract/room-invitations';
import type { RoomFileVersionList } from '@shared/contract/room-ops';
import type { RoomRequest } from '@shared/contract/room-requests';
import { ROOM_LINK_TOKEN_HEADER, ROOM_REQUEST_TOKEN_HEADER } from '@shared/contract/link-token';
import { ROOM_LINK_PATHS, type CreatedRoomLink } from '@shared/contract/room-links';
import { ROOM_FOLDER_LINK_PATHS, type CreatedRoomFolderLink, type RoomDropFile } from '@shared/contract/room-folder-links';
import { ROOM_COMMENT_PATHS } from '@shared/contract/room-comments';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomFolder } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS, type E2eFileKeysList, type E2eMemberList } from '@shared/contract/rooms-e2e';
import { ROOM_MEMBER_LIST_PATH, type RoomMemberListState } from '@shared/contract/rooms-e2e-member-list';
import { toBase64Url, utf8Encode } from '@shared/crypto/bytes';
import type { RoomFileMetadata } from '@shared/crypto/room';
import { addressedTo, extractLink, readMailbox, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, forgetFailures, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, giveSecuPass, type E2eActor } from './e2e-helpers';
import { createE2eFolder, createE2eRoom, E2E_RECORD_SIZE, json, openRoomKey, uploadE2eFile } from './rooms-e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * The SPEC §6 role table as one matrix (issue 15): every endpoint of the data-room areas of the
 * catalogue (shared/contract/endpoints) × OWNER, EDITOR, VIEWER, PREVIEWER, a signed-in non-member
 * and an anonymous caller. Each row says how to build a valid call for the fixture (a plain room and
 * an E2E room, each with a folder and a file, one user per role) and who is allowed; everyone else
 * gets the §8 error shape — anonymous 401, non-member 404 (the room does not exist for them),
 * member without the right 403 — and never the file bytes or the item names. The rows are keyed by
 * the catalogue: a new route without a row fails the first test. One server for the whole file.
 * Runs on SQLite, and on PostgreSQL with KUVERT_TEST_DATABASE_URL.
 */

const PART_SIZE = 1024;
const NAME_MARKER = 'Kestrel7q-matrix';
const BYTES_MARKER = 'BYTES-4e1d9c-matrix-file-content';
const ACTORS = ['owner', 'editor', 'viewer', 'previewer', 'outsider', 'anonymous'] as const;
type Actor = (typeof ACTORS)[number];
type User = Exclude<Actor, 'anonymous'>;
const USERS: readonly User[] = ['owner', 'editor', 'viewer', 'previewer', 'outsider'];
const MEMBERS: readonly Actor[] = ['owner', 'editor', 'viewer', 'previewer'];
const WRITERS: readonly Actor[] = ['owner', 'editor'];
const DOWNLOADERS: readonly Actor[] = ['owner', 'editor', 'viewer'];
const OWNER: readonly Actor[] = ['owner'];
const SIGNED_IN: readonly Actor[] = USERS;
const EVERYONE: readonly Actor[] = ACTORS;

/** The catalogue areas of data rooms (shared/contract/endpoints/index.ts). */
const ROOM_AREAS = ['rooms', 'roomOps', 'roomsE2e', 'roomInvitations', 'roomRequests', 'roomAdmin', 'roomComments', 'roomRetention', 'roomFolderLinks'] as const;

const email = (name: string) => `${name}@role-matrix.test`;
const PASSWORD = 'Good-Passw0rd';
const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const unique = () => randomBytes(4).toString('hex');

let server: TestServer;
const a = {} as Record<User, E2eActor>;
const sessionOf = (actor: Actor): Session | null => (actor === 'anonymous' ? null : a[actor].session);

/** One call of a row: path parameters, query, and a JSON body or raw bytes (upload parts). */
interface Call {
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  body?: unknown;
  bytes?: Uint8Array;
  /** Request headers (a public call's one-time token). */
  headers?: Record<string, string>;
}

interface Row {
  /** What the case shows (several rows of one endpoint: several targets). */
  what?: string;
  allowed: readonly Actor[];
  ok: number;
  /** A valid call for `actor`; state-changing rows build a fresh target for each actor. */
  call: (actor: Actor) => Promise<Call> | Call;
  /** A denial other than the default (anonymous 401, non-member 404, member 403). */
  denied?: Partial<Record<Actor, number>>;
  /** Public token calls: the token, not a room role, is the credential; the answer names the room. */
  token?: boolean;
}

// ---- fixture -------------------------------------------------------------------------------

interface PlainFixture {
  room: Room;
  folder: RoomFolder;
  file: RoomUploadFile;
  versioned: RoomUploadFile;
  versionUuid: string;
}
interface E2eFixture {
  room: Room;
  roomKey: string;
  folderUuid: string;
  fileUuid: string;
  sealed: { room: string; folder: string; file: string };
}
let P: PlainFixture;
let E: E2eFixture;

async function request(actor: Actor, method: string, path: string, c: Call = {}): Promise<Response> {
  const session = sessionOf(actor);
  const headers: Record<string, string> = { ...c.headers, ...(session ? { cookie: session.cookie, [ANTI_CSRF_HEADER]: session.csrf } : {}) };
  let body: BodyInit | undefined;
  if (c.bytes) {
    Object.assign(headers, { 'content-type': 'application/octet-stream', 'x-content-sha256': sha256Hex(c.bytes) });
    body = new Blob([Uint8Array.from(c.bytes)]);
  } else if (c.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(c.body);
  }
  const qs = c.query ? `?${new URLSearchParams(c.query).toString()}` : '';
  return fetch(`${server.url}/api/2${path}${qs}`, { method, headers, body });
}

const owner = (method: string, path: string, body?: unknown) => call(server, a.owner.session, method, `/api/2${path}`, body);

function markedBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(testFileBytes(size));
  bytes.set(utf8Encode(BYTES_MARKER), 10);
  return bytes;
}

/** A plain room of the owner, shared with EDITOR, VIEWER and PREVIEWER. */
async function plainRoom(title: string): Promise<Room> {
  const room = await json<Room>(await owner('POST', ROOM_PATHS.rooms, { name: `${title} ${NAME_MARKER} ${unique()}` }), 201);
  for (const [who, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await owner('PUT', ROOM_PATHS.access(room.uuid), { user: email(who), role }), 200);
  }
  return room;
}

const plainFolder = async (roomUuid: string) => json<RoomFolder>(await owner('POST', ROOM_PATHS.folders(roomUuid), { name: `Folder ${NAME_MARKER} ${unique()}` }), 201);

/** Announces a plain file as `actor` and sends every part; commits unless told not to. */
async function plainUpload(actor: User, roomUuid: string, options: { name?: string; commit?: boolean; replace?: boolean; parts?: boolean; folderUuid?: string } = {}): Promise<RoomUploadFile> {
  const bytes = markedBytes(PART_SIZE + 50);
  const name = options.name ?? `file ${NAME_MARKER} ${unique()}.txt`;
  const announced = await json<RoomUploadFile>(
    await request(actor, 'POST', ROOM_PATHS.files(roomUuid), { body: { name, size: bytes.length, mimeType: 'text/plain', ...(options.replace ? { replace: true } : {}), ...(options.folderUuid ? { folderUuid: options.folderUuid } : {}) } }),
    201,
  );
  if (options.parts === false) return announced;
  for (let i = 0; i < announced.partCount; i++) {
    await json(await request(actor, 'PUT', ROOM_PATHS.filePart(roomUuid, announced.uuid, i), { bytes: bytes.subarray(i * PART_SIZE, (i + 1) * PART_SIZE) }), 200);
  }
  if (options.commit === false) return announced;
  return json<RoomUploadFile>(await request(actor, 'POST', ROOM_PATHS.fileCommit(roomUuid, announced.uuid)), 200);
}

/** A file of the plain fixture room moved to its trash (a restore or purge target). */
async function trashedFile(): Promise<string> {
  const file = await plainUpload('owner', P.room.uuid);
  await json(await owner('DELETE', ROOM_PATHS.file(P.room.uuid, file.uuid)), 204);
  return file.uuid;
}

/** The mailed token of the first new mail to `to` whose text links `path` (param `dar` or `token`). */
async function mailedToken(seen: Set<string>, to: string, path: string): Promise<string> {
  const mail = await waitForMailboxMail(server.mailboxDir, (m) => !seen.has(m.id) && addressedTo(to)(m) && m.text.includes(path));
  const link = extractLink(mail, path);
  // Invitations and room requests carry it in the fragment (issue 28).
  const fragment = new URLSearchParams(link.hash.slice(1));
  return fragment.get('dar') ?? fragment.get('token')!;
}
const mailIds = async () => new Set((await readMailbox(server.mailboxDir)).map((m) => m.id));

/** Shares the plain room with an address without an account: the invitation and its token. */
async function invitation(): Promise<{ uuid: string; token: string }> {
  const address = `invitee-${unique()}@outside.test`;
  const seen = await mailIds();
  const result = await json<RoomAccessSetResult>(await owner('PUT', ROOM_PATHS.access(P.room.uuid), { user: address, role: 'VIEWER' }), 200);
  return { uuid: result.invitation!.uuid, token: await mailedToken(seen, address, '/auth/dataroom-signup') };
}

/** A request of the owner for files into the plain fixture folder, addressed to `to`. */
async function roomRequest(to: string): Promise<{ uuid: string; token: string }> {
  const seen = await mailIds();
  const created = await json<RoomRequest>(await owner('POST', `/rooms/${P.room.uuid}/requests`, { folderUuid: P.folder.uuid, email: to, message: '' }), 201);
  const path = to === email('outsider') ? '/secumails/send' : '/auth/delivery-signup-dar';
  return { uuid: created.uuid, token: await mailedToken(seen, to, path) };
}

/** A fresh public link to the plain fixture file, made by the owner: its uuid and the token of its URL. */
async function fileLink(): Promise<{ uuid: string; token: string }> {
  const link = await json<CreatedRoomLink>(await owner('POST', ROOM_LINK_PATHS.links(P.room.uuid, P.file.uuid), {}), 201);
  return { uuid: link.uuid, token: new URLSearchParams(new URL(link.url).hash.slice(1)).get('token')! };
}

/** A fresh folder (`folder`) or upload-only (`drop`) link to the plain fixture folder, made by the owner. */
async function folderLink(kind: 'folder' | 'drop'): Promise<{ uuid: string; token: string }> {
  const link = await json<CreatedRoomFolderLink>(await owner('POST', ROOM_FOLDER_LINK_PATHS.links(P.room.uuid, P.folder.uuid), { kind }), 201);
  return { uuid: link.uuid, token: new URLSearchParams(new URL(link.url).hash.slice(1)).get('token')! };
}
/** A drop upload announced through a fresh drop link (its parts sent when asked): the token, the upload and its bytes. */
async function dropUpload(sendParts: boolean): Promise<{ token: string; file: RoomDropFile; bytes: Uint8Array }> {
  const { token } = await folderLink('drop');
  const bytes = markedBytes(PART_SIZE + 10);
  const file = await json<RoomDropFile>(await request('anonymous', 'POST', ROOM_FOLDER_LINK_PATHS.dropFiles, { headers: { [ROOM_LINK_TOKEN_HEADER]: token }, body: { name: `dropped ${unique()}.bin`, size: bytes.length } }), 201);
  for (let i = 0; sendParts && i < file.partCount; i++) {
    await json(await request('anonymous', 'PUT', ROOM_FOLDER_LINK_PATHS.dropPart(file.uuid, i), { headers: { [ROOM_LINK_TOKEN_HEADER]: token }, bytes: bytes.subarray(i * PART_SIZE, (i + 1) * PART_SIZE) }), 200);
  }
  return { token, file, bytes };
}
let inFolder: Promise<RoomUploadFile> | undefined;
/** A file in the plain fixture folder (made once): what a folder link downloads. */
const fileInFolder = () => (inFolder ??= plainUpload('owner', P.room.uuid, { folderUuid: P.folder.uuid }));

const sealName = async (kind: 'room' | 'folder' | 'file', itemId: string, name: string) =>
  (await a.owner.crypto.encryptRoomNames({ roomKey: E.roomKey, roomId: E.room.uuid, items: [{ kind, itemId, name }] })).sealed[0]!;

/**
 * The body of an E2E announce, sealed with the owner's room key: the server cannot open sealed
 * values, so who sealed them does not matter to the role check. Answers the sealed metadata too.
 */
async function e2eAnnounceBody(bytes: Uint8Array): Promise<{ body: Record<string, unknown>; ciphertext: Uint8Array; metadata: string }> {
  const uuid = randomUUID();
  const crypto = a.owner.crypto;
  const file = { roomId: E.room.uuid, fileId: uuid, version: 1 };
  const fileKey = await crypto.generateFileKey();
  const { headerSha256 } = await crypto.uploadStreamHeader({ fileKey: fileKey.handle, recordSize: E2E_RECORD_SIZE });
  const { ciphertext } = await crypto.encryptRecordRun({ fileKey: fileKey.handle, recordSize: E2E_RECORD_SIZE, firstRecord: 0, plaintext: bytes, final: true });
  const { wrapped } = await crypto.wrapRoomFileKey({ roomKey: E.roomKey, fileKey: fileKey.handle, file });
  const metadata: Omit<RoomFileMetadata, 'signerKeyId' | 'format'> = {
    ...file, name: `e2e ${NAME_MARKER}.bin`, size: bytes.length, mimeType: 'application/octet-stream', headerSha256,
    contentSha256: toBase64Url(createHash('sha256').update(bytes).digest()), uploaderUserId: a.owner.userUuid, uploaderEmail: email('owner'), createdAt: new Date().toISOString(),
  };
  const { sealed } = await crypto.sealRoomFileMetadata({ roomKey: E.roomKey, signingKey: a.owner.keys!.signing.handle, metadata });
  const body = { uuid, name: await sealName('file', uuid, `e2e ${NAME_MARKER}.bin`), size: ciphertext.length, plaintextSize: bytes.length, wrappedFileKey: wrapped };
  return { body, ciphertext, metadata: sealed };
}

/** An E2E upload of `actor` with every part sent, waiting for the E2E commit (the metadata comes with it). */
async function pendingE2eUpload(actor: User): Promise<{ uuid: string; metadata: string }> {
  const { body, ciphertext, metadata } = await e2eAnnounceBody(markedBytes(300));
  const announced = await json<RoomUploadFile>(await request(actor, 'POST', ROOM_E2E_PATHS.files(E.room.uuid), { body }), 201);
  for (let i = 0; i < announced.partCount; i++) {
    await json(await request(actor, 'PUT', ROOM_PATHS.filePart(E.room.uuid, announced.uuid, i), { bytes: ciphertext.subarray(i * PART_SIZE, (i + 1) * PART_SIZE) }), 200);
  }
  return { uuid: announced.uuid, metadata };
}

/** An E2E room body for `creator`: the room key wrapped to the creator's own live key. */
async function e2eRoomBody(creator: User): Promise<Record<string, unknown>> {
  const actor = a[creator];
  const uuid = randomUUID();
  const { handle } = await actor.crypto.generateRoomKey();
  const [name] = (await actor.crypto.encryptRoomNames({ roomKey: handle, roomId: uuid, items: [{ kind: 'room', itemId: uuid, name: 'Own E2E room' }] })).sealed;
  const wrappedKey = await actor.crypto.wrapRoomKey({ roomKey: handle, roomId: uuid, recipientPublicKey: actor.keys!.encryption.publicKey });
  return { uuid, name, recipientKeyId: wrappedKey.recipientKeyId, wrappedKey };
}

/** A comment of `author` on the plain fixture file: its uuid. */
const plainComment = async (author: User) =>
  (await json<{ uuid: string }>(await request(author, 'POST', ROOM_COMMENT_PATHS.list(P.room.uuid), { body: { fileUuid: P.file.uuid, text: `Remark ${unique()}` } }), 201)).uuid;

/** A caller who may upload works on her own upload; anyone else tries the owner's (an upload in progress is its uploader's only). */
const uploader = (actor: Actor): User => (actor === 'owner' || actor === 'editor' ? actor : 'owner');
const NOT_THE_UPLOADER = { viewer: 404, previewer: 404 } as const;
const ADMIN_ONLY = { owner: 403, editor: 403, viewer: 403, previewer: 403, outsider: 403 } as const;

// ---- the matrix: one row (or several) per catalogue endpoint ----------------------------------

const MATRIX: Record<string, Row | Row[]> = {
  // Plain rooms, folders, files (shared/contract/endpoints/rooms.ts)
  'rooms.list': { allowed: SIGNED_IN, ok: 200, call: () => ({}) },
  'rooms.create': { allowed: SIGNED_IN, ok: 201, call: () => ({ body: { name: `Own room ${unique()}` } }) },
  'rooms.contents': [
    { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid } }) },
    { what: 'the E2E room', allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: E.room.uuid } }) },
  ],
  'rooms.rename': { allowed: OWNER, ok: 200, call: async () => ({ params: { roomUuid: (await plainRoom('Rename')).uuid }, body: { name: `Renamed ${unique()}` } }) },
  'rooms.remove': { allowed: OWNER, ok: 204, call: async () => ({ params: { roomUuid: (await plainRoom('Remove')).uuid } }) },
  'rooms.createFolder': { allowed: WRITERS, ok: 201, call: () => ({ params: { roomUuid: P.room.uuid }, body: { name: `New folder ${unique()}` } }) },
  'rooms.folder': [
    { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid, folderUuid: P.folder.uuid } }) },
    { what: 'the E2E folder', allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: E.room.uuid, folderUuid: E.folderUuid } }) },
  ],
  'rooms.updateFolder': [
    {
      allowed: WRITERS, ok: 200,
      call: async () => ({ params: { roomUuid: P.room.uuid, folderUuid: (await plainFolder(P.room.uuid)).uuid }, body: { name: `Renamed folder ${unique()}` } }),
    },
    { what: 'classification and status', allowed: WRITERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid, folderUuid: P.folder.uuid }, body: { classification: 'confidential', status: 'done' } }) },
  ],
  'rooms.removeFolder': { allowed: WRITERS, ok: 204, call: async () => ({ params: { roomUuid: P.room.uuid, folderUuid: (await plainFolder(P.room.uuid)).uuid } }) },
  'rooms.access': { allowed: OWNER, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid } }) },
  'rooms.setAccess': { allowed: OWNER, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid }, body: { user: `shared-${unique()}@outside.test`, role: 'VIEWER' } }) },
  'rooms.createFile': { allowed: WRITERS, ok: 201, call: () => ({ params: { roomUuid: P.room.uuid }, body: { name: `announced ${unique()}.bin`, size: 4 } }) },
  'rooms.putFilePart': {
    allowed: WRITERS, ok: 200, denied: NOT_THE_UPLOADER,
    call: async (actor) => ({ params: { roomUuid: P.room.uuid, fileUuid: (await plainUpload(uploader(actor), P.room.uuid, { parts: false })).uuid, index: 0 }, bytes: new Uint8Array(PART_SIZE) }),
  },
  'rooms.fileParts': {
    allowed: WRITERS, ok: 200, denied: NOT_THE_UPLOADER,
    call: async (actor) => ({ params: { roomUuid: P.room.uuid, fileUuid: (await plainUpload(uploader(actor), P.room.uuid, { parts: false })).uuid } }),
  },
  'rooms.commitFile': {
    allowed: WRITERS, ok: 200, denied: NOT_THE_UPLOADER,
    call: async (actor) => ({ params: { roomUuid: P.room.uuid, fileUuid: (await plainUpload(uploader(actor), P.room.uuid, { commit: false })).uuid } }),
  },
  'rooms.file': { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid, fileUuid: P.file.uuid } }) },
  'rooms.fileContent': [
    { allowed: DOWNLOADERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid, fileUuid: P.file.uuid } }) },
    // The ciphertext of an E2E file: no bytes to a PREVIEWER either (the browser would decrypt them).
    { what: 'the E2E file', allowed: DOWNLOADERS, ok: 200, call: () => ({ params: { roomUuid: E.room.uuid, fileUuid: E.fileUuid } }) },
  ],
  'rooms.updateFile': [
    {
      allowed: WRITERS, ok: 200,
      call: async () => ({ params: { roomUuid: P.room.uuid, fileUuid: (await plainUpload('owner', P.room.uuid)).uuid }, body: { name: `renamed ${unique()}.txt` } }),
    },
    // Classification and status (issue 31 §1): the edit right.
    { what: 'classification and status', allowed: WRITERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid, fileUuid: P.file.uuid }, body: { classification: 'internal', status: 'toDo' } }) },
  ],
  'rooms.removeFile': { allowed: WRITERS, ok: 204, call: async () => ({ params: { roomUuid: P.room.uuid, fileUuid: (await plainUpload('owner', P.room.uuid)).uuid } }) },
  'rooms.search': { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid }, query: { q: NAME_MARKER } }) },
  'rooms.activity': { allowed: OWNER, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid } }) },
  'rooms.trash': { allowed: WRITERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid } }) },
  'rooms.restoreItem': { allowed: WRITERS, ok: 204, call: async () => ({ params: { roomUuid: P.room.uuid, itemUuid: await trashedFile() } }) },
  'rooms.purgeItem': { allowed: WRITERS, ok: 204, call: async () => ({ params: { roomUuid: P.room.uuid, itemUuid: await trashedFile() } }) },
  'rooms.searchAll': { allowed: SIGNED_IN, ok: 200, call: () => ({ query: { q: NAME_MARKER } }) },
  'rooms.recent': { allowed: SIGNED_IN, ok: 200, call: () => ({ query: { pageSize: '5' } }) },

  // File operations (room-ops.ts)
  'roomOps.versions': { allowed: WRITERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid, fileUuid: P.versioned.uuid } }) },
  'roomOps.versionContent': { allowed: WRITERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid, fileUuid: P.versioned.uuid, versionUuid: P.versionUuid } }) },
  'roomOps.preview': { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid, fileUuid: P.file.uuid } }) },
  'roomOps.roomZip': [
    { allowed: DOWNLOADERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid } }) },
    { what: 'a selection (issue 32 §2)', allowed: DOWNLOADERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid }, query: { items: `${P.file.uuid},${P.folder.uuid}` } }) },
  ],
  'roomOps.folderZip': { allowed: DOWNLOADERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid, folderUuid: P.folder.uuid } }) },
  'roomOps.quota': { allowed: SIGNED_IN, ok: 200, call: () => ({}) },

  // End-to-end encrypted rooms (rooms-e2e.ts); the parts, contents and content calls are the plain ones above
  'roomsE2e.list': { allowed: SIGNED_IN, ok: 200, call: () => ({}) },
  'roomsE2e.create': { allowed: SIGNED_IN, ok: 201, call: async (actor) => ({ body: await e2eRoomBody(actor === 'anonymous' ? 'owner' : actor) }) },
  'roomsE2e.state': { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: E.room.uuid } }) },
  'roomsE2e.members': { allowed: OWNER, ok: 200, call: () => ({ params: { roomUuid: E.room.uuid } }) },
  'roomsE2e.memberList': { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: E.room.uuid } }) },
  'roomsE2e.putMemberList': {
    allowed: OWNER, ok: 200,
    call: async () => {
      // The next list (stored version + 1) the OWNER signs: her alone, as OWNER (a denied caller is refused before any check of it).
      const current = await json<RoomMemberListState>(await owner('GET', ROOM_MEMBER_LIST_PATH(E.room.uuid)), 200);
      const keys = a.owner.keys!;
      const signedList = await a.owner.crypto.signRoomMemberList({
        signingKey: keys.signing.handle, roomId: E.room.uuid, version: (current.signedList?.list.version ?? 0) + 1,
        members: [{ userId: a.owner.userUuid, email: email('owner'), role: 'OWNER', signingKeyId: keys.signing.keyId, encryptionKeyId: keys.encryption.keyId }],
        signerUserId: a.owner.userUuid, createdAt: new Date().toISOString(),
      });
      return { params: { roomUuid: E.room.uuid }, body: { signedList } };
    },
  },
  'roomsE2e.grant': {
    allowed: OWNER, ok: 200,
    call: async () => {
      // The owner's copy re-wrapped to the VIEWER's live key (the grant of rooms-e2e-helpers without the pin check).
      const members = await json<E2eMemberList>(await owner('GET', ROOM_E2E_PATHS.members(E.room.uuid)), 200);
      const live = members.members.find((m) => m.user.uuid === a.viewer.userUuid)!.keys.find((k) => k.usage === 'encryption')!;
      const wrappedKey = await a.owner.crypto.wrapRoomKey({ roomKey: E.roomKey, roomId: E.room.uuid, recipientPublicKey: live.publicKey });
      return { params: { roomUuid: E.room.uuid, userUuid: a.viewer.userUuid }, body: { approve: true, recipientKeyId: live.keyId, wrappedKey } };
    },
  },
  'roomsE2e.createFolder': {
    allowed: WRITERS, ok: 201,
    call: async () => {
      const uuid = randomUUID();
      return { params: { roomUuid: E.room.uuid }, body: { uuid, name: await sealName('folder', uuid, `E2E folder ${NAME_MARKER}`) } };
    },
  },
  'roomsE2e.createFile': {
    allowed: WRITERS, ok: 201,
    call: async () => {
      const { body, metadata } = await e2eAnnounceBody(markedBytes(100));
      return { params: { roomUuid: E.room.uuid }, body: { ...body, metadata } };
    },
  },
  'roomsE2e.files': { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: E.room.uuid }, query: { folderUuid: E.folderUuid } }) },
  'roomsE2e.rename': [
    { what: 'a folder', allowed: WRITERS, ok: 204, call: () => ({ params: { roomUuid: E.room.uuid, itemUuid: E.folderUuid }, body: { name: E.sealed.folder } }) },
    { what: 'the room', allowed: OWNER, ok: 204, call: () => ({ params: { roomUuid: E.room.uuid, itemUuid: E.room.uuid }, body: { name: E.sealed.room } }) },
    {
      what: 'a file (metadata re-signed)', allowed: WRITERS, ok: 204,
      // Re-signed with the owner's key whoever calls: the server only checks the role and that the caller holds a signing key.
      call: async () => {
        const keys = await json<E2eFileKeysList>(await owner('GET', `${ROOM_E2E_PATHS.files(E.room.uuid)}?folderUuid=${E.folderUuid}`), 200);
        const extra = keys.files.find((k) => k.uuid === E.fileUuid)!;
        const file = { roomId: E.room.uuid, fileId: E.fileUuid, version: extra.version };
        const { metadata: current } = await a.owner.crypto.openRoomFileMetadata({ roomKey: E.roomKey, file, sealed: extra.metadata });
        const { signerKeyId: _signer, format: _format, ...rest } = current;
        const { sealed } = await a.owner.crypto.sealRoomFileMetadata({ roomKey: E.roomKey, signingKey: a.owner.keys!.signing.handle, metadata: rest });
        return { params: { roomUuid: E.room.uuid, itemUuid: E.fileUuid }, body: { name: E.sealed.file, metadata: sealed } };
      },
    },
  ],
  // A Secure folder's sealed, signed classification and status (issue 31 §1, README section 7 "Folder labels"): every role reads, the edit right writes.
  'roomsE2e.folderLabels': { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: E.room.uuid } }) },
  'roomsE2e.putFolderLabels': {
    allowed: WRITERS, ok: 204,
    // Sealed and signed by the owner whoever calls: the server checks the role and that the caller holds a signing key.
    call: async () => {
      const ref = { roomId: E.room.uuid, folderId: E.folderUuid, signerUserId: a.owner.userUuid };
      const wire = await a.owner.crypto.sealRoomFolderLabels({ roomKey: E.roomKey, signingKey: a.owner.keys!.signing.handle, ref, labels: { classification: 'confidential', counter: 1, signedAt: new Date().toISOString() } });
      return { params: { roomUuid: E.room.uuid, folderUuid: E.folderUuid }, body: { ...wire, labelChanges: ['classification_set'] } };
    },
  },
  'roomsE2e.commitFile': [
    {
      allowed: WRITERS, ok: 200, denied: NOT_THE_UPLOADER,
      call: async (actor) => {
        const pending = await pendingE2eUpload(uploader(actor));
        return { params: { roomUuid: E.room.uuid, fileUuid: pending.uuid }, body: { metadata: pending.metadata } };
      },
    },
    // A plain room's upload: its members learn it is no E2E room (409 notEncrypted), a non-member not even that it exists.
    {
      what: 'a plain room', allowed: [], ok: 200, denied: { owner: 409, editor: 409, viewer: 409, previewer: 409 },
      call: async (actor) => ({ params: { roomUuid: P.room.uuid, fileUuid: (await plainUpload(uploader(actor), P.room.uuid, { commit: false })).uuid }, body: { metadata: E.sealed.file } }),
    },
  ],

  // Invitations of addresses without an account (room-invitations.ts)
  'roomInvitations.list': { allowed: OWNER, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid } }) },
  'roomInvitations.revoke': { allowed: OWNER, ok: 204, call: async () => ({ params: { roomUuid: P.room.uuid, invitationUuid: (await invitation()).uuid } }) },
  'roomInvitations.check': { allowed: EVERYONE, ok: 200, token: true, call: async () => ({ body: { token: (await invitation()).token } }) },
  'roomInvitations.signup': {
    allowed: EVERYONE, ok: 201, token: true,
    call: async () => ({ body: { token: (await invitation()).token, password: 'Invitee-Passw0rd-Matrix', firstName: 'In', lastName: 'Vitee', language: 'en' } }),
  },

  // Data-room requests (room-requests.ts)
  'roomRequests.create': { allowed: WRITERS, ok: 201, call: () => ({ params: { roomUuid: P.room.uuid }, body: { folderUuid: P.folder.uuid, email: `asked-${unique()}@outside.test`, message: '' } }) },
  'roomRequests.list': { allowed: OWNER, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid } }) },
  'roomRequests.revoke': { allowed: OWNER, ok: 204, call: async () => ({ params: { roomUuid: P.room.uuid, requestUuid: (await roomRequest(`revoked-${unique()}@outside.test`)).uuid } }) },
  'roomRequests.info': { allowed: EVERYONE, ok: 200, token: true, call: async () => ({ headers: { [ROOM_REQUEST_TOKEN_HEADER]: (await roomRequest(`asked-${unique()}@outside.test`)).token } }) },
  'roomRequests.signup': {
    allowed: EVERYONE, ok: 201, token: true,
    call: async () => ({ headers: { [ROOM_REQUEST_TOKEN_HEADER]: (await roomRequest(`asked-${unique()}@outside.test`)).token }, body: { password: 'Asked-Passw0rd-Matrix', language: 'en' } }),
  },
  // The answering draft: only the requested address's account (here the non-member) — the token does not make anyone else the sender.
  'roomRequests.delivery': {
    allowed: ['outsider'], ok: 201, token: true, denied: { owner: 403, editor: 403, viewer: 403, previewer: 403 },
    call: async () => ({ headers: { [ROOM_REQUEST_TOKEN_HEADER]: (await roomRequest(email('outsider'))).token }, body: { securityLevel: SECURITY_LEVELS.LEVEL_2 } }),
  },

  // Earlier versions of an E2E file (rooms-e2e.ts `versions`): the plain versions route's roles
  'roomsE2e.versions': { allowed: WRITERS, ok: 200, call: () => ({ params: { roomUuid: E.room.uuid, fileUuid: E.fileUuid } }) },
  // The ciphertext for the browser's preview (issue 31 §3): every role, PREVIEWER too (unlike the download).
  'roomsE2e.preview': { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: E.room.uuid, fileUuid: E.fileUuid } }) },

  // Public links to a plain room's file (room-links.ts): the edit right makes, lists and revokes; the token alone downloads
  'roomLinks.create': { allowed: WRITERS, ok: 201, call: () => ({ params: { roomUuid: P.room.uuid, fileUuid: P.file.uuid }, body: { expiresInDays: 3 } }) },
  'roomLinks.list': { allowed: WRITERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid, fileUuid: P.file.uuid } }) },
  // The room-wide overview (issue 32): the room's OWNER only — an EDITOR manages one item's links in its dialog, not the room's sharing (SPEC §6 "manage access")
  'roomLinks.overview': { allowed: OWNER, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid } }) },
  'roomLinks.revoke': { allowed: WRITERS, ok: 204, call: async () => ({ params: { roomUuid: P.room.uuid, fileUuid: P.file.uuid, linkUuid: (await fileLink()).uuid } }) },
  'roomLinks.info': { allowed: EVERYONE, ok: 200, token: true, call: async () => ({ headers: { [ROOM_LINK_TOKEN_HEADER]: (await fileLink()).token } }) },
  'roomLinks.content': { allowed: EVERYONE, ok: 200, token: true, call: async () => ({ headers: { [ROOM_LINK_TOKEN_HEADER]: (await fileLink()).token } }) },

  // Folder and upload-only links (room-folder-links.ts, issue 32 §2): the edit right on the folder makes, lists and revokes; the token alone lists, downloads or uploads
  'roomFolderLinks.create': [
    { allowed: WRITERS, ok: 201, call: () => ({ params: { roomUuid: P.room.uuid, folderUuid: P.folder.uuid }, body: { kind: 'folder', expiresInDays: 3 } }) },
    { what: 'a drop link', allowed: WRITERS, ok: 201, call: () => ({ params: { roomUuid: P.room.uuid, folderUuid: P.folder.uuid }, body: { kind: 'drop' } }) },
  ],
  'roomFolderLinks.list': { allowed: WRITERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid, folderUuid: P.folder.uuid } }) },
  'roomFolderLinks.revoke': { allowed: WRITERS, ok: 204, call: async () => ({ params: { roomUuid: P.room.uuid, folderUuid: P.folder.uuid, linkUuid: (await folderLink('drop')).uuid } }) },
  'roomFolderLinks.info': { allowed: EVERYONE, ok: 200, token: true, call: async () => ({ headers: { [ROOM_LINK_TOKEN_HEADER]: (await folderLink('folder')).token } }) },
  'roomFolderLinks.fileContent': {
    allowed: EVERYONE, ok: 200, token: true,
    call: async () => ({ params: { fileUuid: (await fileInFolder()).uuid }, headers: { [ROOM_LINK_TOKEN_HEADER]: (await folderLink('folder')).token } }),
  },
  'roomFolderLinks.zip': { allowed: EVERYONE, ok: 200, token: true, call: async () => ({ headers: { [ROOM_LINK_TOKEN_HEADER]: (await folderLink('folder')).token } }) },
  'roomFolderLinks.dropFile': {
    allowed: EVERYONE, ok: 201, token: true,
    call: async () => ({ headers: { [ROOM_LINK_TOKEN_HEADER]: (await folderLink('drop')).token }, body: { name: `dropped ${unique()}.txt`, size: 20 } }),
  },
  'roomFolderLinks.dropPart': {
    allowed: EVERYONE, ok: 200, token: true,
    call: async () => {
      const { token, file, bytes } = await dropUpload(false);
      return { params: { fileUuid: file.uuid, index: 0 }, headers: { [ROOM_LINK_TOKEN_HEADER]: token }, bytes: bytes.subarray(0, PART_SIZE) };
    },
  },
  'roomFolderLinks.dropCommit': {
    allowed: EVERYONE, ok: 200, token: true,
    call: async () => {
      const { token, file } = await dropUpload(true);
      return { params: { fileUuid: file.uuid }, headers: { [ROOM_LINK_TOKEN_HEADER]: token } };
    },
  },

  // Comments on files and folders (room-comments.ts, issue 31 §1): every role reads, the edit right writes;
  // the author edits and deletes her own (a VIEWER or PREVIEWER tries the owner's), an OWNER deletes any.
  'roomComments.list': [
    { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid }, query: { fileUuid: P.file.uuid } }) },
    { what: 'a folder', allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid }, query: { folderUuid: P.folder.uuid } }) },
  ],
  'roomComments.create': [
    { allowed: WRITERS, ok: 201, call: () => ({ params: { roomUuid: P.room.uuid }, body: { fileUuid: P.file.uuid, text: `Comment ${unique()}` } }) },
    { what: 'a folder', allowed: WRITERS, ok: 201, call: () => ({ params: { roomUuid: P.room.uuid }, body: { folderUuid: P.folder.uuid, text: `Comment ${unique()}` } }) },
  ],
  'roomComments.update': {
    allowed: WRITERS, ok: 200,
    call: async (actor) => ({ params: { roomUuid: P.room.uuid, commentUuid: await plainComment(uploader(actor)) }, body: { text: `Edited ${unique()}` } }),
  },
  'roomComments.remove': { allowed: WRITERS, ok: 204, call: async (actor) => ({ params: { roomUuid: P.room.uuid, commentUuid: await plainComment(uploader(actor)) } }) },

  // A room's retention policy (room-retention.ts, issue 31 §2): every member reads it, the OWNER sets and previews it
  'roomRetention.policy': [
    { allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid } }) },
    { what: 'the E2E room', allowed: MEMBERS, ok: 200, call: () => ({ params: { roomUuid: E.room.uuid } }) },
  ],
  'roomRetention.setPolicy': { allowed: OWNER, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid }, body: { periodDays: 30, confirmations: [...RETENTION_CONFIRMATIONS] } }) },
  'roomRetention.preview': { allowed: OWNER, ok: 200, call: () => ({ params: { roomUuid: P.room.uuid }, query: { periodDays: '30' } }) },

  // Administration of rooms (room-admin.ts): no room role reaches it
  'roomAdmin.trashBin': { allowed: [], ok: 200, denied: ADMIN_ONLY, call: () => ({ query: { q: NAME_MARKER } }) },
  'roomAdmin.restoreTrashBinItem': { allowed: [], ok: 204, denied: ADMIN_ONLY, call: async () => ({ params: { itemUuid: await trashedFile() } }) },
};

/**
 * The wrong kind of room: E2E calls on the plain room, name-carrying plain calls on the E2E room.
 * The role comes first (a non-member 404, a member without the right 403), then the kind: a member
 * with the right learns the room is of the other kind (409, rooms/kind/room-kind.ts), nobody else does.
 */
function wrongKind(holders: readonly Actor[]): Partial<Record<Actor, number>> {
  return Object.fromEntries(MEMBERS.map((m) => [m, holders.includes(m) ? 409 : 403]));
}
const KIND_ROWS: Record<string, Row[]> = {
  'roomsE2e.versions': [{ what: 'a plain room’s file', allowed: [], ok: 200, denied: wrongKind(WRITERS), call: () => ({ params: { roomUuid: P.room.uuid, fileUuid: P.versioned.uuid } }) }],
  'roomsE2e.preview': [{ what: 'a plain room’s file', allowed: [], ok: 200, denied: wrongKind(MEMBERS), call: () => ({ params: { roomUuid: P.room.uuid, fileUuid: P.file.uuid } }) }],
  // An E2E room's file gets no public link: the server cannot decrypt it (409 encryptedRoom for those with the edit right).
  'roomLinks.create': [{ what: 'an E2E room’s file', allowed: [], ok: 201, denied: { owner: 409, editor: 409, viewer: 403, previewer: 403 }, call: () => ({ params: { roomUuid: E.room.uuid, fileUuid: E.fileUuid }, body: {} }) }],
  // A Secure room has no public links: its overview says so to its OWNER (409), a member without the right learns nothing (403).
  'roomLinks.overview': [{ what: 'the E2E room', allowed: [], ok: 200, denied: wrongKind(OWNER), call: () => ({ params: { roomUuid: E.room.uuid } }) }],
  // A Secure room's folder gets neither kind of folder link: the server holds no key to read or seal its files.
  'roomFolderLinks.create': [
    { what: 'an E2E room’s folder', allowed: [], ok: 201, denied: { owner: 409, editor: 409, viewer: 403, previewer: 403 }, call: () => ({ params: { roomUuid: E.room.uuid, folderUuid: E.folderUuid }, body: { kind: 'drop' } }) },
  ],
  // A Secure file's classification and status live in its signed metadata: the PATCH refuses them.
  'rooms.updateFile': [{ what: 'classification of an E2E file', allowed: [], ok: 200, denied: wrongKind(WRITERS), call: () => ({ params: { roomUuid: E.room.uuid, fileUuid: E.fileUuid }, body: { classification: 'internal' } }) }],
  'rooms.updateFolder': [{ what: 'status of an E2E folder', allowed: [], ok: 200, denied: wrongKind(WRITERS), call: () => ({ params: { roomUuid: E.room.uuid, folderUuid: E.folderUuid }, body: { status: 'done' } }) }],
  'rooms.search': [{ what: 'the E2E room', allowed: [], ok: 200, denied: wrongKind(MEMBERS), call: () => ({ params: { roomUuid: E.room.uuid }, query: { q: 'x' } }) }],
  'rooms.createFolder': [{ what: 'the E2E room', allowed: [], ok: 201, denied: wrongKind(WRITERS), call: () => ({ params: { roomUuid: E.room.uuid }, body: { name: `Plain name ${unique()}` } }) }],
  'roomsE2e.state': [{ what: 'the plain room', allowed: [], ok: 200, denied: wrongKind(MEMBERS), call: () => ({ params: { roomUuid: P.room.uuid } }) }],
  'roomsE2e.members': [{ what: 'the plain room', allowed: [], ok: 200, denied: wrongKind(OWNER), call: () => ({ params: { roomUuid: P.room.uuid } }) }],
  'roomsE2e.grant': [{ what: 'the plain room', allowed: [], ok: 200, denied: wrongKind(OWNER), call: () => ({ params: { roomUuid: P.room.uuid, userUuid: a.viewer.userUuid }, body: { approve: false } }) }],
  'roomsE2e.createFolder': [{
    what: 'the plain room', allowed: [], ok: 201, denied: wrongKind(WRITERS),
    call: async () => {
      const uuid = randomUUID();
      return { params: { roomUuid: P.room.uuid }, body: { uuid, name: await sealName('folder', uuid, 'x') } };
    },
  }],
  'roomsE2e.createFile': [{ what: 'the plain room', allowed: [], ok: 201, denied: wrongKind(WRITERS), call: async () => ({ params: { roomUuid: P.room.uuid }, body: (await e2eAnnounceBody(markedBytes(100))).body }) }],
  'roomsE2e.files': [{ what: 'the plain room', allowed: [], ok: 200, denied: wrongKind(MEMBERS), call: () => ({ params: { roomUuid: P.room.uuid }, query: { folderUuid: P.folder.uuid } }) }],
  'roomsE2e.folderLabels': [{ what: 'the plain room', allowed: [], ok: 200, denied: wrongKind(MEMBERS), call: () => ({ params: { roomUuid: P.room.uuid } }) }],
  'roomsE2e.putFolderLabels': [{
    what: 'a plain folder', allowed: [], ok: 204, denied: wrongKind(WRITERS),
    call: async () => {
      const ref = { roomId: P.room.uuid, folderId: P.folder.uuid, signerUserId: a.owner.userUuid };
      const wire = await a.owner.crypto.sealRoomFolderLabels({ roomKey: E.roomKey, signingKey: a.owner.keys!.signing.handle, ref, labels: { status: 'done', counter: 1, signedAt: new Date().toISOString() } });
      return { params: { roomUuid: P.room.uuid, folderUuid: P.folder.uuid }, body: { ...wire, labelChanges: ['status_set'] } };
    },
  }],
  'roomsE2e.rename': [{ what: 'a plain folder', allowed: [], ok: 204, denied: wrongKind(WRITERS), call: () => ({ params: { roomUuid: P.room.uuid, itemUuid: P.folder.uuid }, body: { name: E.sealed.folder } }) }],
};

/**
 * The data-room endpoints of the whole catalogue: the areas above, and any other endpoint tagged
 * `rooms` or under /rooms or /room-… (a new area file of data rooms is caught too).
 */
const catalogue = Object.entries(ENDPOINT_AREAS).flatMap(([area, endpoints]) =>
  (Object.entries(endpoints) as Array<[string, Endpoint]>)
    .filter(([, endpoint]) => (ROOM_AREAS as readonly string[]).includes(area) || endpoint.tag === 'rooms' || /^\/(rooms|room-)/.test(endpoint.path))
    .map(([name, endpoint]) => ({ key: `${area}.${name}`, endpoint })),
);

function expectedStatus(row: Row, actor: Actor): number {
  if (row.allowed.includes(actor)) return row.ok;
  return row.denied?.[actor] ?? (actor === 'anonymous' ? 401 : actor === 'outsider' ? 404 : 403);
}

/** The body as JSON, or null (a wrongly answered download is no JSON: the matrix still reports it). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const ERROR_CLASS: Record<number, string> = { 401: 'AuthenticationRequiredException', 403: 'AccessDeniedException', 404: 'NotFoundException' };

// ---- setup ----------------------------------------------------------------------------------

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await signInAdmin(server);
  for (const name of USERS) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    a[name] = await e2eActor(server, await signIn(server, email(name), PASSWORD));
    // Everyone may create an E2E room of her own (a copy wrapped to her key) and sign metadata.
    await giveSecuPass(a[name], `${name}-SecuPass-role-matrix-Heron-4`);
  }

  // The plain room: a folder, a text file (previewable, marked bytes) and a file with an earlier version.
  const room = await plainRoom('Plain');
  const folder = await plainFolder(room.uuid);
  const file = await plainUpload('owner', room.uuid);
  const first = await plainUpload('owner', room.uuid, { name: `versioned ${NAME_MARKER}.txt` });
  const versioned = await plainUpload('owner', room.uuid, { name: `versioned ${NAME_MARKER}.txt`, replace: true });
  expect(versioned.uuid).toBe(first.uuid);
  const versions = await json<RoomFileVersionList>(await owner('GET', `/rooms/${room.uuid}/files/${first.uuid}/versions`), 200);
  P = { room, folder, file, versioned, versionUuid: versions.versions.find((v) => !v.current)!.uuid };

  // The E2E room: shared like the plain one, a folder and a file of the owner in it.
  const created = await createE2eRoom(server, a.owner, `E2E ${NAME_MARKER}`);
  expect(created.response.status).toBe(201);
  for (const [who, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await owner('PUT', ROOM_PATHS.access(created.room.uuid), { user: email(who), role }), 200);
  }
  const { handle } = await openRoomKey(server, a.owner, created.room.uuid);
  const e2eFolder = await json<RoomFolder>(await createE2eFolder(server, a.owner, created.room.uuid, handle, `E2E folder ${NAME_MARKER}`), 201);
  const e2eFile = await uploadE2eFile(server, a.owner, created.room.uuid, handle, { name: `e2e file ${NAME_MARKER}.bin`, bytes: markedBytes(2 * PART_SIZE), folderUuid: e2eFolder.uuid, partSize: PART_SIZE });
  E = { room: created.room, roomKey: handle, folderUuid: e2eFolder.uuid, fileUuid: e2eFile.uuid, sealed: { room: created.room.name, folder: e2eFolder.name, file: e2eFile.file!.name } };
}, 300_000);
afterAll(() => server?.close());

// ---- the tests ------------------------------------------------------------------------------

describe('the data-room role matrix (SPEC §6) over the catalogue', () => {
  it('every endpoint of the data-room areas has a row, and every row an endpoint', () => {
    expect(catalogue.length).toBeGreaterThan(40);
    expect(catalogue.map((c) => c.key).filter((key) => !(key in MATRIX))).toEqual([]);
    expect([...Object.keys(MATRIX), ...Object.keys(KIND_ROWS)].filter((key) => !catalogue.some((c) => c.key === key))).toEqual([]);
  });

  const cases = catalogue.flatMap(({ key, endpoint }) => {
    const rows = MATRIX[key];
    return [...(Array.isArray(rows) ? rows : rows ? [rows] : []), ...(KIND_ROWS[key] ?? [])].map((row) => ({ title: `${key} ${endpoint.method} ${endpoint.path}${row.what ? ` (${row.what})` : ''}`, endpoint, row }));
  });

  it.each(cases)('$title', async ({ endpoint, row }) => {
    // The public token calls share one budget per client address; every test call comes from 127.0.0.1.
    if (row.token) await forgetFailures(server);
    // The secrets a denial must not carry: the marked bytes, the plain names, the sealed E2E names.
    const secrets = [NAME_MARKER, BYTES_MARKER, E.sealed.room, E.sealed.folder, E.sealed.file];
    const got: Partial<Record<Actor, number>> = {};
    const want: Partial<Record<Actor, number>> = {};
    const leaks: string[] = [];
    for (const actor of ACTORS) {
      const c = await row.call(actor);
      const response = await request(actor, endpoint.method, fillPath(endpoint.path, c.params), c);
      const text = await response.text();
      got[actor] = response.status;
      want[actor] = expectedStatus(row, actor);
      const allowed = row.allowed.includes(actor);
      if (!allowed || response.status >= 400) {
        // The §8 error shape and class; no bytes, no names.
        const parsed = BackendErrorSchema.safeParse(parseJson(text));
        if (!parsed.success) leaks.push(`${actor}: not the error shape: ${text.slice(0, 200)}`);
        else if (ERROR_CLASS[response.status] && parsed.data.error !== ERROR_CLASS[response.status]) leaks.push(`${actor}: ${parsed.data.error} for ${response.status}`);
        // A room-role refusal says so in SPEC §6's words (a token call's refusal says why it is not yours).
        if (response.status === 403 && !row.token && parsed.success && parsed.data.message !== "You don't have sufficient rights, please ask your administrator") leaks.push(`${actor}: 403 message ${parsed.data.message}`);
        if (response.headers.get('content-disposition')) leaks.push(`${actor}: a denial with content-disposition`);
        for (const secret of secrets) if (text.includes(secret)) leaks.push(`${actor}: denial carries ${secret.slice(0, 24)}`);
        if (response.status >= 400 && allowed) leaks.push(`${actor}: ${response.status} ${text.slice(0, 300)}`);
      } else if (!MEMBERS.includes(actor) && !row.token) {
        // Allowed to a non-member (lists, searches, quota, own rooms): still nothing of the rooms.
        for (const secret of secrets) if (text.includes(secret)) leaks.push(`${actor}: answer carries ${secret.slice(0, 24)}`);
      }
    }
    expect({ statuses: got, leaks }).toEqual({ statuses: want, leaks: [] });
  }, 120_000);
});
