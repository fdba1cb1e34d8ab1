import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomContents, type RoomFolder } from '@shared/contract/rooms';
import { ROOM_E2E_PATHS, type E2eFileKeysList, type E2eMemberList, type E2eRoomState } from '@shared/contract/rooms-e2e';
import { toBase64Url } from '@shared/crypto/bytes';
import type { WrappedFileKey } from '@shared/crypto/file-key';
import { signedContentOf, type RoomFileMetadata } from '@shared/crypto/room';
import { ROOM_KEY_EPOCH } from '@shared/crypto/room-grant';
import { bytesToStream, collectStream } from '@shared/crypto/stream-encoder';
import { verifiedContactKey, type E2eOptions } from '@shared/transfer/e2e';
import { roomMemberListTrust, signerRoleChecks } from '@shared/transfer/room-member-list';
import { sendRoomFile, type RoomFileSend } from '@shared/transfer/room-upload';
import { filesUnder } from '@tests/support/files';
import type { TestServer } from '@tests/support/server';
import { call } from './core-helpers';
import type { E2eActor } from './e2e-helpers';

/**
 * What the web client of an E2E room does, driven from Node with the real CryptoService (the code
 * the browser Worker runs): seal names, wrap keys, sign metadata, upload ciphertext parts; read
 * back with every check of shared/crypto/README.md "7. Data rooms".
 */

export const E2E_RECORD_SIZE = 1024;
const api = (path: string) => `/api/2${path}`;
export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

export const req = (server: TestServer, actor: E2eActor, method: string, path: string, body?: unknown) => call(server, actor.session, method, api(path), body);

function keysOf(actor: E2eActor) {
  if (!actor.keys) throw new Error('actor has no SecuPass');
  return actor.keys;
}

export async function createE2eRoom(server: TestServer, owner: E2eActor, name: string): Promise<{ room: Room; response: Response }> {
  const uuid = randomUUID();
  const keys = keysOf(owner);
  const { handle } = await owner.crypto.generateRoomKey();
  const [sealed] = (await owner.crypto.encryptRoomNames({ roomKey: handle, roomId: uuid, items: [{ kind: 'room', itemId: uuid, name }] })).sealed;
  const wrappedKey = await owner.crypto.wrapRoomKey({ roomKey: handle, roomId: uuid, recipientPublicKey: keys.encryption.publicKey });
  // The creator signs the grant of her own copy, as the web client does (README section 7).
  const grant = await signGrant(owner, uuid, owner.userUuid, wrappedKey);
  const response = await req(server, owner, 'POST', ROOM_E2E_PATHS.create, { uuid, name: sealed, recipientKeyId: wrappedKey.recipientKeyId, wrappedKey, grant });
  return { room: response.status === 201 ? await json<Room>(response.clone(), 201) : ({ uuid } as Room), response };
}

/** The caller's room-key handle (GET …/e2e, then HPKE unwrap). */
export async function openRoomKey(server: TestServer, actor: E2eActor, roomUuid: string): Promise<{ handle: string; state: E2eRoomState }> {
  const state = await json<E2eRoomState>(await req(server, actor, 'GET', ROOM_E2E_PATHS.state(roomUuid)), 200);
  if (!state.roomKey) throw new Error(`no room key (${state.state})`);
  const { handle } = await actor.crypto.unwrapRoomKey({ privateKey: keysOf(actor).encryption.handle, roomId: roomUuid, wrapped: state.roomKey.wrappedKey });
  return { handle, state };
}

/** The OWNER's grant: unwrap her copy, wrap to the member's live key, PUT. */
export async function grant(server: TestServer, owner: E2eActor, roomUuid: string, memberUuid: string, options: { confirmChangedKey?: boolean } = {}): Promise<Response> {
  const members = await json<E2eMemberList>(await req(server, owner, 'GET', ROOM_E2E_PATHS.members(roomUuid)), 200);
  const member = members.members.find((m) => m.user.uuid === memberUuid);
  const live = member?.keys.find((k) => k.usage === 'encryption');
  if (!member || !live) throw new Error('member has no encryption key');
  const key = await verifiedContactKey(owner.client, { crypto: owner.crypto, keys: keysOf(owner), pins: owner.pins, confirmChangedKey: async () => options.confirmChangedKey === true }, { email: member.user.email, userUuid: member.user.uuid, usage: 'encryption', keyId: live.keyId, publicKey: live.publicKey });
  const { handle } = await openRoomKey(server, owner, roomUuid);
  const wrappedKey = await owner.crypto.wrapRoomKey({ roomKey: handle, roomId: roomUuid, recipientPublicKey: key.publicKey });
  return req(server, owner, 'PUT', ROOM_E2E_PATHS.grant(roomUuid, memberUuid), { approve: true, recipientKeyId: key.keyId, wrappedKey, grant: await signGrant(owner, roomUuid, memberUuid, wrappedKey) });
}

/** The granter's signed grant of a room-key copy (shared/crypto/room-grant.ts), as the web client makes it. */
export function signGrant(granter: E2eActor, roomUuid: string, recipientUuid: string, wrapped: WrappedFileKey) {
  return granter.crypto.signRoomKeyGrant({ signingKey: keysOf(granter).signing.handle, roomId: roomUuid, epoch: ROOM_KEY_EPOCH, recipientUserId: recipientUuid, wrapped, granterUserId: granter.userUuid, createdAt: new Date().toISOString() });
}

export async function createE2eFolder(server: TestServer, actor: E2eActor, roomUuid: string, roomKey: string, name: string, parentUuid?: string): Promise<Response> {
  const uuid = randomUUID();
  const [sealed] = (await actor.crypto.encryptRoomNames({ roomKey, roomId: roomUuid, items: [{ kind: 'folder', itemId: uuid, name }] })).sealed;
  return req(server, actor, 'POST', ROOM_E2E_PATHS.folders(roomUuid), { uuid, name: sealed, ...(parentUuid ? { parentUuid } : {}) });
}

/**
 * Seals, announces, PUTs every ciphertext part, commits. Answers the announce response when it is
 * refused. `deferCommit`: stops before the commit and answers it as `commit` (a race test sends two).
 * `engine`: the parts and the E2E commit (metadata at the commit) go through the web client's room
 * transfer (`sendRoomFile`: retried, paused while the server is away); `beforeCommit` runs just before the commit.
 */
export async function uploadE2eFile(
  server: TestServer,
  actor: E2eActor,
  roomUuid: string,
  roomKey: string,
  input: {
    name: string;
    bytes: Uint8Array;
    folderUuid?: string;
    partSize: number;
    metadataAtCommit?: boolean;
    replace?: { uuid: string; version: number };
    /** The version chain fields the web client signs (`nextVersionLink`, README section 7); none: a legacy file. */
    link?: { counter: number; previousSha256?: string };
    /** The member list version the metadata is bound to (README section 7 "Roles at signing time"); none: unbound. */
    memberListVersion?: number;
    deferCommit?: boolean;
    /** An old-format file (metadata format 1: the whole plaintext's SHA-256) instead of the content commitment the web client signs. */
    legacyContentSha256?: boolean;
    engine?: Pick<RoomFileSend, 'retry' | 'onWaiting' | 'onBytes'> & { beforeCommit?: () => Promise<void> };
    /** Plaintext bytes per record (default E2E_RECORD_SIZE: many records in small files; the web client's uploads use DEFAULT_RECORD_SIZE). */
    recordSize?: number;
  },
): Promise<{ file?: RoomUploadFile; announce: Response; uuid: string; commit?: (ifMatch?: string) => Promise<Response> }> {
  const uuid = randomUUID();
  const keys = keysOf(actor);
  // A new version: key and metadata bound to the replaced file and its next version.
  const file = { roomId: roomUuid, fileId: input.replace?.uuid ?? uuid, version: input.replace?.version ?? 1 };
  const fileKey = await actor.crypto.generateFileKey();
  // Sealed as the web client seals it (README section 7 "Sealing an upload in the Worker"), with the content commitment.
  const opened = await actor.crypto.openUpload({ fileKey: fileKey.handle, recordSize: input.recordSize ?? E2E_RECORD_SIZE, source: new Blob([input.bytes as Uint8Array<ArrayBuffer>]), commitContent: true });
  const { headerSha256 } = opened;
  const { ciphertext } = await actor.crypto.sealUploadPart({ upload: opened.upload, start: 0, end: opened.size });
  const content = input.legacyContentSha256
    ? { contentSha256: toBase64Url(createHash('sha256').update(input.bytes).digest()) }
    : { contentCommitment: (await actor.crypto.uploadContentCommitment({ upload: opened.upload })).contentCommitment };
  await actor.crypto.releaseHandle({ handle: opened.upload });
  const [sealedName] = (await actor.crypto.encryptRoomNames({ roomKey, roomId: roomUuid, items: [{ kind: 'file', itemId: uuid, name: input.name }] })).sealed;
  const { wrapped } = await actor.crypto.wrapRoomFileKey({ roomKey, fileKey: fileKey.handle, file });
  const me = (await (await req(server, actor, 'GET', '/user')).json()) as { user: { uuid: string; email: string } };
  const metadata: Omit<RoomFileMetadata, 'signerKeyId' | 'format'> = {
    ...file,
    name: input.name,
    size: input.bytes.length,
    mimeType: 'application/octet-stream',
    headerSha256,
    ...content,
    uploaderUserId: me.user.uuid,
    uploaderEmail: me.user.email.toLowerCase(),
    createdAt: new Date().toISOString(),
    ...input.link,
    ...(input.memberListVersion === undefined ? {} : { memberListVersion: input.memberListVersion }),
  };
  const { sealed } = await actor.crypto.sealRoomFileMetadata({ roomKey, signingKey: keys.signing.handle, metadata });
  const announce = await req(server, actor, 'POST', ROOM_E2E_PATHS.files(roomUuid), {
    uuid, name: sealedName, size: ciphertext.length, plaintextSize: input.bytes.length, wrappedFileKey: wrapped,
    ...(input.metadataAtCommit ? {} : { metadata: sealed }),
    ...(input.replace ? { replaceUuid: input.replace.uuid } : {}),
    ...(input.folderUuid ? { folderUuid: input.folderUuid } : {}),
  });
  if (announce.status !== 201) return { announce, uuid };
  const announced = await json<RoomUploadFile>(announce.clone(), 201);
  const partOf = (i: number) => ciphertext.subarray(i * input.partSize, Math.min(ciphertext.length, (i + 1) * input.partSize));
  if (input.engine) {
    const { beforeCommit, ...hooks } = input.engine;
    const file = await sendRoomFile({
      client: actor.client,
      roomUuid,
      fileUuid: uuid,
      indices: Array.from({ length: announced.partCount }, (_, i) => i),
      prepare: async (i) => ({ body: new Blob([Uint8Array.from(partOf(i))]), size: partOf(i).length, sha256: sha256Hex(partOf(i)) }),
      commitMetadata: async () => {
        await beforeCommit?.();
        return sealed;
      },
      ...hooks,
    });
    return { file, announce, uuid };
  }
  for (let i = 0; i < announced.partCount; i++) {
    const part = partOf(i);
    const put = await fetch(`${server.url}${api(ROOM_PATHS.filePart(roomUuid, uuid, i))}`, {
      method: 'PUT',
      headers: { cookie: actor.session.cookie, [ANTI_CSRF_HEADER]: actor.session.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256Hex(part) },
      body: new Blob([Uint8Array.from(part)]),
    });
    await json(put, 200);
  }
  // The browser's single read signs the plaintext hash after the last part: metadata with the E2E commit.
  // With If-Match: an editor's save (shared/contract/room-preview.ts).
  const commit = (ifMatch?: string) => {
    const options = ifMatch === undefined ? {} : { headers: { 'if-match': ifMatch } };
    return input.metadataAtCommit
      ? call(server, actor.session, 'POST', api(ROOM_E2E_PATHS.commit(roomUuid, uuid)), { metadata: sealed }, options)
      : call(server, actor.session, 'POST', api(ROOM_PATHS.fileCommit(roomUuid, uuid)), undefined, options);
  };
  if (input.deferCommit) return { announce, uuid, commit };
  return { file: await json<RoomUploadFile>(await commit(), 200), announce, uuid };
}

/** What the browser's rename of a file sends: the new sealed name and the metadata re-signed with it by `actor` (`labels`: also a classification or status). */
export async function renameE2eFileBody(
  server: TestServer,
  actor: E2eActor,
  roomUuid: string,
  roomKey: string,
  fileUuid: string,
  name: string,
  folderUuid?: string,
  memberListVersion?: number,
  labels: Pick<RoomFileMetadata, 'classification' | 'status'> = {},
): Promise<{ name: string; metadata: string }> {
  const keys = await json<E2eFileKeysList>(await req(server, actor, 'GET', `${ROOM_E2E_PATHS.files(roomUuid)}${folderUuid ? `?folderUuid=${folderUuid}` : ''}`), 200);
  const extra = keys.files.find((k) => k.uuid === fileUuid);
  if (!extra) throw new Error('no such file');
  const file = { roomId: roomUuid, fileId: fileUuid, version: extra.version };
  const { metadata: current } = await actor.crypto.openRoomFileMetadata({ roomKey, file, sealed: extra.metadata });
  // Re-signed by `actor`: bound to the list version she names (as the web client binds to her verified
  // list), else to none (the latest list decides) — never to the uploader's.
  const { signerKeyId: _signer, format: _format, memberListVersion: _list, ...rest } = current;
  const { sealed } = await actor.crypto.sealRoomFileMetadata({ roomKey, signingKey: keysOf(actor).signing.handle, metadata: { ...rest, name, ...labels, ...(memberListVersion === undefined ? {} : { memberListVersion }) } });
  const [sealedName] = (await actor.crypto.encryptRoomNames({ roomKey, roomId: roomUuid, items: [{ kind: 'file', itemId: fileUuid, name }] })).sealed;
  return { name: sealedName!, metadata: sealed };
}

export interface ReadFolder {
  roomName: string;
  folders: Map<string, string>;
  /** Decrypted name → plaintext bytes (downloaded, decrypted, verified). */
  files: Map<string, { bytes: Uint8Array; metadata: RoomFileMetadata }>;
}

/** Everything a reader does: names, metadata (signature against the uploader's key), file key, download, decrypt. */
export async function readE2eFolder(server: TestServer, actor: E2eActor, roomUuid: string, folderUuid?: string, options: { download?: boolean } & Pick<E2eOptions, 'pins' | 'confirmChangedKey'> = {}): Promise<ReadFolder> {
  const { handle, state } = await openRoomKey(server, actor, roomUuid);
  // The signed member list, when the room has a valid one, decides the signers' roles (as the web client).
  const members = await roomMemberListTrust(actor.client, { crypto: actor.crypto, keys: keysOf(actor), pins: actor.pins }, { roomUuid, me: actor.userUuid });
  const roleCheck = signerRoleChecks(actor.client, { crypto: actor.crypto, keys: keysOf(actor), pins: actor.pins }, { roomUuid, me: actor.userUuid, latest: members.ok ? members.list : null });
  const contents = await json<RoomContents>(await req(server, actor, 'GET', folderUuid ? ROOM_PATHS.folder(roomUuid, folderUuid) : ROOM_PATHS.room(roomUuid)), 200);
  const items = [
    { kind: 'room' as const, itemId: roomUuid, sealed: contents.room.name },
    ...contents.folders.map((f: RoomFolder) => ({ kind: 'folder' as const, itemId: f.uuid, sealed: f.name })),
    ...contents.files.map((f) => ({ kind: 'file' as const, itemId: f.uuid, sealed: f.name })),
  ];
  const { names } = await actor.crypto.decryptRoomNames({ roomKey: handle, roomId: roomUuid, items });
  const nameOf = (i: number) => {
    const result = names[i]!;
    if (!result.ok) throw Object.assign(new Error(`name of ${items[i]!.itemId} does not decrypt`), { code: result.code });
    return result.name;
  };
  const out: ReadFolder = { roomName: nameOf(0), folders: new Map(), files: new Map() };
  contents.folders.forEach((f, i) => out.folders.set(nameOf(1 + i), f.uuid));
  const keys = await json<E2eFileKeysList>(await req(server, actor, 'GET', `${ROOM_E2E_PATHS.files(roomUuid)}${folderUuid ? `?folderUuid=${folderUuid}` : ''}`), 200);
  for (const [i, listed] of contents.files.entries()) {
    const name = nameOf(1 + contents.folders.length + i);
    const extra = keys.files.find((k) => k.uuid === listed.uuid);
    if (!extra) throw new Error('no keys for a listed file');
    const file = { roomId: roomUuid, fileId: listed.uuid, version: extra.version };
    const signed = await actor.crypto.openRoomFileMetadata({ roomKey: handle, file, sealed: extra.metadata });
    // The signer: the uploader, or the member who renamed the file (re-signed its metadata).
    const uploader = state.signers.find((s) => s.userUuid === (extra.signerUuid ?? extra.uploaderUuid));
    const listedKey = uploader?.keys.find((k) => k.keyId === signed.metadata.signerKeyId && k.usage === 'signing');
    if (!uploader || !listedKey) throw new Error('the uploader’s signing key is not listed');
    // A signer's changed key: asked through `confirmChangedKey` (the room page's dialog), refused without it.
    const signer = await verifiedContactKey(actor.client, { crypto: actor.crypto, keys: keysOf(actor), pins: options.pins ?? actor.pins, ...(options.confirmChangedKey ? { confirmChangedKey: options.confirmChangedKey } : {}) }, { email: uploader.email, userUuid: uploader.userUuid, usage: 'signing', keyId: listedKey.keyId, publicKey: listedKey.publicKey, ...(listedKey.retired ? { retired: true } : {}) });
    // The signer's role: in the list the metadata is bound to, else in the latest (README section 7 "Roles at signing time").
    const role = await roleCheck(signed.metadata, uploader);
    if ('code' in role) throw Object.assign(new Error(`signer of ${name} refused`), { code: role.code });
    const metadata = await actor.crypto.verifyRoomFileMetadata({
      signed, signerPublicKey: signer.publicKey,
      expected: { ...file, name, size: extra.plaintextSize, ...(extra.uploaderUuid ? { uploaderUserId: extra.uploaderUuid } : {}), ...role },
    });
    const fileKey = await actor.crypto.unwrapRoomFileKey({ roomKey: handle, file, wrapped: extra.wrappedFileKey });
    let bytes: Uint8Array = new Uint8Array(0);
    if (options.download !== false) {
      const response = await fetch(`${server.url}${api(ROOM_PATHS.fileContent(roomUuid, listed.uuid))}`, { headers: { cookie: actor.session.cookie } });
      const ciphertext = new Uint8Array(await response.arrayBuffer());
      if (response.status !== 200) throw Object.assign(new Error(`download ${response.status}`), { status: response.status });
      const { plaintext } = await actor.crypto.decryptStream({ fileKey: fileKey.handle, ciphertext: bytesToStream(ciphertext), plaintextLength: metadata.size, expectedHeaderSha256: metadata.headerSha256, ...signedContentOf(metadata) });
      bytes = await collectStream(plaintext);
    }
    out.files.set(name, { bytes, metadata });
  }
  return out;
}

/**
 * Where any of `needles` (plaintext markers) is at rest on the server: every file below its data
 * folder (blobs, the SQLite file) and every row of every table. Empty: nowhere.
 */
export async function markersAtRest(server: TestServer, needles: readonly string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const path of await filesUnder(server.dataDir)) {
    const content = await readFile(path);
    for (const needle of needles) if (content.includes(Buffer.from(needle, 'utf8'))) hits.push(`${path}: ${needle}`);
  }
  for (const table of await server.app.db.introspection.getTables()) {
    const text = JSON.stringify(await server.app.db.selectFrom(table.name as never).selectAll().execute());
    for (const needle of needles) if (text.includes(needle)) hits.push(`table ${table.name}: ${needle}`);
  }
  return hits;
}
