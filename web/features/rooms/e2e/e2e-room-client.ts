import { call } from '@shared/api/call';
import { ROOM_E2E_ENDPOINTS as X } from '@shared/contract/endpoints/rooms-e2e';
import type { RoomUploadFile } from '@shared/contract/room-files';
import type { Room, RoomContents } from '@shared/contract/rooms';
import { ROOM_E2E_FILES_UUIDS_MAX, type E2eFileKeysList, type E2eMember, type E2eRoomState } from '@shared/contract/rooms-e2e';
import type { WrappedFileKey } from '@shared/crypto/file-key';
import { nextVersionLink, type RoomFileMetadata, type RoomMetadataExpectation, type SignedRoomFileMetadata } from '@shared/crypto/room';
import { ROOM_KEY_EPOCH, type SignedRoomKeyGrant } from '@shared/crypto/room-grant';
import type { KeyHandle, UnlockedKeys } from '@shared/crypto/service';
import { ciphertextLength, DEFAULT_RECORD_SIZE } from '@shared/crypto/stream-format';
import { contactPinsFor } from '@shared/transfer/contact-pins';
import { verifiedContactKey } from '@shared/transfer/e2e';
import { checkRoomFileRollback } from '@shared/transfer/room-rollback';
import { roomKeyTrust, type RoomKeyTrust } from '@shared/transfer/room-key-trust';
import { memberEntryOf, roomMemberListTrust, signerRoleChecks, writeRoomMemberList, type RoomMemberListTrust } from '@shared/transfer/room-member-list';
import type { RoomMemberEntry } from '@shared/crypto/room-members';
import { listRoomFileParts, sendRoomFile } from '@shared/transfer/room-upload';
import { LocalFileChangedError } from '@shared/transfer/upload';
import { apiClient } from '@web/lib/api-client';
import { authStore } from '@web/lib/auth';
import { cryptoApi } from '@web/lib/crypto';
import { checkedRoomName, readableRoomName } from '../room-errors';
import { e2eOf, setChangedKeyQuestion, type ConfirmChangedKey } from './changed-key-question';
import { fetchFolderLabels, NO_FOLDER_LABELS, openFolderLabels, withheldFolderLabels, type E2eFolderLabelsView } from './e2e-folder-labels';

/**
 * The browser side of an end-to-end encrypted room (shared/crypto/README.md "7. Data rooms"):
 * every name, key and signature is made and checked in the crypto Worker (cryptoApi: handles,
 * never key bytes); the server gets sealed strings and ciphertext only.
 */

interface OpenedRoomKey {
  handle: KeyHandle;
  trust: RoomKeyTrust;
}

const roomKeys = new Map<string, Promise<OpenedRoomKey>>();
/** Cached copies refused for a changed granter key: asked again once a room page can ask. */
const refusedForChangedKey = new Set<string>();

/**
 * The open room page's changed-key dialog (./changed-key-question.ts). A new page also drops the
 * cached copies refused for a changed granter key, so they are asked about again.
 */
export function setRoomChangedKeyQuestion(ask: ConfirmChangedKey): () => void {
  return setChangedKeyQuestion(ask, () => {
    for (const cacheKey of refusedForChangedKey) roomKeys.delete(cacheKey);
    refusedForChangedKey.clear();
  });
}

const memberLists = new Map<string, Promise<RoomMemberListTrust>>();

/**
 * The room's signed member list, verified against the signer's pinned key (shared/transfer/
 * room-member-list.ts; README section 7 "Who is a member"); cached per room and keys until this
 * browser writes a new one.
 */
export function memberListOf(roomUuid: string, keys: UnlockedKeys): Promise<RoomMemberListTrust> {
  const cacheKey = `${roomUuid}|${keys.signing.handle}`;
  let trust = memberLists.get(cacheKey);
  if (!trust) {
    const me = authStore.getState().user?.uuid ?? '';
    // Not older than the highest version any of her devices saw (README section 7), kept in her synced pin list.
    trust = listMemoryOf(keys).then((memory) => roomMemberListTrust(apiClient, { crypto: cryptoApi, keys }, { roomUuid, me, memory }));
    trust.catch(() => memberLists.delete(cacheKey));
    memberLists.set(cacheKey, trust);
  }
  return trust;
}

/** The user's synced contact pin list, which remembers the highest member list version per room. */
const listMemoryOf = (keys: UnlockedKeys) =>
  contactPinsFor({ client: apiClient, crypto: cryptoApi, keys, ownerUserId: async () => authStore.getState().user?.uuid ?? '' });

/** What new metadata is bound to: the version of the verified list (none: unbound, README section 7 "Roles at signing time"). */
export async function memberListVersionOf(roomUuid: string, keys: UnlockedKeys): Promise<{ memberListVersion?: number }> {
  const list = await verifiedMemberList(roomUuid, keys);
  return list ? { memberListVersion: list.version } : {};
}

/** The verified list, or null (none yet, or it did not verify: the page says so). */
async function verifiedMemberList(roomUuid: string, keys: UnlockedKeys) {
  const trust = await memberListOf(roomUuid, keys).catch(() => null);
  return trust?.ok ? trust.list : null;
}

/**
 * An OWNER writes the next signed list: `change` applied to the verified one, or (`first`) the
 * room's members as the server lists them now — a room made before lists were signed (trust on
 * that first use, README section 7). Nothing without a verified list unless `first`.
 */
async function writeMemberList(roomUuid: string, keys: UnlockedKeys, change: { upsert?: RoomMemberEntry[]; addOnly?: RoomMemberEntry[]; remove?: string[]; first?: E2eMember[] }): Promise<void> {
  const me = authStore.getState().user?.uuid;
  if (!me) return;
  const current = await verifiedMemberList(roomUuid, keys);
  if (!current && !change.first) return;
  // A 409 (another OWNER wrote meanwhile) re-reads, re-applies and re-signs (bounded: writeRoomMemberList).
  try {
    await writeRoomMemberList(apiClient, { crypto: cryptoApi, keys }, { roomUuid, me, current, ...(change.first ? { base: change.first.map(memberEntryOf) } : {}), upsert: change.upsert ?? [], addOnly: change.addOnly ?? [], remove: change.remove ?? [], memory: await listMemoryOf(keys) });
  } finally {
    memberLists.delete(`${roomUuid}|${keys.signing.handle}`);
  }
}

/**
 * Legacy rooms (no signed list yet): when an OWNER opens the room her client offers to write the
 * first list from the members the server lists — `confirm` shows them (with their keys'
 * fingerprints) and only her yes signs them (trust on that first use, README section 7). Answers
 * whether it wrote one.
 */
export async function signLegacyMemberList(roomUuid: string, keys: UnlockedKeys, confirm: (members: E2eMember[]) => Promise<boolean>): Promise<boolean> {
  const trust = await memberListOf(roomUuid, keys);
  if (trust.ok || trust.code !== 'room-member-list-missing') return false;
  const { members } = await listE2eMembers(roomUuid);
  if (!(await confirm(members))) return false;
  await writeMemberList(roomUuid, keys, { first: members });
  return true;
}

/** The grant of the caller's copy, checked against the granter's pinned key (shared/transfer/room-key-trust.ts), the granter an OWNER of the signed list. */
async function trustOfCopy(roomUuid: string, keys: UnlockedKeys, copy: NonNullable<E2eRoomState['roomKey']>): Promise<RoomKeyTrust> {
  const me = authStore.getState().user?.uuid;
  if (!me) return { ok: false, code: 'room-key-grant-missing' };
  return roomKeyTrust(apiClient, e2eOf(keys), { roomUuid, me, copy, memberList: await verifiedMemberList(roomUuid, keys) });
}

/**
 * The state of a member's copy for the OWNER's members table (README section 7 "The members'
 * copies"): `verified` (granted by an OWNER whose key is pinned here, the signature checked),
 * `unverified` (a copy whose grant is missing or does not verify, with the code), `pending` (no copy).
 * A changed granter key is not asked here (the table only shows it): it counts as unverified.
 */
export type MemberCopyState = { state: 'verified' } | { state: 'unverified'; code: string } | { state: 'pending' };

export async function memberCopyState(roomUuid: string, keys: UnlockedKeys, member: E2eMember): Promise<MemberCopyState> {
  const me = authStore.getState().user?.uuid;
  if (!member.copy || !me) return { state: 'pending' };
  const trust = await roomKeyTrust(apiClient, e2eOf(keys, 'never'), { roomUuid, me, copy: member.copy, recipient: member.user.uuid, memberList: await verifiedMemberList(roomUuid, keys) });
  return trust.ok ? { state: 'verified' } : { state: 'unverified', code: trust.code };
}

function openedRoomKeyOf(roomUuid: string, keys: UnlockedKeys): Promise<OpenedRoomKey> {
  const cacheKey = `${roomUuid}|${keys.encryption.handle}`;
  let opened = roomKeys.get(cacheKey);
  if (!opened) {
    opened = (async () => {
      const state = await call(apiClient, X.state, { params: { roomUuid } });
      if (!state.roomKey) throw new E2eRoomAccessError(state.state);
      const { handle } = await cryptoApi.unwrapRoomKey({ privateKey: keys.encryption.handle, roomId: roomUuid, wrapped: state.roomKey.wrappedKey });
      const trust = await trustOfCopy(roomUuid, keys, state.roomKey);
      if (!trust.ok && trust.code === 'contact-key-changed') refusedForChangedKey.add(cacheKey);
      return { handle, trust };
    })();
    opened.catch(() => roomKeys.delete(cacheKey));
    roomKeys.set(cacheKey, opened);
  }
  return opened;
}

/** The caller's room-key handle for READING (cached per room and session of keys); see writableRoomKeyOf. */
export async function roomKeyOf(roomUuid: string, keys: UnlockedKeys): Promise<KeyHandle> {
  return (await openedRoomKeyOf(roomUuid, keys)).handle;
}

export type { RoomKeyTrust };

/** Whether the caller's copy is one an OWNER granted (the room page says so when not). */
export async function roomKeyTrustOf(roomUuid: string, keys: UnlockedKeys): Promise<RoomKeyTrust> {
  return (await openedRoomKeyOf(roomUuid, keys)).trust;
}

/** The copy's grant did not verify: nothing is encrypted under this room key (a server-made key would read it). */
export class E2eRoomKeyUnverifiedError extends Error {
  constructor(readonly code: string) {
    super(`The room key copy is not verified (${code})`);
    this.name = 'E2eRoomKeyUnverifiedError';
  }
}

/** The room-key handle for ENCRYPTING (names, file keys, metadata, grants): only a copy whose grant verified. */
export async function writableRoomKeyOf(roomUuid: string, keys: UnlockedKeys): Promise<KeyHandle> {
  const { handle, trust } = await openedRoomKeyOf(roomUuid, keys);
  if (!trust.ok) throw new E2eRoomKeyUnverifiedError(trust.code);
  return handle;
}

/** Signs a grant of `wrapped` (a copy for `recipientUuid`) with the caller's signing key. */
async function signGrant(roomUuid: string, keys: UnlockedKeys, recipientUuid: string, wrapped: WrappedFileKey): Promise<SignedRoomKeyGrant> {
  const me = authStore.getState().user?.uuid;
  if (!me) throw new Error('Not signed in');
  return cryptoApi.signRoomKeyGrant({ signingKey: keys.signing.handle, roomId: roomUuid, epoch: ROOM_KEY_EPOCH, recipientUserId: recipientUuid, wrapped, granterUserId: me, createdAt: new Date().toISOString() });
}

/**
 * Migration of a room made before grants were signed (README section 7): when an OWNER opens it and
 * her own copy carries no grant, her client signs a fresh copy for herself (trust on this first
 * use: the key her copy opens) and re-grants every approved member after the pin check (a member
 * whose key changed is left for the members dialog). Answers whether it signed anything.
 */
export async function signLegacyRoomKeyGrants(roomUuid: string, keys: UnlockedKeys): Promise<boolean> {
  const me = authStore.getState().user;
  const { handle, trust } = await openedRoomKeyOf(roomUuid, keys);
  if (trust.ok || trust.code !== 'room-key-grant-missing' || !me) return false;
  const own = await cryptoApi.wrapRoomKey({ roomKey: handle, roomId: roomUuid, recipientPublicKey: keys.encryption.publicKey });
  await call(apiClient, X.grant, { params: { roomUuid, userUuid: me.uuid }, body: { approve: true, recipientKeyId: own.recipientKeyId, wrappedKey: own, grant: await signGrant(roomUuid, keys, me.uuid, own) } });
  roomKeys.delete(`${roomUuid}|${keys.encryption.handle}`);
  const { members } = await listE2eMembers(roomUuid);
  for (const member of members) {
    if (member.user.uuid === me.uuid || member.state !== 'approved') continue;
    await grantRoomKey(roomUuid, keys, member, { ask: false }).catch((error: unknown) => console.debug('[e2e] re-grant', member.user.email, error));
  }
  return true;
}

/** The caller has no room key: `state` says why (pending grant, not approved, no SecuPass). */
export class E2eRoomAccessError extends Error {
  constructor(readonly state: E2eRoomState['state']) {
    super(`No room key (${state})`);
    this.name = 'E2eRoomAccessError';
  }
}

export async function createE2eRoom(name: string, keys: UnlockedKeys): Promise<Room> {
  const uuid = crypto.randomUUID();
  const { handle } = await cryptoApi.generateRoomKey();
  const [sealed] = (await cryptoApi.encryptRoomNames({ roomKey: handle, roomId: uuid, items: [{ kind: 'room', itemId: uuid, name: checkedRoomName(name) }] })).sealed;
  const wrappedKey = await cryptoApi.wrapRoomKey({ roomKey: handle, roomId: uuid, recipientPublicKey: keys.encryption.publicKey });
  const grant = await signGrant(uuid, keys, authStore.getState().user?.uuid ?? '', wrappedKey);
  const room = await call(apiClient, X.create, { body: { uuid, name: sealed ?? '', recipientKeyId: wrappedKey.recipientKeyId, wrappedKey, grant } });
  roomKeys.set(`${uuid}|${keys.encryption.handle}`, Promise.resolve({ handle, trust: { ok: true } }));
  const me = authStore.getState().user;
  if (me) {
    // The first signed member list: the creator as OWNER.
    const self = { user: { uuid: me.uuid, email: me.email }, role: 'OWNER' as const, keys: [keys.signing, keys.encryption].map((k, i) => ({ usage: i === 0 ? 'signing' : 'encryption', keyId: k.keyId })) };
    // Not written (e.g. offline a moment): her client writes it the next time she opens the room.
    await writeRoomMemberList(apiClient, { crypto: cryptoApi, keys }, { roomUuid: uuid, me: me.uuid, current: null, base: [memberEntryOf(self)] }).catch((error: unknown) => console.debug('[e2e] first member list', error));
  }
  return room;
}

/** Decrypted names by sealed string (one broken name shows as null instead of hiding the list). */
export async function decryptNames(roomUuid: string, roomKey: KeyHandle, items: { kind: 'room' | 'folder' | 'file'; itemId: string; sealed: string }[]): Promise<(string | null)[]> {
  if (items.length === 0) return [];
  const { names } = await cryptoApi.decryptRoomNames({ roomKey, roomId: roomUuid, items });
  return names.map((n) => (n.ok ? readableRoomName(n.name) : null));
}

export async function createE2eFolder(roomUuid: string, keys: UnlockedKeys, name: string, parentUuid: string | null): Promise<void> {
  const roomKey = await writableRoomKeyOf(roomUuid, keys);
  const uuid = crypto.randomUUID();
  const [sealed] = (await cryptoApi.encryptRoomNames({ roomKey, roomId: roomUuid, items: [{ kind: 'folder', itemId: uuid, name: checkedRoomName(name) }] })).sealed;
  await call(apiClient, X.createFolder, { params: { roomUuid }, body: { uuid, name: sealed ?? '', parentUuid } });
}

export interface E2eListedFile {
  uuid: string;
  name: string;
  size: number;
  uploadedBy: string;
  /**
   * Issue 32: the uploader's display name as the server answers it (absent or null: none known).
   * Shown beside the signed address when the signer is the uploader, never instead of it.
   */
  uploadedByName?: string | null;
  /** The verified metadata, or the error code that stopped it (shown on the row). */
  metadata: RoomFileMetadata | null;
  /**
   * Whose pinned key the metadata verified with (set with `metadata`): the "Signed by" column shows
   * her, never the metadata's uploader field alone (a re-signer could leave someone else's there).
   */
  signer?: { userUuid: string; email: string };
  problem: string | null;
  version: number;
  wrappedFileKey: string;
}

export interface E2eFolderView {
  roomName: string | null;
  path: { uuid: string; name: string | null }[];
  /** Sub-folders with their verified classification and status (README section 7 "Folder labels"; `none` without a record). */
  folders: { uuid: string; name: string | null; labels: E2eFolderLabelsView }[];
  files: E2eListedFile[];
}

/** The sealed extras of these files, ROOM_E2E_FILES_UUIDS_MAX a call (the calls at once). */
async function fileExtras(roomUuid: string, folderUuid: string | null, uuids: string[]): Promise<E2eFileKeysList> {
  const calls: Promise<E2eFileKeysList>[] = [];
  for (let at = 0; at < uuids.length; at += ROOM_E2E_FILES_UUIDS_MAX) {
    const batch = uuids.slice(at, at + ROOM_E2E_FILES_UUIDS_MAX).join(',');
    calls.push(call(apiClient, X.files, { params: { roomUuid }, query: { ...(folderUuid ? { folderUuid } : {}), uuids: batch } }));
  }
  return { files: (await Promise.all(calls)).flatMap((answer) => answer.files) };
}

/**
 * Opens a room or folder listing: names decrypted, each file's metadata verified against its
 * uploader's key, each sub-folder's labels against their signer's (`folderLabels: false`: not
 * fetched, e.g. for a ZIP, which does not show them).
 */
export async function openE2eFolder(contents: RoomContents, keys: UnlockedKeys, prefetched: { state?: Promise<E2eRoomState>; folderLabels?: boolean } = {}): Promise<E2eFolderView> {
  const roomUuid = contents.room.uuid;
  const roomKey = await roomKeyOf(roomUuid, keys);
  const items = [
    { kind: 'room' as const, itemId: roomUuid, sealed: contents.room.name },
    ...contents.path.map((p) => ({ kind: 'folder' as const, itemId: p.uuid, sealed: p.name })),
    ...(contents.folder ? [{ kind: 'folder' as const, itemId: contents.folder.uuid, sealed: contents.folder.name }] : []),
    ...contents.folders.map((f) => ({ kind: 'folder' as const, itemId: f.uuid, sealed: f.name })),
    ...contents.files.map((f) => ({ kind: 'file' as const, itemId: f.uuid, sealed: f.name })),
  ];
  // The keys list and the signers travel while the Worker decrypts the names.
  const lists = Promise.all([
    prefetched.state ?? call(apiClient, X.state, { params: { roomUuid } }),
    // Only this page's files' extras (a folder's first page must not wait for all its files').
    fileExtras(roomUuid, contents.folder?.uuid ?? null, contents.files.map((f) => f.uuid)),
    contents.folders.length && prefetched.folderLabels !== false ? fetchFolderLabels(roomUuid, contents.folder?.uuid ?? null) : { folders: [] },
  ]);
  lists.catch(() => undefined); // awaited below; a failure there must not count as unhandled while the names decrypt
  const names = await decryptNames(roomUuid, roomKey, items);
  let at = 1;
  const path = contents.path.map((p) => ({ uuid: p.uuid, name: names[at++] ?? null }));
  if (contents.folder) path.push({ uuid: contents.folder.uuid, name: names[at++] ?? null });
  const folderNames = contents.folders.map(() => names[at++] ?? null);
  const fileNames = contents.files.map(() => names[at++] ?? null);
  const [state, extras, labelRecords] = await lists;
  const folderLabels = labelRecords.folders.length ? await openFolderLabels({ roomUuid, roomKey, keys, state, memberList: await verifiedMemberList(roomUuid, keys) }, labelRecords.folders) : new Map<string, E2eFolderLabelsView>();
  if (contents.folders.length && prefetched.folderLabels !== false) for (const [uuid, view] of await withheldFolderLabels(keys, contents.folders.map((f) => f.uuid), labelRecords.folders)) folderLabels.set(uuid, view);
  const folders = contents.folders.map((f, i) => ({ uuid: f.uuid, name: folderNames[i] ?? null, labels: folderLabels.get(f.uuid) ?? NO_FOLDER_LABELS }));
  // A folder may hold thousands of files: verified together (not three round trips per file).
  const extraOf = new Map(extras.files.map((f) => [f.uuid, f]));
  const fail = (row: E2eListedFile, code: string) => (row.problem = code);
  const files: E2eListedFile[] = contents.files.map((listed, i) => {
    const extra = extraOf.get(listed.uuid);
    return { uuid: listed.uuid, name: fileNames[i] ?? '', size: extra?.plaintextSize ?? 0, uploadedBy: listed.uploadedBy, uploadedByName: listed.uploadedByName ?? null, metadata: null, problem: null, version: extra?.version ?? 1, wrappedFileKey: extra?.wrappedFileKey ?? '' };
  });
  const toOpen: E2eFileToVerify[] = [];
  for (const [i, row] of files.entries()) {
    const name = fileNames[i] ?? null;
    const extra = extraOf.get(row.uuid);
    if (name === null) fail(row, 'room-name-invalid');
    else if (!extra) fail(row, 'room-metadata-invalid');
    else toOpen.push({ row, name, extra });
  }
  await verifyE2eFiles(roomUuid, roomKey, keys, state, toOpen);
  await refuseRolledBack(keys, files);
  return { roomName: names[0] ?? null, path, folders, files };
}

/**
 * The rollback check of the files' CURRENT states (README section 7 "Version chain"): a verified
 * state older than one of the user's devices saw (her synced contact pin list keeps the highest
 * counters) is refused — problem `room-version-rolled-back`, no metadata, so it is neither shown
 * nor downloaded as current; newer ones raise the memory (a failed save leaves it for next time).
 */
export async function refuseRolledBack(keys: UnlockedKeys, rows: E2eListedFile[]): Promise<void> {
  const verified = rows.filter((row) => row.metadata);
  const me = authStore.getState().user?.uuid;
  if (!verified.length || !me) return;
  const pins = await contactPinsFor({ client: apiClient, crypto: cryptoApi, keys, ownerUserId: async () => me });
  const memory = {
    fileCounter: (fileId: string) => pins.fileCounter(fileId),
    raiseFileCounters: (entries: { fileId: string; counter: number }[]) => pins.raiseFileCounters(entries).catch((error: unknown) => console.debug('[e2e] file counters not saved', error)),
  };
  const rolledBack = await checkRoomFileRollback(memory, verified.map((row) => ({ fileId: row.uuid, metadata: row.metadata! })));
  for (const row of verified) {
    const error = rolledBack.get(row.uuid);
    if (!error) continue;
    row.metadata = null;
    delete row.signer;
    row.problem = error.code;
  }
}

/** What verifying one file's metadata needs: its row (filled in), the name it must sign (none: not checked) and its sealed extras. */
export interface E2eFileToVerify {
  row: E2eListedFile;
  name: string | null;
  extra: { version: number; metadata: string; plaintextSize: number; uploaderUuid: string | null; signerUuid: string | null };
}

/**
 * Opens and verifies the signed metadata of these files (the folder's current files, or a file's
 * earlier versions: e2e-versions.ts) and sets each row's `metadata` or `problem`. One Worker call
 * opens every metadata, one verifies every signature, and each signer key is pin-checked once.
 */
export async function verifyE2eFiles(roomUuid: string, roomKey: KeyHandle, keys: UnlockedKeys, state: E2eRoomState, toOpen: E2eFileToVerify[]): Promise<void> {
  const fail = (row: E2eListedFile, code: string) => (row.problem = code);
  // A signer the signed member list does not hold as a writer is refused (README section 7 "Who is a member"):
  // in the list the metadata is bound to ("Roles at signing time"), else in the latest.
  const memberList = await verifiedMemberList(roomUuid, keys);
  const roleCheck = signerRoleChecks(apiClient, e2eOf(keys), { roomUuid, me: authStore.getState().user?.uuid ?? '', latest: memberList });
  const fileRef = (item: (typeof toOpen)[number]) => ({ roomId: roomUuid, fileId: item.row.uuid, version: item.extra.version });
  const opened = toOpen.length ? (await cryptoApi.openRoomFilesMetadata({ roomKey, items: toOpen.map((item) => ({ file: fileRef(item), sealed: item.extra.metadata })) })).results : [];
  type SignerKey = { publicKey: string; signer: E2eRoomState['signers'][number] } | { code: string };
  const signerKeys = new Map<string, Promise<SignerKey>>();
  const signerKeyOf = (uploaderUuid: string | null, keyId: string) => {
    const cacheKey = `${uploaderUuid}|${keyId}`;
    let pending = signerKeys.get(cacheKey);
    if (!pending) {
      const uploader = state.signers.find((s) => s.userUuid === uploaderUuid);
      const signer = uploader?.keys.find((k) => k.usage === 'signing' && k.keyId === keyId);
      // The signer's key against the caller's pins (README section 3): a changed key is asked about (once), refused on Cancel.
      pending = !uploader || !signer
        ? Promise.resolve({ code: 'room-metadata-signature-invalid' })
        : verifiedContactKey(apiClient, e2eOf(keys), { email: uploader.email, userUuid: uploader.userUuid, usage: 'signing', keyId: signer.keyId, publicKey: signer.publicKey, ...(signer.retired ? { retired: true } : {}) }).then(
            (pinned) => ({ publicKey: pinned.publicKey, signer: uploader }),
            (error: unknown) => ({ code: (error as { code?: string }).code ?? 'room-metadata-invalid' }),
          );
      signerKeys.set(cacheKey, pending);
    }
    return pending;
  };
  const toVerify: { row: E2eListedFile; signed: SignedRoomFileMetadata; signerPublicKey: string; signer: { userUuid: string; email: string }; expected: RoomMetadataExpectation }[] = [];
  for (const [k, item] of toOpen.entries()) {
    const result = opened[k]!;
    if (!result.ok) {
      fail(item.row, result.code);
      continue;
    }
    // The signer: the uploader, or the member who renamed the file and re-signed its metadata.
    const key = await signerKeyOf(item.extra.signerUuid ?? item.extra.uploaderUuid, result.value.metadata.signerKeyId);
    if ('code' in key) fail(item.row, key.code);
    else {
      const { userUuid, email } = key.signer;
      // The signer's role: a VIEWER's or PREVIEWER's valid signature is refused (room-signer-not-writer, -then).
      const role = await roleCheck(result.value.metadata, key.signer);
      if ('code' in role) {
        fail(item.row, role.code);
        continue;
      }
      const expected = { ...fileRef(item), ...(item.name === null ? {} : { name: item.name }), size: item.extra.plaintextSize, ...(item.extra.uploaderUuid ? { uploaderUserId: item.extra.uploaderUuid } : {}), ...role };
      toVerify.push({ row: item.row, signed: result.value, signerPublicKey: key.publicKey, signer: { userUuid, email }, expected });
    }
  }
  const verified = toVerify.length ? (await cryptoApi.verifyRoomFilesMetadata({ items: toVerify.map(({ signed, signerPublicKey, expected }) => ({ signed, signerPublicKey, expected })) })).results : [];
  for (const [k, item] of toVerify.entries()) {
    const result = verified[k]!;
    if (result.ok) {
      item.row.metadata = result.value;
      item.row.signer = item.signer;
    } else fail(item.row, result.code);
  }
}

/**
 * What one E2E upload keeps between runs (a retry in the transfer centre resumes it): the announced
 * file and its file key. Re-encrypting with the same key gives the same ciphertext (nonces and
 * header derive from it), so the parts already on the server are checked and skipped; a part that
 * differs means the local file changed and the upload stops (never other bytes under one key).
 */
export interface E2eUploadSession {
  fileUuid?: string;
  fileKey?: KeyHandle;
}

/** The version-conflict answer for an E2E upload (the browser found the clash by decrypted names). */
export interface E2eUploadPlacement {
  /** The name to seal and sign (the file's, or "name (1).ext" for keep both). */
  name?: string;
  /**
   * A new version of this existing file: its uuid and the next version (key and metadata are bound
   * to both), and its current verified metadata (the new version's counter and previous hash).
   */
  replace?: { uuid: string; version: number; current?: RoomFileMetadata | null };
}

export interface E2eUploadTarget {
  roomUuid: string;
  folderUuid: string | null;
  keys: UnlockedKeys;
  me: { uuid: string; email: string };
  /** Bytes of every ciphertext part on the server (sent now or found there on a resume). */
  onBytes?: (bytes: number) => void;
  /** true while the upload waits for the server (SPEC §4 `paused`), false once it goes on by itself. */
  onWaiting?: (waiting: boolean) => void;
  signal?: AbortSignal;
  /** Keep it across attempts to resume; without one the file key is released at the end. */
  session?: E2eUploadSession;
  placement?: E2eUploadPlacement;
  /** An editor's save: the ETag of the ciphertext it loaded; the commit answers 412 when a newer version came in between. */
  ifMatch?: string;
}

/**
 * Encrypts and uploads one file (DESIGN §4, shared/crypto/README.md "7. Data rooms"): sealed name
 * and file key, announce, then the shared room transfer (`sendRoomFile`: PARTS_IN_FLIGHT parts PUT
 * at once, retried with back-off, paused while the server is away, the commit likewise) fed by the
 * crypto Worker's `sealUploadPart`: the Worker reads each part's records from the File, hashes each record's plaintext (the signed content commitment),
 * seals them into a reused part buffer, hashes it and hands back the part as a Blob with its SHA-256, so no file byte passes through
 * the page. The signed metadata (it names the content commitment) goes with the E2E commit.
 */
export async function uploadE2eFile(file: File, target: E2eUploadTarget): Promise<RoomUploadFile> {
  const { roomUuid, keys, signal } = target;
  const session = target.session ?? {};
  const roomKey = await writableRoomKeyOf(roomUuid, keys);
  const recordSize = DEFAULT_RECORD_SIZE;
  // The one name rule before the name is sealed: the server sees only ciphertext.
  const name = checkedRoomName(target.placement?.name ?? file.name);
  let completed = false;
  try {
    session.fileKey ??= (await cryptoApi.generateFileKey()).handle;
    const fileKey = session.fileKey;
    let layout: { fileUuid: string; partSize: number; partCount: number };
    // The file and version the key and metadata are bound to: a new version binds the replaced file's.
    const bound = (uploadUuid: string) => ({ roomId: roomUuid, fileId: target.placement?.replace?.uuid ?? uploadUuid, version: target.placement?.replace?.version ?? 1 });
    const have = new Map<number, { size: number; sha256: string }>();
    const retryHooks = { ...(signal ? { signal } : {}), ...(target.onWaiting ? { onWaiting: target.onWaiting } : {}) };
    if (session.fileUuid) {
      const parts = await listRoomFileParts(apiClient, roomUuid, session.fileUuid, retryHooks);
      layout = parts;
      for (const part of parts.parts) have.set(part.index, part);
    } else {
      const uuid = crypto.randomUUID();
      const ref = bound(uuid);
      const [sealedName] = (await cryptoApi.encryptRoomNames({ roomKey, roomId: roomUuid, items: [{ kind: 'file', itemId: uuid, name }] })).sealed;
      const { wrapped } = await cryptoApi.wrapRoomFileKey({ roomKey, fileKey, file: ref });
      const announced = await call(apiClient, X.createFile, {
        params: { roomUuid },
        body: { uuid, name: sealedName ?? '', size: ciphertextLength(file.size, recordSize), plaintextSize: file.size, folderUuid: target.folderUuid, wrappedFileKey: wrapped, ...(target.placement?.replace ? { replaceUuid: target.placement.replace.uuid } : {}) },
      }, signal ? { signal } : {});
      session.fileUuid = announced.uuid;
      layout = { fileUuid: announced.uuid, partSize: announced.partSize, partCount: announced.partCount };
    }
    const { fileUuid, partSize, partCount } = layout;
    // Each part is read, hashed and sealed in the crypto Worker from the File itself; the page
    // only PUTs the Blob it gets back (no plaintext or ciphertext bytes pass through the page).
    const opened = await cryptoApi.openUpload({ fileKey, recordSize, source: file, commitContent: true });
    const { upload, headerSha256 } = opened;
    let uploadOpen = true;
    const closeUpload = () => {
      if (uploadOpen) void cryptoApi.releaseHandle({ handle: upload });
      uploadOpen = false;
    };
    let committed: RoomUploadFile;
    try {
      // Parts and commit retried, and paused while the server is away, as plain room uploads (shared/transfer/room-upload.ts).
      committed = await sendRoomFile({
        client: apiClient,
        roomUuid,
        fileUuid,
        indices: Array.from({ length: partCount }, (_, i) => i),
        ...retryHooks,
        // Built, hashed and made a Blob in the Worker: the page only PUTs it (shared/transfer README
        // "Copies on an E2E upload", also why a Blob and not the bytes is the body).
        prepare: (index) => cryptoApi.sealUploadPartBody({ upload, start: index * partSize, end: Math.min(opened.size, (index + 1) * partSize) }),
        alreadySent: (index, part) => {
          const there = have.get(index);
          if (there && (there.size !== part.size || there.sha256 !== part.sha256)) throw new LocalFileChangedError(`Part ${index} on the server differs from the local file`);
          return there !== undefined;
        },
        // Signed once every part is in: the metadata names the content commitment over every record's hash.
        commitMetadata: async () => {
          const { contentCommitment } = await cryptoApi.uploadContentCommitment({ upload });
          closeUpload();
          // The version chain (README section 7): a new file starts at 1, a new version links to the current state.
          const link = await versionLinkOf(keys, target.placement?.replace);
          // Bound to the member list she writes under (README section 7 "Roles at signing time").
          const boundList = await memberListVersionOf(roomUuid, keys);
          const { sealed } = await cryptoApi.sealRoomFileMetadata({
            roomKey,
            signingKey: keys.signing.handle,
            metadata: { ...bound(fileUuid), name, size: file.size, mimeType: file.type || 'application/octet-stream', headerSha256, contentCommitment, uploaderUserId: target.me.uuid, uploaderEmail: target.me.email.toLowerCase(), createdAt: new Date().toISOString(), ...link, ...boundList },
          });
          return sealed;
        },
        ...(target.onBytes ? { onBytes: target.onBytes } : {}),
        ...(target.ifMatch ? { ifMatch: target.ifMatch } : {}),
      });
    } finally {
      closeUpload();
    }
    completed = true;
    return committed;
  } finally {
    // Kept for a resume when the caller holds the session; released once done or when nobody can resume.
    if ((completed || !target.session) && session.fileKey) {
      void cryptoApi.releaseHandle({ handle: session.fileKey });
      delete session.fileKey;
    }
  }
}

/**
 * The chain fields of an upload (README section 7 "Version chain"). A new version over a current
 * state that did not verify (or was refused as rolled back) has no predecessor to vouch for: it
 * counts on above the highest counter the user's devices saw, without a previous hash.
 */
async function versionLinkOf(keys: UnlockedKeys, replace: E2eUploadPlacement['replace']): Promise<{ counter: number; previousSha256?: string }> {
  if (!replace || replace.current) return nextVersionLink(replace?.current ?? null);
  const me = authStore.getState().user?.uuid;
  if (!me) return nextVersionLink(null);
  const pins = await contactPinsFor({ client: apiClient, crypto: cryptoApi, keys, ownerUserId: async () => me });
  return { counter: pins.fileCounter(replace.uuid) + 1 };
}

/** The file key of a listed, verified file (a handle for the Worker's download decryption). */
/**
 * Who the "Signed by" column names (README section 7 "The signer of a file"): the holder of the key
 * that verified. Her own signed address when she is the uploader; else her address and the
 * uploader's (a rename re-signs the metadata). Null until the metadata verified.
 */
export function signedByOf(file: Pick<E2eListedFile, 'metadata' | 'signer'>): { signer: string; uploader?: string } | null {
  if (!file.metadata || !file.signer) return null;
  if (file.signer.userUuid === file.metadata.uploaderUserId) return { signer: file.metadata.uploaderEmail };
  return { signer: file.signer.email, uploader: file.metadata.uploaderEmail };
}

export async function fileKeyOf(roomUuid: string, keys: UnlockedKeys, file: E2eListedFile): Promise<KeyHandle> {
  const roomKey = await roomKeyOf(roomUuid, keys);
  return (await cryptoApi.unwrapRoomFileKey({ roomKey, file: { roomId: roomUuid, fileId: file.uuid, version: file.version }, wrapped: file.wrappedFileKey })).handle;
}

export const listE2eMembers = (roomUuid: string) => call(apiClient, X.members, { params: { roomUuid } });

/** The room key was granted, but the signed member list could not be written (after its retries). */
export class MemberListNotUpdatedError extends Error {
  override readonly name = 'MemberListNotUpdatedError';
  constructor(cause: unknown) {
    super('The member was granted; the signed member list was not updated', { cause });
  }
}

/** The grant (release): the OWNER's room key wrapped to the member's live encryption key. */
export async function grantRoomKey(roomUuid: string, keys: UnlockedKeys, member: E2eMember, options: { ask?: boolean } = {}): Promise<E2eMember> {
  const live = member.keys.find((k) => k.usage === 'encryption');
  if (!live) throw new E2eRoomAccessError('noSecuPass');
  // Never wrap to a key the server swapped in: pin check first (a changed key only after the user confirmed it).
  const key = await verifiedContactKey(apiClient, e2eOf(keys, options.ask === false ? 'never' : 'each'), { email: member.user.email, userUuid: member.user.uuid, usage: 'encryption', keyId: live.keyId, publicKey: live.publicKey });
  const roomKey = await writableRoomKeyOf(roomUuid, keys);
  const wrappedKey = await cryptoApi.wrapRoomKey({ roomKey, roomId: roomUuid, recipientPublicKey: key.publicKey });
  const grant = await signGrant(roomUuid, keys, member.user.uuid, wrappedKey);
  const granted = await call(apiClient, X.grant, { params: { roomUuid, userUuid: member.user.uuid }, body: { approve: true, recipientKeyId: key.keyId, wrappedKey, grant } });
  // The approved member joins the signed member list with the key just checked. The grant stands
  // even when this fails (said as such: MemberListNotUpdatedError, not "could not be granted").
  await writeMemberList(roomUuid, keys, { upsert: [memberEntryOf(granted)] }).catch((error: unknown) => {
    throw new MemberListNotUpdatedError(error);
  });
  return granted;
}

/**
 * A role change or a removal in the share dialog (an OWNER's): the next signed member list says so,
 * with the key ids the list had (checked when the member was approved) — else the members table
 * would flag a member whose role an OWNER changed herself. A member she shares the room with who has
 * no keys yet is listed without key ids; one with keys joins the list on approval.
 */
export async function recordMemberChange(roomUuid: string, keys: UnlockedKeys, change: { userUuid: string; role: E2eMember['role'] | null } | { added: E2eMember }): Promise<void> {
  const current = await verifiedMemberList(roomUuid, keys);
  if (!current) return;
  if ('added' in change) {
    // Shared with someone who has no keys yet: listed with her role and no key ids (none to check);
    // her approval later lists the keys checked then.
    if (current.members.some((m) => m.userId === change.added.user.uuid)) return;
    await writeMemberList(roomUuid, keys, { addOnly: [{ ...memberEntryOf(change.added), signingKeyId: null, encryptionKeyId: null }] });
    return;
  }
  const listed = current.members.find((m) => m.userId === change.userUuid);
  if (!listed || listed.role === change.role) return;
  await writeMemberList(roomUuid, keys, change.role === null ? { remove: [change.userUuid] } : { upsert: [{ ...listed, role: change.role }] });
}

export const declineRoomKey = (roomUuid: string, member: E2eMember) =>
  call(apiClient, X.grant, { params: { roomUuid, userUuid: member.user.uuid }, body: { approve: false } });
