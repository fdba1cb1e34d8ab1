// File keys: random 256-bit, wrapped to each recipient (and the sender) with HPKE, RFC 9180 base mode,
// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM, through @hpke/core.
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { concatBytes, fromBase64Url, toBase64Url, utf8Encode } from './bytes';
import { FileKeyUnwrapError } from './errors';
import { FILE_KEY_BYTES } from './stream-records';
import { randomBytes } from './subtle';

/** The suite of DESIGN §3 (KEM 0x0010, KDF 0x0001, AEAD 0x0002). */
export function fileKeySuite(): CipherSuite {
  return new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
}

const suite = fileKeySuite();
const INFO_LABEL = 'Kuvert file key v1';

/** What a wrapped file key is bound to: opening it under any other binding fails. */
export interface FileKeyBinding {
  /** Delivery id or data-room id. */
  contextId: string;
  fileId: string;
  /** Key id (keys.ts keyIdOf) of the recipient's encryption key. */
  recipientKeyId: string;
}

export interface WrappedFileKey {
  version: 1;
  recipientKeyId: string;
  /** HPKE encapsulated key (65-byte uncompressed P-256 point), base64url. */
  enc: string;
  /** HPKE ciphertext of the 32-byte file key (+16-byte tag), base64url. */
  ciphertext: string;
}

export function generateFileKey(): Uint8Array {
  return randomBytes(FILE_KEY_BYTES);
}

/** HPKE `info`: label and the three ids, each as u16be length ‖ UTF-8, so no two bindings share bytes. */
export function fileKeyInfo(binding: FileKeyBinding): Uint8Array {
  const field = (text: string) => {
    const bytes = utf8Encode(text);
    if (bytes.length > 0xffff) throw new RangeError('Binding id too long');
    return concatBytes(new Uint8Array([bytes.length >> 8, bytes.length & 0xff]), bytes);
  };
  return concatBytes(field(INFO_LABEL), field(binding.contextId), field(binding.fileId), field(binding.recipientKeyId));
}

/** Wraps a file key to a recipient's ECDH P-256 public key. */
export async function wrapFileKey(options: { fileKey: Uint8Array; recipientPublicKey: CryptoKey; binding: FileKeyBinding }): Promise<WrappedFileKey> {
  if (options.fileKey.length !== FILE_KEY_BYTES) throw new TypeError(`A file key is ${FILE_KEY_BYTES} bytes`);
  const sealed = await suite.seal({ recipientPublicKey: options.recipientPublicKey, info: fileKeyInfo(options.binding) }, options.fileKey);
  return {
    version: 1,
    recipientKeyId: options.binding.recipientKeyId,
    enc: toBase64Url(new Uint8Array(sealed.enc)),
    ciphertext: toBase64Url(new Uint8Array(sealed.ct)),
  };
}

/** Opens a wrapped file key with the recipient's key pair (the private key may be non-extractable). */
export async function unwrapFileKey(options: { wrapped: WrappedFileKey; recipientKeyPair: CryptoKeyPair; binding: FileKeyBinding }): Promise<Uint8Array> {
  try {
    const plaintext = await suite.open(
      { recipientKey: options.recipientKeyPair, enc: fromBase64Url(options.wrapped.enc), info: fileKeyInfo(options.binding) },
      fromBase64Url(options.wrapped.ciphertext),
    );
    const fileKey = new Uint8Array(plaintext);
    if (fileKey.length !== FILE_KEY_BYTES) throw new Error('wrong length');
    return fileKey;
  } catch (_error) {
    throw new FileKeyUnwrapError('The file key does not open with this key for this file');
  }
}
