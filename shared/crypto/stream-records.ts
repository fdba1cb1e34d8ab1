// Sealing and opening single records of the streaming format: the content key, the nonce and the
// associated data. The encoder and decoder (stream-encoder.ts, stream-decoder.ts) frame the bytes.
import { utf8Encode } from './bytes';
import {
  STREAM_ALG_AES256GCM_HKDFSHA256,
  STREAM_NONCE_PREFIX_BYTES,
  STREAM_SALT_BYTES,
  STREAM_VERSION,
  DEFAULT_RECORD_SIZE,
  decodeStreamHeader,
  encodeStreamHeader,
  recordNonce,
  type StreamHeader,
} from './stream-format';
import { aesGcmDecrypt, aesGcmEncrypt, hkdfSha256, importAesGcmKey, randomBytes, sha256 } from './subtle';

/** HKDF `info` of the content key; the version in it keeps keys of future formats apart. */
export const CONTENT_KEY_INFO = utf8Encode('Kuvert stream v1 content key');
/**
 * Records sealed/opened concurrently by the stream encoder and decoder. WebCrypto runs AES-GCM off the
 * main thread, so overlapping a few records hides the per-call latency; 3 × 512 KiB keeps memory small.
 */
export const RECORDS_IN_FLIGHT = 3;
/**
 * A file key as the stream code takes it: its 32 bytes, or (the download service worker, web/README
 * "Downloads") the same bytes imported as a non-extractable HKDF key (`importHkdfKey`).
 */
export type FileKeyMaterial = Uint8Array | CryptoKey;

/** File keys are 256-bit (DESIGN §3). */
export const FILE_KEY_BYTES = 32;

/** Everything needed to seal or open the records of one stream. */
export interface StreamContext {
  header: StreamHeader;
  headerBytes: Uint8Array<ArrayBuffer>;
  /** SHA-256(header): the associated data of every record, so no header byte can change unnoticed. */
  headerHash: Uint8Array<ArrayBuffer>;
  /** AES-256-GCM content key, non-extractable. */
  contentKey: CryptoKey;
}

export interface NewStreamOptions {
  recordSize?: number;
  /** NB: only for known-answer vectors; leave unset so a fresh random salt is used. */
  salt?: Uint8Array;
  /** NB: only for known-answer vectors; leave unset so a fresh random prefix is used. */
  noncePrefix?: Uint8Array;
}

/** A context for a new stream: fresh salt and nonce prefix unless given (known-answer tests). */
export async function createEncryptionContext(fileKey: Uint8Array, options: NewStreamOptions = {}): Promise<StreamContext> {
  const header: StreamHeader = {
    version: STREAM_VERSION,
    alg: STREAM_ALG_AES256GCM_HKDFSHA256,
    recordSize: options.recordSize ?? DEFAULT_RECORD_SIZE,
    salt: options.salt ?? randomBytes(STREAM_SALT_BYTES),
    noncePrefix: options.noncePrefix ?? randomBytes(STREAM_NONCE_PREFIX_BYTES),
  };
  return contextFromHeader(fileKey, encodeStreamHeader(header));
}

/** The context of an existing stream from its header bytes (validates the header). */
export async function contextFromHeader(fileKey: FileKeyMaterial, headerBytes: Uint8Array): Promise<StreamContext> {
  if (fileKey instanceof Uint8Array && fileKey.length !== FILE_KEY_BYTES) throw new TypeError(`A file key is ${FILE_KEY_BYTES} bytes`);
  const header = decodeStreamHeader(headerBytes);
  const exactHeader = encodeStreamHeader(header);
  const contentKeyBytes = await hkdfSha256({ ikm: fileKey, salt: header.salt, info: CONTENT_KEY_INFO, length: 32 });
  const contentKey = await importAesGcmKey(contentKeyBytes);
  contentKeyBytes.fill(0);
  return { header, headerBytes: exactHeader, headerHash: await sha256(exactHeader), contentKey };
}

/**
 * Not `async` on purpose (like openRecord): WebCrypto's promise is handed on as it is, not wrapped in a
 * second one that resolves a few microtask turns later — per record, on every stream. A bad index still
 * rejects rather than throws.
 */
export function sealRecord(context: StreamContext, index: number, plaintext: Uint8Array, isFinal: boolean): Promise<Uint8Array<ArrayBuffer>> {
  let iv: Uint8Array;
  try {
    iv = recordNonce(context.header.noncePrefix, index, isFinal);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  return aesGcmEncrypt({ key: context.contentKey, iv, plaintext, additionalData: context.headerHash });
}

/** The plaintext, or null when the record does not authenticate as (index, isFinal). */
export function openRecord(context: StreamContext, index: number, ciphertext: Uint8Array, isFinal: boolean): Promise<Uint8Array<ArrayBuffer> | null> {
  let iv: Uint8Array;
  try {
    iv = recordNonce(context.header.noncePrefix, index, isFinal);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  return aesGcmDecrypt({ key: context.contentKey, iv, ciphertext, additionalData: context.headerHash });
}
