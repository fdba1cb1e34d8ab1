// Byte layout of the streaming format (DESIGN §3) and the offset arithmetic that fixed-size records
// make possible (ranges, resume). Pure functions: no WebCrypto here. See README "Streaming format".
import { StreamHeaderInvalidError, StreamRangeError } from './errors';

/** "KVRT": lets a reader tell our files from anything else before doing any crypto. */
export const STREAM_MAGIC = new Uint8Array([0x4b, 0x56, 0x52, 0x54]);
export const STREAM_VERSION = 1;
/** Algorithm 1: content key by HKDF-SHA256, records by AES-256-GCM with 128-bit tags. */
export const STREAM_ALG_AES256GCM_HKDFSHA256 = 1;
export const STREAM_SALT_BYTES = 32;
export const STREAM_NONCE_PREFIX_BYTES = 7;
export const STREAM_TAG_BYTES = 16;
/** 4 magic + 1 version + 1 alg + 4 record size + 32 salt + 7 nonce prefix. */
export const STREAM_HEADER_BYTES = 4 + 1 + 1 + 4 + STREAM_SALT_BYTES + STREAM_NONCE_PREFIX_BYTES;
/** 512 KiB plaintext per record: WebCrypto in Chromium slows ~2.3× above ~1 MiB per call (DESIGN §3). */
export const DEFAULT_RECORD_SIZE = 512 * 1024;
/** Smallest record size a header may name (tests use small records to stay fast). */
export const MIN_RECORD_SIZE = 16;
/** Largest record size a header may name: bounds the memory a hostile header can make us allocate. */
export const MAX_RECORD_SIZE = 16 * 1024 * 1024;
/** The record counter is a u32 in the nonce, so a stream has at most 2^32 records. */
export const MAX_RECORD_COUNT = 2 ** 32;

export interface StreamHeader {
  version: number;
  alg: number;
  /** Plaintext bytes per record (every record but the final one is exactly this long). */
  recordSize: number;
  salt: Uint8Array;
  noncePrefix: Uint8Array;
}

export function encodeStreamHeader(header: StreamHeader): Uint8Array<ArrayBuffer> {
  assertRecordSize(header.recordSize);
  if (header.salt.length !== STREAM_SALT_BYTES) throw new TypeError(`salt must be ${STREAM_SALT_BYTES} bytes`);
  if (header.noncePrefix.length !== STREAM_NONCE_PREFIX_BYTES) throw new TypeError(`nonce prefix must be ${STREAM_NONCE_PREFIX_BYTES} bytes`);
  const out = new Uint8Array(STREAM_HEADER_BYTES);
  const view = new DataView(out.buffer);
  out.set(STREAM_MAGIC, 0);
  out[4] = header.version;
  out[5] = header.alg;
  view.setUint32(6, header.recordSize, false);
  out.set(header.salt, 10);
  out.set(header.noncePrefix, 10 + STREAM_SALT_BYTES);
  return out;
}

/** Parses and checks the fixed header; throws StreamHeaderInvalidError for anything not ours. */
export function decodeStreamHeader(bytes: Uint8Array): StreamHeader {
  if (bytes.length < STREAM_HEADER_BYTES) throw new StreamHeaderInvalidError('The stream ends inside its header');
  for (let i = 0; i < STREAM_MAGIC.length; i++) {
    if (bytes[i] !== STREAM_MAGIC[i]) throw new StreamHeaderInvalidError('Not a Kuvert stream (bad magic)');
  }
  const version = bytes[4] ?? 0;
  const alg = bytes[5] ?? 0;
  if (version !== STREAM_VERSION) throw new StreamHeaderInvalidError(`Unsupported stream version ${version}`);
  if (alg !== STREAM_ALG_AES256GCM_HKDFSHA256) throw new StreamHeaderInvalidError(`Unsupported stream algorithm ${alg}`);
  const recordSize = new DataView(bytes.buffer, bytes.byteOffset, STREAM_HEADER_BYTES).getUint32(6, false);
  if (recordSize < MIN_RECORD_SIZE || recordSize > MAX_RECORD_SIZE) {
    throw new StreamHeaderInvalidError(`Record size ${recordSize} outside ${MIN_RECORD_SIZE}..${MAX_RECORD_SIZE}`);
  }
  return {
    version,
    alg,
    recordSize,
    salt: bytes.slice(10, 10 + STREAM_SALT_BYTES),
    noncePrefix: bytes.slice(10 + STREAM_SALT_BYTES, STREAM_HEADER_BYTES),
  };
}

/** nonce = prefix(7) ‖ u32be(index) ‖ lastFlag(1): each (index, final?) pair gets its own nonce. */
export function recordNonce(noncePrefix: Uint8Array, index: number, isFinal: boolean): Uint8Array<ArrayBuffer> {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_RECORD_COUNT) throw new RangeError(`Record index ${index} out of range`);
  const nonce = new Uint8Array(12);
  nonce.set(noncePrefix, 0);
  // Big-endian by hand: a DataView per record was the largest allocation of the coders' own work.
  nonce[7] = index >>> 24;
  nonce[8] = (index >>> 16) & 0xff;
  nonce[9] = (index >>> 8) & 0xff;
  nonce[10] = index & 0xff;
  nonce[11] = isFinal ? 1 : 0;
  return nonce;
}

export function assertRecordSize(recordSize: number): void {
  if (!Number.isInteger(recordSize) || recordSize < MIN_RECORD_SIZE || recordSize > MAX_RECORD_SIZE) {
    throw new RangeError(`Record size must be an integer in ${MIN_RECORD_SIZE}..${MAX_RECORD_SIZE}`);
  }
}

// ---- offsets ----

/** Number of records of a file: the empty file has one (empty, final) record; others have ceil(len / size). */
export function recordCount(plaintextLength: number, recordSize: number): number {
  assertLength(plaintextLength);
  return plaintextLength === 0 ? 1 : Math.ceil(plaintextLength / recordSize);
}

/** Total ciphertext bytes: header + plaintext + one tag per record. */
export function ciphertextLength(plaintextLength: number, recordSize: number): number {
  return STREAM_HEADER_BYTES + plaintextLength + STREAM_TAG_BYTES * recordCount(plaintextLength, recordSize);
}

/** Where record `index` starts in the ciphertext (counting the header). */
export function recordCiphertextOffset(index: number, recordSize: number): number {
  return STREAM_HEADER_BYTES + index * (recordSize + STREAM_TAG_BYTES);
}

/** Plaintext bytes in record `index` of a file of `plaintextLength` bytes. */
export function recordPlaintextLength(index: number, plaintextLength: number, recordSize: number): number {
  const count = recordCount(plaintextLength, recordSize);
  if (!Number.isInteger(index) || index < 0 || index >= count) throw new StreamRangeError(`Record ${index} is not in this file`);
  return index < count - 1 ? recordSize : plaintextLength - index * recordSize;
}

export interface CiphertextRange {
  firstRecord: number;
  /** Inclusive. */
  lastRecord: number;
  /** Byte range of the ciphertext to fetch, end exclusive (an HTTP Range is `bytes=start-(end-1)`). */
  ciphertextStart: number;
  ciphertextEnd: number;
  /** Plaintext bytes to drop from the first decrypted record to land on `start`. */
  skipPlaintextBytes: number;
}

/** Ciphertext records that hold plaintext bytes [start, end) (end exclusive). */
export function ciphertextRangeForPlaintext(options: {
  start: number;
  end: number;
  plaintextLength: number;
  recordSize: number;
}): CiphertextRange {
  const { start, end, plaintextLength, recordSize } = options;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start || end > plaintextLength) {
    throw new StreamRangeError(`Plaintext range [${start}, ${end}) is not inside a file of ${plaintextLength} bytes`);
  }
  const firstRecord = Math.floor(start / recordSize);
  const lastRecord = Math.floor((end - 1) / recordSize);
  const count = recordCount(plaintextLength, recordSize);
  const ciphertextEnd = lastRecord === count - 1 ? ciphertextLength(plaintextLength, recordSize) : recordCiphertextOffset(lastRecord + 1, recordSize);
  return {
    firstRecord,
    lastRecord,
    ciphertextStart: recordCiphertextOffset(firstRecord, recordSize),
    ciphertextEnd,
    skipPlaintextBytes: start - firstRecord * recordSize,
  };
}

export interface ResumePoint {
  /** Records completely received (they can be kept). */
  completeRecords: number;
  /** Plaintext bytes those records hold. */
  plaintextBytes: number;
  /** Ciphertext offset to continue from (a `Range: bytes=N-` request or the next upload offset). */
  ciphertextOffset: number;
}

/** Where to resume after `ciphertextBytesReceived` bytes of a file of `plaintextLength` bytes arrived. */
export function resumePoint(options: { ciphertextBytesReceived: number; plaintextLength: number; recordSize: number }): ResumePoint {
  const { ciphertextBytesReceived, plaintextLength, recordSize } = options;
  const total = ciphertextLength(plaintextLength, recordSize);
  const count = recordCount(plaintextLength, recordSize);
  if (ciphertextBytesReceived >= total) return { completeRecords: count, plaintextBytes: plaintextLength, ciphertextOffset: total };
  if (ciphertextBytesReceived < STREAM_HEADER_BYTES) return { completeRecords: 0, plaintextBytes: 0, ciphertextOffset: 0 };
  const completeRecords = Math.min(count - 1, Math.floor((ciphertextBytesReceived - STREAM_HEADER_BYTES) / (recordSize + STREAM_TAG_BYTES)));
  return {
    completeRecords,
    plaintextBytes: completeRecords * recordSize,
    ciphertextOffset: recordCiphertextOffset(completeRecords, recordSize),
  };
}

function assertLength(plaintextLength: number): void {
  if (!Number.isSafeInteger(plaintextLength) || plaintextLength < 0) throw new StreamRangeError(`Invalid plaintext length ${plaintextLength}`);
}
