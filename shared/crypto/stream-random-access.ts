// Random access: decrypt a run of records fetched with an HTTP Range (or read from a resumed download)
// without touching the rest of the file. Offsets come from stream-format.ts.
import { bytesEqual, concatBytes } from './bytes';
import { StreamEmptyFinalRecordError, StreamHeaderMismatchError, StreamRangeError, StreamRecordCorruptedError, StreamTruncatedError } from './errors';
import { STREAM_TAG_BYTES, ciphertextRangeForPlaintext, decodeStreamHeader, recordCount, recordPlaintextLength } from './stream-format';
import { contextFromHeader, openRecord } from './stream-records';

export interface DecryptRecordRangeOptions {
  /** IMPORTANT: secret. */
  fileKey: Uint8Array;
  /** The file's header (its first STREAM_HEADER_BYTES bytes). */
  headerBytes: Uint8Array;
  expectedHeaderHash?: Uint8Array;
  /** Needed to know which record is the final one and how long it is. */
  plaintextLength: number;
  firstRecord: number;
  /** Ciphertext of records firstRecord, firstRecord+1, … back to back (whole records only). */
  ciphertext: Uint8Array;
}

/** Plaintext of the whole records in `ciphertext`, each checked at its own index and final flag. */
export async function decryptRecordRange(options: DecryptRecordRangeOptions): Promise<Uint8Array> {
  const context = await contextFromHeader(options.fileKey, options.headerBytes);
  if (options.expectedHeaderHash && !bytesEqual(context.headerHash, options.expectedHeaderHash)) {
    throw new StreamHeaderMismatchError('The stream header differs from the one in the signed manifest');
  }
  const { recordSize } = context.header;
  const count = recordCount(options.plaintextLength, recordSize);
  if (!Number.isInteger(options.firstRecord) || options.firstRecord < 0 || options.firstRecord >= count) {
    throw new StreamRangeError(`Record ${options.firstRecord} is not in this file`);
  }
  const parts: Uint8Array[] = [];
  let offset = 0;
  let index = options.firstRecord;
  while (offset < options.ciphertext.length) {
    if (index >= count) throw new StreamRangeError('The ciphertext runs past the final record');
    const size = recordPlaintextLength(index, options.plaintextLength, recordSize) + STREAM_TAG_BYTES;
    if (offset + size > options.ciphertext.length) throw new StreamTruncatedError(`Record ${index} is cut short`);
    const isFinal = index === count - 1;
    const plaintext = await openRecord(context, index, options.ciphertext.subarray(offset, offset + size), isFinal);
    if (!plaintext) throw new StreamRecordCorruptedError(`Record ${index} does not authenticate (modified, or wrong key)`);
    if (isFinal && plaintext.length === 0 && index > 0) throw new StreamEmptyFinalRecordError('A non-empty file ends with an empty final record');
    parts.push(plaintext);
    offset += size;
    index += 1;
  }
  return concatBytes(...parts);
}

/**
 * Plaintext bytes [start, end) given the ciphertext bytes named by `ciphertextRangeForPlaintext`
 * (fetch `range.ciphertextStart`..`range.ciphertextEnd` and pass them here).
 */
export async function decryptPlaintextRange(options: Omit<DecryptRecordRangeOptions, 'firstRecord'> & { start: number; end: number }): Promise<Uint8Array> {
  const { recordSize } = decodeStreamHeader(options.headerBytes);
  const range = ciphertextRangeForPlaintext({ start: options.start, end: options.end, plaintextLength: options.plaintextLength, recordSize });
  const plaintext = await decryptRecordRange({ ...options, firstRecord: range.firstRecord });
  return plaintext.subarray(range.skipPlaintextBytes, range.skipPlaintextBytes + (options.end - options.start));
}
