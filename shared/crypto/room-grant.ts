// Signed room-key copies (README section 7 "Who made my copy of the room key"): the member who
// grants a copy (the creator for her own, an OWNER for others) signs which room, key epoch,
// recipient and wrapped key it is; the recipient checks it against the granter's pinned key before
// she encrypts anything under the room key. Without it the server could hand her a room key of its
// own making and read her next upload.
import { fromBase64Url, toBase64Url, utf8Encode } from './bytes';
import { RoomKeyGrantInvalidError } from './errors';
import type { WrappedFileKey } from './file-key';
import { canonicalJson } from './manifest';
import { sha256, subtle } from './subtle';

/** The room key's epoch: 1 for every room (a room key is not rotated); a later rotation counts up. */
export const ROOM_KEY_EPOCH = 1;

export interface RoomKeyGrant {
  format: 1;
  roomId: string;
  epoch: number;
  /** The member the copy is for (user UUID) and her encryption key id (the HPKE recipient). */
  recipientUserId: string;
  recipientKeyId: string;
  /** base64url SHA-256 of UTF-8(canonicalJson(wrapped copy)): binds the signature to this copy. */
  wrappedKeySha256: string;
  /** Who granted (user UUID) and the key id of her signing key. */
  granterUserId: string;
  signerKeyId: string;
  /** ISO 8601. */
  createdAt: string;
}

export interface SignedRoomKeyGrant {
  grant: RoomKeyGrant;
  /** ECDSA P-256/SHA-256 over UTF-8(canonicalJson(grant)), P1363 (r ‖ s), base64url. */
  signature: string;
}

const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

export async function wrappedRoomKeySha256(wrapped: WrappedFileKey): Promise<string> {
  return toBase64Url(await sha256(utf8Encode(canonicalJson(wrapped))));
}

export async function signRoomKeyGrant(
  input: { roomId: string; epoch: number; recipientUserId: string; wrapped: WrappedFileKey; granterUserId: string; createdAt: string },
  signing: { privateKey: CryptoKey; keyId: string },
): Promise<SignedRoomKeyGrant> {
  const grant: RoomKeyGrant = {
    format: 1,
    roomId: input.roomId,
    epoch: input.epoch,
    recipientUserId: input.recipientUserId,
    recipientKeyId: input.wrapped.recipientKeyId,
    wrappedKeySha256: await wrappedRoomKeySha256(input.wrapped),
    granterUserId: input.granterUserId,
    signerKeyId: signing.keyId,
    createdAt: input.createdAt,
  };
  const signature = new Uint8Array(await subtle().sign(ECDSA_SHA256, signing.privateKey, utf8Encode(canonicalJson(grant)) as Uint8Array<ArrayBuffer>));
  return { grant, signature: toBase64Url(signature) };
}

/** What the recipient knows: her room, the epoch she expects, herself, the copy the server served, and who the server says granted it. */
export interface RoomKeyGrantExpectation {
  roomId: string;
  epoch: number;
  recipientUserId: string;
  wrapped: WrappedFileKey;
  granterUserId: string;
}

/** RoomKeyGrantInvalidError unless the grant is well-formed, verifies with the granter's (pinned) key and names exactly this copy. */
export async function verifyRoomKeyGrant(signed: SignedRoomKeyGrant, verifyingKey: CryptoKey, expected: RoomKeyGrantExpectation): Promise<RoomKeyGrant> {
  const g = signed?.grant as Partial<RoomKeyGrant> | undefined;
  const strings = ['roomId', 'recipientUserId', 'recipientKeyId', 'wrappedKeySha256', 'granterUserId', 'signerKeyId', 'createdAt'] as const;
  if (typeof g !== 'object' || g === null || g.format !== 1 || typeof signed.signature !== 'string' || !Number.isSafeInteger(g.epoch) || !strings.every((key) => typeof g[key] === 'string' && g[key].length > 0)) {
    throw new RoomKeyGrantInvalidError('The room-key grant lacks a field or has an unknown format');
  }
  const grant = g as RoomKeyGrant;
  let valid = false;
  try {
    valid = await subtle().verify(ECDSA_SHA256, verifyingKey, fromBase64Url(signed.signature) as Uint8Array<ArrayBuffer>, utf8Encode(canonicalJson(grant)) as Uint8Array<ArrayBuffer>);
  } catch {
    valid = false;
  }
  if (!valid) throw new RoomKeyGrantInvalidError('The room-key grant signature does not verify with the granter\'s key');
  const checks: [string, unknown, unknown][] = [
    ['roomId', grant.roomId, expected.roomId],
    ['epoch', grant.epoch, expected.epoch],
    ['recipientUserId', grant.recipientUserId, expected.recipientUserId],
    ['recipientKeyId', grant.recipientKeyId, expected.wrapped.recipientKeyId],
    ['wrappedKeySha256', grant.wrappedKeySha256, await wrappedRoomKeySha256(expected.wrapped)],
    ['granterUserId', grant.granterUserId, expected.granterUserId],
  ];
  for (const [field, signedValue, expectedValue] of checks) {
    if (signedValue !== expectedValue) throw new RoomKeyGrantInvalidError(`The room-key grant names another ${field}`);
  }
  return grant;
}
