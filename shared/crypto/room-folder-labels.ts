// A Secure room folder's classification and status (README section 7 "Folder labels"; issue 31 §1):
// sealed under the room's metadata key, bound to room, folder, signer and signing key, and signed by
// the member who set them, with a counter so an older record cannot pass for a newer one. The server
// stores the sealed string and the signature; it learns neither value.
import { utf8Decode, utf8Encode } from './bytes';
import { RoomMetadataInvalidError, RoomMetadataSignatureError } from './errors';
import { canonicalJson } from './manifest';
import { openRoomBytes, roomAad, ROOM_METADATA_CLASSIFICATIONS, ROOM_METADATA_STATUSES, sealRoomBytes, type RoomKeys, type RoomMetadataClassification, type RoomMetadataStatus } from './room';
import { KEY_ID_SEPARATOR, keyIdOfSignature, signWithKeyId, verifyWithKeyId } from './key-id-signature';

/** The folder the labels belong to and who signed them (the server's signer of the record). */
export interface RoomFolderLabelsRef {
  roomId: string;
  folderId: string;
  signerUserId: string;
}

/** The sealed values. `none` is written as an absent member. */
export interface RoomFolderLabels {
  classification?: RoomMetadataClassification;
  status?: RoomMetadataStatus;
  /** Counts every signed record of this folder: 1 for the first, the previous record's + 1 after. */
  counter: number;
  /** ISO 8601, the signer's clock. */
  signedAt: string;
  /** The signed member list version the signer wrote under (absent: no verified list), as in file metadata. */
  memberListVersion?: number;
}

/** What the reader gets once seal and signature check out. */
export interface RoomFolderLabelsOpened extends RoomFolderLabels {
  format: 1;
  signerKeyId: string;
}

/** The two strings the server stores. */
export interface RoomFolderLabelsWire {
  labels: string;
  /** "<signerKeyId>.<base64url P1363 signature>". */
  signature: string;
}

export const ROOM_FOLDER_LABELS_FORMAT = 1;

const aadOf = (ref: RoomFolderLabelsRef, signerKeyId: string) => roomAad('folder labels', ref.roomId, ref.folderId, ref.signerUserId, signerKeyId);
const signedBytes = (ref: RoomFolderLabelsRef, signerKeyId: string, sealed: string) =>
  utf8Encode(canonicalJson({ format: ROOM_FOLDER_LABELS_FORMAT, roomId: ref.roomId, folderId: ref.folderId, signerUserId: ref.signerUserId, signerKeyId, sealed })) as Uint8Array<ArrayBuffer>;

/** The plaintext, in the documented member order (JSON.stringify keeps insertion order). */
function plaintextOf(labels: RoomFolderLabels): Uint8Array {
  const body = {
    format: ROOM_FOLDER_LABELS_FORMAT,
    ...(labels.classification && labels.classification !== 'none' ? { classification: labels.classification } : {}),
    ...(labels.status && labels.status !== 'none' ? { status: labels.status } : {}),
    counter: labels.counter,
    signedAt: labels.signedAt,
    ...(labels.memberListVersion === undefined ? {} : { memberListVersion: labels.memberListVersion }),
  };
  return utf8Encode(JSON.stringify(body));
}

/** Seals and signs a folder's labels; `iv` only for known-answer vectors. */
export async function sealRoomFolderLabels(keys: RoomKeys, ref: RoomFolderLabelsRef, labels: RoomFolderLabels, signer: { privateKey: CryptoKey; keyId: string }, iv?: Uint8Array): Promise<RoomFolderLabelsWire> {
  if (signer.keyId.length === 0 || signer.keyId.includes(KEY_ID_SEPARATOR)) throw new TypeError('A signing key id is never empty and never holds "."');
  if (!Number.isSafeInteger(labels.counter) || labels.counter < 1) throw new TypeError('The counter is a whole number from 1');
  const sealed = await sealRoomBytes(keys.metadata, plaintextOf(labels), aadOf(ref, signer.keyId), iv);
  return { labels: sealed, signature: await signWithKeyId(signer, signedBytes(ref, signer.keyId, sealed)) };
}

/** The key id a record's signature names: the reader pin-checks that key of the signer first. */
export function roomFolderLabelsSignerKeyId(signature: string): string {
  const keyId = keyIdOfSignature(signature);
  if (keyId === null) throw new RoomMetadataInvalidError('The folder labels signature names no key');
  return keyId;
}

/**
 * Verifies the signer's signature with her (pinned) signing key, then opens and shape-checks the
 * values. A changed record or signature is `room-metadata-signature-invalid`; one moved to another
 * folder or room, or shown under another signer, does not verify either; a record that verifies but
 * does not open, or has an unknown format or value, is `room-metadata-invalid`.
 */
export async function openRoomFolderLabels(keys: RoomKeys, ref: RoomFolderLabelsRef, wire: RoomFolderLabelsWire, verifyingKey: CryptoKey): Promise<RoomFolderLabelsOpened> {
  const signerKeyId = roomFolderLabelsSignerKeyId(wire.signature);
  if (!(await verifyWithKeyId(verifyingKey, wire.signature, signerKeyId, signedBytes(ref, signerKeyId, wire.labels)))) throw new RoomMetadataSignatureError('The folder labels signature does not verify with the signer\'s key for this folder');
  const plaintext = await openRoomBytes(keys.metadata, wire.labels, aadOf(ref, signerKeyId));
  if (!plaintext) throw new RoomMetadataInvalidError('The folder labels do not decrypt for this folder and signer');
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(utf8Decode(plaintext)) as Record<string, unknown>;
  } catch {
    throw new RoomMetadataInvalidError('The folder labels are not JSON');
  }
  const known = new Set(['format', 'classification', 'status', 'counter', 'signedAt', 'memberListVersion']);
  if (typeof body !== 'object' || body === null || body.format !== ROOM_FOLDER_LABELS_FORMAT || Object.keys(body).some((k) => !known.has(k))
    || !Number.isSafeInteger(body.counter) || (body.counter as number) < 1 || typeof body.signedAt !== 'string'
    || (body.memberListVersion !== undefined && (!Number.isSafeInteger(body.memberListVersion) || (body.memberListVersion as number) < 1))
    || (body.classification !== undefined && !(ROOM_METADATA_CLASSIFICATIONS as readonly unknown[]).includes(body.classification))
    || (body.status !== undefined && !(ROOM_METADATA_STATUSES as readonly unknown[]).includes(body.status))) {
    throw new RoomMetadataInvalidError('The folder labels lack a field or have an unknown format');
  }
  return { ...(body as unknown as RoomFolderLabels), format: ROOM_FOLDER_LABELS_FORMAT, signerKeyId };
}
