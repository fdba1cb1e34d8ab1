// The single access point to WebCrypto (DESIGN §1: only shared/crypto touches crypto.subtle).
import { toHex } from './bytes';

/** WebCrypto of the running platform: browsers, workers and Node ≥ 20 all expose `globalThis.crypto`. */
export function subtle(): SubtleCrypto {
  const api = globalThis.crypto?.subtle;
  if (!api) throw new Error('WebCrypto (crypto.subtle) is not available in this context');
  return api;
}

/** getRandomValues is limited to 65,536 bytes per call, so larger requests are filled in slices. */
const RANDOM_SLICE_BYTES = 65_536;

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let offset = 0; offset < length; offset += RANDOM_SLICE_BYTES) {
    globalThis.crypto.getRandomValues(out.subarray(offset, Math.min(length, offset + RANDOM_SLICE_BYTES)));
  }
  return out;
}

export async function sha256(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await subtle().digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

/** SHA-256 as lower-case hex (e.g. the `x-content-sha256` header of an upload part). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(await sha256(bytes));
}

/** HKDF-SHA256 (RFC 5869) to `length` bytes, through WebCrypto. */
export async function hkdfSha256(options: {
  /** The input key: bytes, or a key already imported as HKDF (`importHkdfKey`). */
  ikm: Uint8Array | CryptoKey;
  salt: Uint8Array;
  info: Uint8Array;
  length: number;
}): Promise<Uint8Array<ArrayBuffer>> {
  const key = options.ikm instanceof Uint8Array ? await importHkdfKey(options.ikm) : options.ikm;
  const bits = await subtle().deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: options.salt as Uint8Array<ArrayBuffer>, info: options.info as Uint8Array<ArrayBuffer> },
    key,
    options.length * 8,
  );
  return new Uint8Array(bits);
}

/**
 * Key bytes as a non-extractable HKDF key (deriveBits only): whoever holds it can derive what the
 * bytes derive, never read them. A CryptoKey survives postMessage with that restriction intact.
 */
export async function importHkdfKey(ikm: Uint8Array): Promise<CryptoKey> {
  return subtle().importKey('raw', ikm as Uint8Array<ArrayBuffer>, 'HKDF', false, ['deriveBits']);
}

/** Imports 32 bytes as a non-extractable AES-256-GCM key. */
export async function importAesGcmKey(raw: Uint8Array, usages: KeyUsage[] = ['encrypt', 'decrypt']): Promise<CryptoKey> {
  return subtle().importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'AES-GCM', length: 256 }, false, usages);
}

/** Not `async` (nor aesGcmDecrypt): one promise per call, WebCrypto's mapped, not a second wrapping it; throws still reject. */
export function aesGcmEncrypt(options: {
  key: CryptoKey;
  iv: Uint8Array;
  plaintext: Uint8Array;
  additionalData: Uint8Array;
}): Promise<Uint8Array<ArrayBuffer>> {
  let sealing: Promise<ArrayBuffer>;
  try {
    sealing = subtle().encrypt(
      { name: 'AES-GCM', iv: options.iv as Uint8Array<ArrayBuffer>, additionalData: options.additionalData as Uint8Array<ArrayBuffer>, tagLength: 128 },
      options.key,
      options.plaintext as Uint8Array<ArrayBuffer>,
    );
  } catch (error) {
    return Promise.reject(error as Error);
  }
  return sealing.then(toBytes);
}

/** Resolves to null when the tag does not verify (callers turn that into their own error class). */
export function aesGcmDecrypt(options: {
  key: CryptoKey;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  additionalData: Uint8Array;
}): Promise<Uint8Array<ArrayBuffer> | null> {
  let opening: Promise<ArrayBuffer>;
  try {
    opening = subtle().decrypt(
      { name: 'AES-GCM', iv: options.iv as Uint8Array<ArrayBuffer>, additionalData: options.additionalData as Uint8Array<ArrayBuffer>, tagLength: 128 },
      options.key,
      options.ciphertext as Uint8Array<ArrayBuffer>,
    );
  } catch (_error) {
    return Promise.resolve(null);
  }
  return opening.then(toBytes, () => null);
}

const toBytes = (buffer: ArrayBuffer): Uint8Array<ArrayBuffer> => new Uint8Array(buffer);
