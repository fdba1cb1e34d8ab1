// The user's contact pins as one list, signed with the user's own signing key and encrypted to the
// user's own encryption key (DESIGN §9 "Contact pins"), so the server stores it for every device
// and cannot read it, change it, or hand another user's list over unnoticed (README section 6).
import { fromBase64Url, toBase64Url, utf8Decode, utf8Encode } from './bytes';
import { ContactPinsInvalidError } from './errors';
import { generateFileKey, unwrapFileKey, wrapFileKey, type WrappedFileKey } from './file-key';
import { canonicalJson } from './manifest';
import { subtle, randomBytes } from './subtle';

/** The list itself: the KeyPinStore entries (contact id → fingerprint, hex) and what the user verified. */
export interface ContactPinList {
  format: 1;
  /** The owner's user UUID: a list of another user is refused. */
  ownerUserId: string;
  /** Increases by one with every saved change; readers refuse a lower one than they saw (rollback). */
  counter: number;
  /** ISO 8601. */
  updatedAt: string;
  /** Contact id (`<userUuid>:encryption|signing`, `…:previous:<fingerprint>`) → fingerprint (hex). */
  pins: Record<string, string>;
  /** Contact id → the fingerprint the user verified in person (fingerprint comparison or QR code). */
  verified: Record<string, string>;
  /**
   * E2E room file UUID → the highest metadata counter any of the user's devices saw as current
   * (README section 7 "Version chain"): an older one is a rollback. At most FILE_COUNTERS_MAX,
   * the least recently raised first (dropped first). Absent in lists saved before it existed.
   */
  fileCounters?: Record<string, number>;
  /**
   * E2E room UUID → the highest signed member list version any of the user's devices accepted as
   * the room's latest (README section 7 "The highest list version seen"): an older one is a
   * rollback. At most MEMBER_LIST_VERSIONS_MAX, the least recently raised dropped first. Absent
   * in lists saved before it existed.
   */
  memberListVersions?: Record<string, number>;
}

/** How many files' highest counters the list keeps (~45 bytes each, some 225 kB in all). */
export const FILE_COUNTERS_MAX = 5000;
/** How many rooms' highest member list versions the list keeps (~45 bytes each, some 45 kB in all). */
export const MEMBER_LIST_VERSIONS_MAX = 1000;

/** What the server stores (JSON). */
export interface SealedContactPins {
  format: 1;
  counter: number;
  /** Key id of the owner's signing key that signed the list. */
  signerKeyId: string;
  /** The list key, HPKE-wrapped to the owner's encryption key (binding: README section 6). */
  wrappedKey: WrappedFileKey;
  /** 12 bytes, base64url. */
  iv: string;
  /** AES-256-GCM(listKey, iv, UTF-8(JSON { list, signature }), AAD) ‖ tag, base64url. */
  ciphertext: string;
}

export const CONTACT_PINS_FILE_ID = 'contact-pins';
export const contactPinsContextId = (ownerUserId: string): string => `contact-pins:${ownerUserId}`;
/** AAD of the list's AES-GCM: binds the ciphertext to its owner and counter. */
export const contactPinsAad = (ownerUserId: string, counter: number): Uint8Array => utf8Encode(`Kuvert contact pins v1|${ownerUserId}|${counter}`);

const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

export async function sealContactPins(options: {
  list: ContactPinList;
  signingKey: CryptoKey;
  signerKeyId: string;
  encryptionPublicKey: CryptoKey;
  encryptionKeyId: string;
}): Promise<SealedContactPins> {
  const { list } = options;
  if (!Number.isSafeInteger(list.counter) || list.counter < 1) throw new ContactPinsInvalidError('The counter starts at 1');
  const signature = new Uint8Array(await subtle().sign(ECDSA_SHA256, options.signingKey, utf8Encode(canonicalJson(list)) as Uint8Array<ArrayBuffer>));
  const listKey = generateFileKey();
  try {
    const wrappedKey = await wrapFileKey({
      fileKey: listKey,
      recipientPublicKey: options.encryptionPublicKey,
      binding: { contextId: contactPinsContextId(list.ownerUserId), fileId: CONTACT_PINS_FILE_ID, recipientKeyId: options.encryptionKeyId },
    });
    const iv = randomBytes(12);
    const key = await subtle().importKey('raw', listKey as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt']);
    const plaintext = utf8Encode(JSON.stringify({ list, signature: toBase64Url(signature) }));
    const ciphertext = new Uint8Array(
      await subtle().encrypt({ name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer>, additionalData: contactPinsAad(list.ownerUserId, list.counter) as Uint8Array<ArrayBuffer> }, key, plaintext as Uint8Array<ArrayBuffer>),
    );
    return { format: 1, counter: list.counter, signerKeyId: options.signerKeyId, wrappedKey, iv: toBase64Url(iv), ciphertext: toBase64Url(ciphertext) };
  } finally {
    listKey.fill(0);
  }
}

/**
 * Opens the owner's list: unwraps the list key (bound to owner and key), decrypts (AAD: owner and
 * the envelope's counter), verifies the signature with the owner's signing key and that the list
 * names this owner and the same counter. Any failure: ContactPinsInvalidError (the server changed,
 * swapped or forged it). Rollback (an older, valid list) is the caller's check: it knows the last counter seen.
 */
export async function openContactPins(options: {
  sealed: SealedContactPins;
  ownerUserId: string;
  encryptionKeyPair: CryptoKeyPair;
  encryptionKeyId: string;
  verifyingKey: CryptoKey;
}): Promise<ContactPinList> {
  const { sealed, ownerUserId } = options;
  if (sealed?.format !== 1 || !Number.isSafeInteger(sealed.counter) || sealed.counter < 1) throw new ContactPinsInvalidError('Not a contact pin list of a version we read');
  let listKey: Uint8Array;
  try {
    listKey = await unwrapFileKey({
      wrapped: sealed.wrappedKey,
      recipientKeyPair: options.encryptionKeyPair,
      binding: { contextId: contactPinsContextId(ownerUserId), fileId: CONTACT_PINS_FILE_ID, recipientKeyId: options.encryptionKeyId },
    });
  } catch (_error) {
    throw new ContactPinsInvalidError('The list key does not open with your key');
  }
  let parsed: { list: ContactPinList; signature: string };
  try {
    const key = await subtle().importKey('raw', listKey as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['decrypt']);
    const plaintext = await subtle().decrypt(
      { name: 'AES-GCM', iv: fromBase64Url(sealed.iv) as Uint8Array<ArrayBuffer>, additionalData: contactPinsAad(ownerUserId, sealed.counter) as Uint8Array<ArrayBuffer> },
      key,
      fromBase64Url(sealed.ciphertext) as Uint8Array<ArrayBuffer>,
    );
    parsed = JSON.parse(utf8Decode(new Uint8Array(plaintext))) as { list: ContactPinList; signature: string };
  } catch (_error) {
    throw new ContactPinsInvalidError('The list does not decrypt');
  } finally {
    listKey.fill(0);
  }
  let valid = false;
  try {
    valid = await subtle().verify(ECDSA_SHA256, options.verifyingKey, fromBase64Url(parsed.signature) as Uint8Array<ArrayBuffer>, utf8Encode(canonicalJson(parsed.list)) as Uint8Array<ArrayBuffer>);
  } catch (_error) {
    valid = false;
  }
  if (!valid) throw new ContactPinsInvalidError('The list signature does not verify with your signing key');
  const list = parsed.list;
  if (list.format !== 1 || list.ownerUserId !== ownerUserId || list.counter !== sealed.counter) throw new ContactPinsInvalidError('The list belongs to another user or counter');
  if (typeof list.pins !== 'object' || list.pins === null || typeof list.verified !== 'object' || list.verified === null) throw new ContactPinsInvalidError('The list has no pins');
  if (list.fileCounters !== undefined && (typeof list.fileCounters !== 'object' || list.fileCounters === null || !Object.values(list.fileCounters).every((n) => Number.isSafeInteger(n) && n >= 1))) {
    throw new ContactPinsInvalidError('The list has malformed file counters');
  }
  if (list.memberListVersions !== undefined && (typeof list.memberListVersions !== 'object' || list.memberListVersions === null || !Object.values(list.memberListVersions).every((n) => Number.isSafeInteger(n) && n >= 1))) {
    throw new ContactPinsInvalidError('The list has malformed member list versions');
  }
  return list;
}
