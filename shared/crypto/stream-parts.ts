// Encryption of an upload in independent runs of records (DESIGN §4: a part is 8 whole records),
// so a part can be encrypted on its own: in a pipeline next to the PUTs in flight, and again
// byte-identically after a reload (README "Upload parts"). The bytes are the ordinary stream format.
import { bytesEqual, utf8Encode } from './bytes';
import { StreamHeaderMismatchError, StreamRangeError } from './errors';
import {
  MAX_RECORD_COUNT,
  STREAM_ALG_AES256GCM_HKDFSHA256,
  STREAM_NONCE_PREFIX_BYTES,
  STREAM_SALT_BYTES,
  STREAM_TAG_BYTES,
  STREAM_VERSION,
  assertRecordSize,
  decodeStreamHeader,
  encodeStreamHeader,
} from './stream-format';
import { contextFromHeader, sealRecord, type FileKeyMaterial, type StreamContext } from './stream-records';
import { hkdfSha256 } from './subtle';

/** HKDF `info` of the derived header (salt ‖ nonce prefix); versioned like the content key's. */
export const DERIVED_HEADER_INFO = utf8Encode('Kuvert stream v1 derived header');

/**
 * The header of a file key's upload stream: salt and nonce prefix are HKDF(fileKey) instead of
 * random. Each file key is fresh and random and encrypts exactly one stream, so this is as unique
 * as random values, and whoever holds the key can rebuild the exact header (and so every record).
 */
export async function derivedStreamHeader(fileKey: FileKeyMaterial, recordSize: number): Promise<Uint8Array<ArrayBuffer>> {
  assertRecordSize(recordSize);
  const bytes = await hkdfSha256({ ikm: fileKey, salt: new Uint8Array(0), info: DERIVED_HEADER_INFO, length: STREAM_SALT_BYTES + STREAM_NONCE_PREFIX_BYTES });
  const header = encodeStreamHeader({
    version: STREAM_VERSION,
    alg: STREAM_ALG_AES256GCM_HKDFSHA256,
    recordSize,
    salt: bytes.subarray(0, STREAM_SALT_BYTES),
    noncePrefix: bytes.subarray(STREAM_SALT_BYTES),
  });
  bytes.fill(0);
  return header;
}

/** A data room file's stream (README section 7, reader step 8): its header must be the one its file key derives. */
export async function assertDerivedHeader(fileKey: FileKeyMaterial, header: Uint8Array): Promise<void> {
  if (!bytesEqual(await derivedStreamHeader(fileKey, decodeStreamHeader(header).recordSize), header)) {
    throw new StreamHeaderMismatchError('The stream header is not the one its file key derives: the file key was replaced');
  }
}

export async function derivedEncryptionContext(fileKey: Uint8Array, recordSize: number): Promise<StreamContext> {
  return contextFromHeader(fileKey, await derivedStreamHeader(fileKey, recordSize));
}

export interface RecordRun {
  /** Index of the first record of the run. */
  firstRecord: number;
  /** The plaintext of the run: whole records, only a `final` run may end with a short one. */
  plaintext: Uint8Array;
  /** Whether the run holds the file's final record. */
  final: boolean;
}

/**
 * Seals records `firstRecord …` of one run: header (when the run starts at record 0) ‖ records.
 * Concatenating the runs of a file gives exactly what createEncryptStream writes with the same
 * header. A non-final run must be whole records; the empty file is the final run of record 0 with
 * no plaintext.
 */
export async function sealRecordRun(context: StreamContext, run: RecordRun): Promise<Uint8Array<ArrayBuffer>> {
  const recordSize = context.header.recordSize;
  const { firstRecord, plaintext, final } = run;
  const length = plaintext.length;
  if (!Number.isInteger(firstRecord) || firstRecord < 0) throw new StreamRangeError(`Invalid first record ${firstRecord}`);
  if (!final && (length === 0 || length % recordSize !== 0)) throw new StreamRangeError('A run before the final record must hold whole records');
  if (final && length === 0 && firstRecord !== 0) throw new StreamRangeError('Only the empty file ends with an empty record');
  const records = length === 0 ? 1 : Math.ceil(length / recordSize);
  if (firstRecord + records > MAX_RECORD_COUNT) throw new StreamRangeError('File too large for this record size');
  const lead = firstRecord === 0 ? context.headerBytes.length : 0;
  const out = new Uint8Array(lead + length + records * STREAM_TAG_BYTES);
  if (lead) out.set(context.headerBytes, 0);
  // A run is a part (8 records): sealing them together lets WebCrypto overlap the calls.
  const sealed = await Promise.all(
    Array.from({ length: records }, (_, i) =>
      sealRecord(context, firstRecord + i, plaintext.subarray(i * recordSize, Math.min(length, (i + 1) * recordSize)), final && i === records - 1),
    ),
  );
  let offset = lead;
  for (const record of sealed) {
    out.set(record, offset);
    offset += record.length;
  }
  return out;
}
