// End-to-end encrypted data rooms (README "7. Data rooms"): one random room key per room, wrapped
// with HPKE to every member (file-key.ts, file id "room-key"); file keys, names and signed file
// metadata are sealed under keys derived from the room key, each bound to its room and item.
import { concatBytes, fromBase64Url, toBase64Url, utf8Decode, utf8Encode } from './bytes';
import {
  RoomFileKeyUnwrapError,
  RoomMetadataInvalidError,
  RoomMetadataMismatchError,
  RoomMetadataSignatureError,
  RoomNameInvalidError,
  RoomSignerNotWriterError,
  RoomSignerNotWriterThenError,
  RoomVersionChainError,
} from './errors';
import { canonicalJson } from './manifest';
import { FILE_KEY_BYTES } from './stream-records';
import { aesGcmDecrypt, aesGcmEncrypt, hkdfSha256, importAesGcmKey, randomBytes, sha256, subtle } from './subtle';

/** The HPKE file id (file-key.ts binding) of a member's room-key copy; the context id is the room id. */
export const ROOM_KEY_FILE_ID = 'room-key';
export const ROOM_KEY_BYTES = 32;
/** Prefix of every sealed string of the room scheme (format 1): "r1." ‖ base64url(iv ‖ ciphertext ‖ tag). */
export const ROOM_SEALED_PREFIX = 'r1.';
const IV_BYTES = 12;

/** What a name belongs to (part of its associated data: a folder name cannot become a file's). */
export type RoomItemKind = 'room' | 'folder' | 'file';

const LABELS = {
  names: 'Kuvert room v1 names',
  fileKeys: 'Kuvert room v1 file keys',
  metadata: 'Kuvert room v1 metadata',
} as const;

/** The three AES-256-GCM keys derived from a room key (HKDF-SHA256, empty salt, one label each). */
export interface RoomKeys {
  names: CryptoKey;
  fileKeys: CryptoKey;
  metadata: CryptoKey;
}

export function generateRoomKey(): Uint8Array {
  return randomBytes(ROOM_KEY_BYTES);
}

export async function deriveRoomKeys(roomKey: Uint8Array): Promise<RoomKeys> {
  if (roomKey.length !== ROOM_KEY_BYTES) throw new TypeError(`A room key is ${ROOM_KEY_BYTES} bytes`);
  const derive = async (label: string) => importAesGcmKey(await hkdfSha256({ ikm: roomKey, salt: new Uint8Array(0), info: utf8Encode(label), length: 32 }));
  return { names: await derive(LABELS.names), fileKeys: await derive(LABELS.fileKeys), metadata: await derive(LABELS.metadata) };
}

/** Associated data: the label and the ids joined by "|" (ids are UUIDs / decimal versions, which never hold "|"). */
export function roomAad(label: 'name' | 'file key' | 'metadata' | 'comment' | 'folder labels', ...ids: (string | number)[]): Uint8Array {
  for (const id of ids) if (String(id).includes('|')) throw new TypeError('Room ids cannot contain "|"');
  return utf8Encode([`Kuvert room v1 ${label}`, ...ids.map(String)].join('|'));
}

/** Seals under one of the room's keys (exported for room-comments.ts; the label in `additionalData` keeps uses apart). */
export async function sealRoomBytes(key: CryptoKey, plaintext: Uint8Array, additionalData: Uint8Array, iv: Uint8Array = randomBytes(IV_BYTES)): Promise<string> {
  const ciphertext = await aesGcmEncrypt({ key, iv, plaintext, additionalData });
  return ROOM_SEALED_PREFIX + toBase64Url(concatBytes(iv, ciphertext));
}

/** null when it does not open (changed, moved, or not a sealed string). */
export async function openRoomBytes(key: CryptoKey, sealed: string, additionalData: Uint8Array): Promise<Uint8Array | null> {
  if (typeof sealed !== 'string' || !sealed.startsWith(ROOM_SEALED_PREFIX)) return null;
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(sealed.slice(ROOM_SEALED_PREFIX.length));
  } catch {
    return null;
  }
  if (bytes.length < IV_BYTES + 16) return null;
  return aesGcmDecrypt({ key, iv: bytes.subarray(0, IV_BYTES), ciphertext: bytes.subarray(IV_BYTES), additionalData });
}

export interface RoomItemRef {
  roomId: string;
  kind: RoomItemKind;
  /** The room's, folder's or file's UUID. */
  itemId: string;
}

/** A room, folder or file name, NFC-normalised, sealed to its item. `iv` only for known-answer vectors. */
export async function encryptRoomName(keys: RoomKeys, ref: RoomItemRef, name: string, iv?: Uint8Array): Promise<string> {
  return sealRoomBytes(keys.names, utf8Encode(name.normalize('NFC')), roomAad('name', ref.roomId, ref.kind, ref.itemId), iv);
}

/** RoomNameInvalidError when the name was changed, or moved from another item. */
export async function decryptRoomName(keys: RoomKeys, ref: RoomItemRef, sealed: string): Promise<string> {
  const plaintext = await openRoomBytes(keys.names, sealed, roomAad('name', ref.roomId, ref.kind, ref.itemId));
  if (!plaintext) throw new RoomNameInvalidError(`The ${ref.kind} name does not decrypt for this item (changed or moved)`);
  return utf8Decode(plaintext);
}

export interface RoomFileRef {
  roomId: string;
  fileId: string;
  /** The file's version number (1, 2, …): every version has its own file key. */
  version: number;
}

export async function wrapRoomFileKey(keys: RoomKeys, ref: RoomFileRef, fileKey: Uint8Array, iv?: Uint8Array): Promise<string> {
  if (fileKey.length !== FILE_KEY_BYTES) throw new TypeError(`A file key is ${FILE_KEY_BYTES} bytes`);
  return sealRoomBytes(keys.fileKeys, fileKey, roomAad('file key', ref.roomId, ref.fileId, ref.version), iv);
}

/** RoomFileKeyUnwrapError for a changed copy, or one of another file or version (a swapped key). */
export async function unwrapRoomFileKey(keys: RoomKeys, ref: RoomFileRef, wrapped: string): Promise<Uint8Array> {
  const fileKey = await openRoomBytes(keys.fileKeys, wrapped, roomAad('file key', ref.roomId, ref.fileId, ref.version));
  if (!fileKey || fileKey.length !== FILE_KEY_BYTES) throw new RoomFileKeyUnwrapError('The file key does not open for this file and version (changed or swapped)');
  return fileKey;
}

/** What the uploader signs about one file version. */
export interface RoomFileMetadata {
  /** 2: `contentCommitment` (written since issue 35); 1: `contentSha256` (older files, still read). */
  format: 1 | 2;
  roomId: string;
  fileId: string;
  version: number;
  name: string;
  /** Plaintext bytes. */
  size: number;
  mimeType?: string;
  /** base64url SHA-256 of the stream header (49 bytes): the decoder checks it. */
  headerSha256: string;
  /** Format 1 only: base64url SHA-256 of the whole plaintext. */
  contentSha256?: string;
  /** Format 2 only: base64url content commitment over the per-record hashes (content-commitment.ts). */
  contentCommitment?: string;
  uploaderUserId: string;
  /** Lower case. */
  uploaderEmail: string;
  /** Key id of the uploader's signing key. */
  signerKeyId: string;
  /** ISO 8601. */
  createdAt: string;
  /**
   * Counts every signed state of the file (README section 7 "Version chain"): 1 for a new file, the
   * previous state's + 1 for a new version or a rename's re-signing. Absent: a legacy file (counter 0).
   */
  counter?: number;
  /** base64url SHA-256 of the previous version's signed metadata bytes (`roomMetadataSha256`); absent for version 1 and legacy files. */
  previousSha256?: string;
  /**
   * The version of the room's signed member list the signer wrote under (README section 7 "Roles at
   * signing time"): the reader checks her role in that list. Absent: unbound (legacy files, rooms
   * without a verified list) — checked against the latest list.
   */
  memberListVersion?: number;
  /**
   * SPEC §4 classification and file status (README section 7 "Classification and file status"),
   * signed with the rest. Absent: `none` (files signed before issue 31 §1 verify unchanged).
   */
  classification?: RoomMetadataClassification;
  status?: RoomMetadataStatus;
}

/** The SPEC §4 values (shared/contract ROOM_CLASSIFICATIONS and ROOM_FILE_STATUSES; crypto imports no contract). */
export const ROOM_METADATA_CLASSIFICATIONS = ['none', 'public', 'internal', 'private', 'confidential'] as const;
export type RoomMetadataClassification = (typeof ROOM_METADATA_CLASSIFICATIONS)[number];
export const ROOM_METADATA_STATUSES = ['none', 'toDo', 'inProgress', 'done', 'rejected'] as const;
export type RoomMetadataStatus = (typeof ROOM_METADATA_STATUSES)[number];

export interface SignedRoomFileMetadata {
  metadata: RoomFileMetadata;
  /** ECDSA P-256/SHA-256 over UTF-8(canonicalJson(metadata)), P1363 (r ‖ s), base64url. */
  signature: string;
}

const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** Signs the metadata with the uploader's key and seals the signed form under the room's metadata key. */
export async function sealRoomFileMetadata(keys: RoomKeys, metadata: RoomFileMetadata, signingKey: CryptoKey, iv?: Uint8Array): Promise<string> {
  const signature = new Uint8Array(await subtle().sign(ECDSA_SHA256, signingKey, utf8Encode(canonicalJson(metadata)) as Uint8Array<ArrayBuffer>));
  const signed: SignedRoomFileMetadata = { metadata, signature: toBase64Url(signature) };
  return sealRoomBytes(keys.metadata, utf8Encode(JSON.stringify(signed)), roomAad('metadata', metadata.roomId, metadata.fileId, metadata.version), iv);
}

/** Decrypts and shape-checks (NOT yet verified: the reader fetches and pin-checks the key `signerKeyId` names first). */
export async function openRoomFileMetadata(keys: RoomKeys, ref: RoomFileRef, sealed: string): Promise<SignedRoomFileMetadata> {
  const plaintext = await openRoomBytes(keys.metadata, sealed, roomAad('metadata', ref.roomId, ref.fileId, ref.version));
  if (!plaintext) throw new RoomMetadataInvalidError('The file metadata does not decrypt for this file and version');
  let signed: SignedRoomFileMetadata;
  try {
    signed = JSON.parse(utf8Decode(plaintext)) as SignedRoomFileMetadata;
  } catch {
    throw new RoomMetadataInvalidError('The file metadata is not JSON');
  }
  const m = signed?.metadata as Partial<RoomFileMetadata> | undefined;
  const strings = ['roomId', 'fileId', 'name', 'headerSha256', 'uploaderUserId', 'uploaderEmail', 'signerKeyId', 'createdAt'] as const;
  // Who signed and for whom are never empty (an empty signer is refused here, not read as "unsigned").
  const named = ['uploaderUserId', 'signerKeyId'] as const;
  if (typeof m !== 'object' || m === null || !hasContentOfItsFormat(m) || typeof signed.signature !== 'string' || !strings.every((key) => typeof m[key] === 'string')
    || !named.every((key) => (m[key] as string).length > 0)
    || !Number.isSafeInteger(m.size) || !Number.isSafeInteger(m.version)
    // The chain fields are optional (legacy files have neither), but never of another shape.
    || (m.counter !== undefined && (!Number.isSafeInteger(m.counter) || m.counter < 1))
    || (m.previousSha256 !== undefined && (typeof m.previousSha256 !== 'string' || m.previousSha256.length !== 43))
    || (m.memberListVersion !== undefined && (!Number.isSafeInteger(m.memberListVersion) || m.memberListVersion < 1))
    || (m.classification !== undefined && !(ROOM_METADATA_CLASSIFICATIONS as readonly unknown[]).includes(m.classification))
    || (m.status !== undefined && !(ROOM_METADATA_STATUSES as readonly unknown[]).includes(m.status))) {
    throw new RoomMetadataInvalidError('The file metadata lacks a field or has an unknown format');
  }
  return signed;
}

/** Format 1 carries exactly `contentSha256`, format 2 exactly `contentCommitment` (43 base64url characters: 32 bytes). */
function hasContentOfItsFormat(m: Partial<RoomFileMetadata>): boolean {
  if (m.format === 1) return typeof m.contentSha256 === 'string' && m.contentCommitment === undefined;
  if (m.format === 2) return typeof m.contentCommitment === 'string' && /^[A-Za-z0-9_-]{43}$/.test(m.contentCommitment) && m.contentSha256 === undefined;
  return false;
}

/** What a whole-file read checks the plaintext against (service `decryptStream`/`decryptDownload`), by the metadata's format. */
export function signedContentOf(m: RoomFileMetadata): { expectedContentSha256: string } | { expectedContentCommitment: string } {
  if (m.format === 2 && m.contentCommitment !== undefined) return { expectedContentCommitment: m.contentCommitment };
  if (m.format === 1 && m.contentSha256 !== undefined) return { expectedContentSha256: m.contentSha256 };
  throw new RoomMetadataInvalidError('The file metadata lacks its content hash');
}

/** Room roles that may write (SPEC §6: upload, new version, rename); VIEWER and PREVIEWER may not. */
export const ROOM_WRITER_ROLES: readonly string[] = ['OWNER', 'EDITOR'];

/** What the reader knows from elsewhere and the signed metadata must agree with (name: the decrypted item name; size: the server's plaintext size). */
export interface RoomMetadataExpectation extends RoomFileRef {
  name?: string;
  size?: number;
  uploaderUserId?: string;
  /**
   * The holder of the pinned key that signed, with her role in the room now (strongest of room and
   * folder entries; null: no longer a member). A role that cannot write is refused (README section 7
   * "The signer of a file"; the role is the server's word until the member list is signed).
   */
  signer?: { userId: string; role: string | null };
  /**
   * The signer's role in the member list the metadata is bound to (`memberListVersion`, README section
   * 7 "Roles at signing time"), as the reader verified that list: `version` must be the signed one, and
   * a role that could not write then — null: not a member then — is refused (`room-signer-not-writer-then`).
   * Given, it replaces `signer.role`.
   */
  signerAtSigning?: { memberListVersion: number; role: string | null };
}

/** Verifies the signature with the (pinned) signing key, then every expectation; returns the metadata. */
export async function verifyRoomFileMetadata(signed: SignedRoomFileMetadata, verifyingKey: CryptoKey, expected: RoomMetadataExpectation): Promise<RoomFileMetadata> {
  let valid = false;
  try {
    const bytes = utf8Encode(canonicalJson(signed.metadata));
    valid = await subtle().verify(ECDSA_SHA256, verifyingKey, fromBase64Url(signed.signature) as Uint8Array<ArrayBuffer>, bytes as Uint8Array<ArrayBuffer>);
  } catch {
    valid = false;
  }
  if (!valid) throw new RoomMetadataSignatureError('The file metadata signature does not verify with the uploader\'s key');
  const m = signed.metadata;
  const checks: [string, unknown, unknown][] = [
    ['roomId', m.roomId, expected.roomId],
    ['fileId', m.fileId, expected.fileId],
    ['version', m.version, expected.version],
    ['name', m.name, expected.name === undefined ? undefined : expected.name.normalize('NFC')],
    ['size', m.size, expected.size],
    ['uploaderUserId', m.uploaderUserId, expected.uploaderUserId],
  ];
  for (const [field, signedValue, expectedValue] of checks) {
    if (expectedValue !== undefined && signedValue !== expectedValue) throw new RoomMetadataMismatchError(`The signed ${field} differs from the one shown (${field})`);
  }
  const then = expected.signerAtSigning;
  if (then) {
    if (m.memberListVersion !== then.memberListVersion) throw new RoomMetadataMismatchError('The signed member list version differs from the list the role was read from (memberListVersion)');
    if (then.role === null || !ROOM_WRITER_ROLES.includes(then.role)) {
      throw new RoomSignerNotWriterThenError(`The metadata was signed by someone who could not write under member list ${then.memberListVersion} (${then.role ?? 'not a member'})`);
    }
    return m;
  }
  const signer = expected.signer;
  if (signer && signer.role !== null && !ROOM_WRITER_ROLES.includes(signer.role)) {
    throw new RoomSignerNotWriterError(`The metadata was signed by a member who may not write here (${signer.role})`);
  }
  return m;
}

// ---- version chain (README section 7 "Version chain", issue 28 §2 case 2) ----

/** The counter of a signed state: 0 for a legacy file signed before the chain existed. */
export const roomMetadataCounter = (metadata: Pick<RoomFileMetadata, 'counter'>): number => metadata.counter ?? 0;

/** base64url SHA-256 of UTF-8(canonicalJson(metadata)): exactly the bytes its signature covers. */
export async function roomMetadataSha256(metadata: RoomFileMetadata): Promise<string> {
  return toBase64Url(await sha256(utf8Encode(canonicalJson(metadata))));
}

/** The chain fields of a new version: the current state's counter + 1 and its hash (null: a new file). */
export async function nextVersionLink(current: RoomFileMetadata | null): Promise<{ counter: number; previousSha256?: string }> {
  if (!current) return { counter: 1 };
  return { counter: roomMetadataCounter(current) + 1, previousSha256: await roomMetadataSha256(current) };
}

/** The chain fields of a rename's re-signing: counter + 1, the same previous version (the version does not change). */
export function renameLink(current: RoomFileMetadata): { counter: number; previousSha256?: string } {
  return { counter: roomMetadataCounter(current) + 1, ...(current.previousSha256 === undefined ? {} : { previousSha256: current.previousSha256 }) };
}

/**
 * Checks the verified metadata of one file's versions as the server lists them (any order): for
 * every version whose predecessor (version − 1) is in the list, a chained version's counter is
 * higher and its `previousSha256` is the predecessor's hash; a legacy version (no counter) after a
 * chained one is refused. Versions the list lacks (pruned) cannot be checked.
 */
export async function checkRoomVersionChain(versions: RoomFileMetadata[]): Promise<void> {
  const byVersion = [...versions].sort((x, y) => x.version - y.version);
  for (let i = 1; i < byVersion.length; i++) {
    const previous = byVersion[i - 1]!;
    const next = byVersion[i]!;
    if (next.version === previous.version) throw new RoomVersionChainError(`Version ${next.version} is listed twice`);
    if (next.version !== previous.version + 1) continue;
    if (next.counter === undefined) {
      if (previous.counter !== undefined) throw new RoomVersionChainError(`Version ${next.version} has no counter after a chained version`);
      continue;
    }
    if (next.counter <= roomMetadataCounter(previous)) throw new RoomVersionChainError(`Version ${next.version} does not count up from version ${previous.version}`);
    if (next.previousSha256 !== await roomMetadataSha256(previous)) throw new RoomVersionChainError(`Version ${next.version} does not name version ${previous.version} as its predecessor`);
  }
}
