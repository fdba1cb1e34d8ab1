// Comments in end-to-end encrypted data rooms (README section 7 "Comments"; issue 31 §1): the text is
// sealed under the room's metadata key, bound to room, item, author and signing key, and the author
// signs the sealed string with the same binding. The server stores both and learns neither the text
// nor anything a guess could be checked against (the signature covers the ciphertext, not the text).
import { utf8Decode, utf8Encode } from './bytes';
import { RoomCommentInvalidError } from './errors';
import { canonicalJson } from './manifest';
import { openRoomBytes, roomAad, sealRoomBytes, type RoomKeys } from './room';
import { KEY_ID_SEPARATOR, keyIdOfSignature, signWithKeyId, verifyWithKeyId } from './key-id-signature';

/** The item a comment is about and who wrote it (the server's author of the comment row). */
export interface RoomCommentRef {
  roomId: string;
  kind: 'folder' | 'file';
  itemId: string;
  authorUserId: string;
}

/** What the reader gets once sealed text and signature check out. */
export interface RoomCommentOpened {
  text: string;
  /** ISO 8601: when the author sealed this text (an edit seals anew). */
  writtenAt: string;
  signerKeyId: string;
}


const aadOf = (ref: RoomCommentRef, signerKeyId: string) => roomAad('comment', ref.roomId, ref.kind, ref.itemId, ref.authorUserId, signerKeyId);
const signedBytes = (ref: RoomCommentRef, signerKeyId: string, sealed: string) =>
  utf8Encode(canonicalJson({ format: 1, roomId: ref.roomId, kind: ref.kind, itemId: ref.itemId, authorUserId: ref.authorUserId, signerKeyId, sealed })) as Uint8Array<ArrayBuffer>;

/** Seals and signs a comment; `text` and `signature` are what the comment routes take. `iv` only for known-answer vectors. */
export async function sealRoomComment(
  keys: RoomKeys,
  ref: RoomCommentRef,
  comment: { text: string; writtenAt: string },
  signer: { privateKey: CryptoKey; keyId: string },
  iv?: Uint8Array,
): Promise<{ text: string; signature: string }> {
  if (signer.keyId.includes(KEY_ID_SEPARATOR)) throw new TypeError('A signing key id never holds "."');
  const plaintext = utf8Encode(JSON.stringify({ format: 1, text: comment.text.normalize('NFC'), writtenAt: comment.writtenAt }));
  const sealed = await sealRoomBytes(keys.metadata, plaintext, aadOf(ref, signer.keyId), iv);
  return { text: sealed, signature: await signWithKeyId(signer, signedBytes(ref, signer.keyId, sealed)) };
}

/** The key id a comment's signature names: the reader pin-checks that key of the author before openRoomComment. */
export function roomCommentSignerKeyId(signature: string): string {
  const keyId = keyIdOfSignature(signature);
  if (keyId === null) throw new RoomCommentInvalidError('The comment signature names no key');
  return keyId;
}

/**
 * Verifies the author's signature with her (pinned) signing key, then opens the text: a comment
 * changed, moved to another item or room, or shown under another author is RoomCommentInvalidError.
 */
export async function openRoomComment(keys: RoomKeys, ref: RoomCommentRef, wire: { text: string; signature: string }, verifyingKey: CryptoKey): Promise<RoomCommentOpened> {
  const signerKeyId = roomCommentSignerKeyId(wire.signature);
  if (!(await verifyWithKeyId(verifyingKey, wire.signature, signerKeyId, signedBytes(ref, signerKeyId, wire.text)))) throw new RoomCommentInvalidError('The comment signature does not verify with the author\'s key');
  const plaintext = await openRoomBytes(keys.metadata, wire.text, aadOf(ref, signerKeyId));
  if (!plaintext) throw new RoomCommentInvalidError('The comment does not decrypt for this item and author');
  let body: { format?: unknown; text?: unknown; writtenAt?: unknown };
  try {
    body = JSON.parse(utf8Decode(plaintext)) as typeof body;
  } catch {
    throw new RoomCommentInvalidError('The comment is not JSON');
  }
  if (body?.format !== 1 || typeof body.text !== 'string' || typeof body.writtenAt !== 'string') throw new RoomCommentInvalidError('The comment has an unknown format');
  return { text: body.text, writtenAt: body.writtenAt, signerKeyId };
}
