// Test support (NOT used by production code): cuts a ciphertext into header and records and builds the
// mutated streams the decoder must reject. Shared by the Node tests and the Chromium bundle.
import { concatBytes } from '../bytes';
import { STREAM_HEADER_BYTES, STREAM_TAG_BYTES, recordCount, recordPlaintextLength } from '../stream-format';

export interface SplitStream {
  header: Uint8Array;
  records: Uint8Array[];
}

export function splitStream(ciphertext: Uint8Array, plaintextLength: number, recordSize: number): SplitStream {
  const records: Uint8Array[] = [];
  let offset = STREAM_HEADER_BYTES;
  for (let index = 0; index < recordCount(plaintextLength, recordSize); index++) {
    const size = recordPlaintextLength(index, plaintextLength, recordSize) + STREAM_TAG_BYTES;
    records.push(ciphertext.slice(offset, offset + size));
    offset += size;
  }
  if (offset !== ciphertext.length) throw new Error('Ciphertext length does not match the plaintext length');
  return { header: ciphertext.slice(0, STREAM_HEADER_BYTES), records };
}

export function joinStream(parts: SplitStream): Uint8Array {
  return concatBytes(parts.header, ...parts.records);
}

export function flipBit(bytes: Uint8Array, byteIndex: number, bit = 0): Uint8Array {
  const copy = bytes.slice();
  copy[byteIndex] = (copy[byteIndex] ?? 0) ^ (1 << bit);
  return copy;
}

export type MutationName =
  | 'drop-first'
  | 'drop-middle'
  | 'drop-final'
  | 'swap-first-two'
  | 'swap-last-two'
  | 'duplicate-first'
  | 'append-copy-of-first'
  | 'truncate-inside-final'
  | 'truncate-inside-header'
  | 'trailing-bytes'
  | 'trailing-record-sized-garbage'
  | 'flip-magic'
  | 'flip-version'
  | 'flip-alg'
  | 'flip-salt'
  | 'flip-nonce-prefix'
  | 'flip-first-body'
  | 'flip-final-body'
  | 'flip-first-tag'
  | 'flip-final-tag';

/**
 * Whether a mutation applies to a file of this length, known without encrypting it: swaps and
 * drops need enough records, body flips a record with a body (not just its tag).
 */
export function mutationApplies(mutation: MutationName, plaintextLength: number, recordSize: number): boolean {
  const n = recordCount(plaintextLength, recordSize);
  switch (mutation) {
    case 'drop-first':
    case 'swap-last-two':
      return n >= 2;
    case 'drop-middle':
    case 'swap-first-two':
      return n >= 3;
    case 'flip-first-body':
      return recordPlaintextLength(0, plaintextLength, recordSize) > 0;
    case 'flip-final-body':
      return recordPlaintextLength(n - 1, plaintextLength, recordSize) > 0;
    default:
      return true;
  }
}

/** The mutated ciphertext, or null when the mutation does not apply (see mutationApplies). */
export function mutate(ciphertext: Uint8Array, plaintextLength: number, recordSize: number, mutation: MutationName): Uint8Array | null {
  if (!mutationApplies(mutation, plaintextLength, recordSize)) return null;
  const { header, records } = splitStream(ciphertext, plaintextLength, recordSize);
  const n = records.length;
  const first = records[0] as Uint8Array;
  const final = records[n - 1] as Uint8Array;
  const withRecords = (list: Uint8Array[]) => joinStream({ header, records: list });
  switch (mutation) {
    case 'drop-first':
      return withRecords(records.slice(1));
    case 'drop-middle':
      return withRecords([...records.slice(0, 1), ...records.slice(2)]);
    case 'drop-final':
      return withRecords(records.slice(0, n - 1));
    case 'swap-first-two':
      return withRecords([records[1] as Uint8Array, first, ...records.slice(2)]);
    case 'swap-last-two':
      return withRecords([...records.slice(0, n - 2), final, records[n - 2] as Uint8Array]);
    case 'duplicate-first':
      return withRecords([first, ...records]);
    case 'append-copy-of-first':
      return withRecords([...records, first]);
    case 'truncate-inside-final':
      return ciphertext.slice(0, ciphertext.length - 1);
    case 'truncate-inside-header':
      return ciphertext.slice(0, STREAM_HEADER_BYTES - 1);
    case 'trailing-bytes':
      return concatBytes(ciphertext, new Uint8Array([1, 2, 3, 4, 5]));
    case 'trailing-record-sized-garbage':
      return concatBytes(ciphertext, new Uint8Array(recordSize + STREAM_TAG_BYTES).fill(0xa5));
    case 'flip-magic':
      return flipBit(ciphertext, 0);
    case 'flip-version':
      return flipBit(ciphertext, 4, 1);
    case 'flip-alg':
      return flipBit(ciphertext, 5, 2);
    case 'flip-salt':
      return flipBit(ciphertext, 10 + 7);
    case 'flip-nonce-prefix':
      return flipBit(ciphertext, STREAM_HEADER_BYTES - 1, 7);
    case 'flip-first-body':
      return flipBit(ciphertext, STREAM_HEADER_BYTES);
    case 'flip-final-body':
      return flipBit(ciphertext, ciphertext.length - STREAM_TAG_BYTES - 1, 3);
    case 'flip-first-tag':
      return flipBit(ciphertext, STREAM_HEADER_BYTES + first.length - 1, 5);
    case 'flip-final-tag':
      return flipBit(ciphertext, ciphertext.length - 1, 6);
  }
}

/** The error code each mutation must produce when the decoder knows the plaintext length (manifest). */
export const EXPECTED_ERROR_CODE: Record<MutationName, string> = {
  'drop-first': 'stream-record-missing',
  'drop-middle': 'stream-record-missing',
  'drop-final': 'stream-truncated',
  'swap-first-two': 'stream-record-reordered',
  'swap-last-two': 'stream-record-reordered',
  'duplicate-first': 'stream-record-duplicated',
  'append-copy-of-first': 'stream-record-appended',
  'truncate-inside-final': 'stream-truncated',
  'truncate-inside-header': 'stream-truncated',
  'trailing-bytes': 'stream-trailing-data',
  'trailing-record-sized-garbage': 'stream-trailing-data',
  'flip-magic': 'stream-header-invalid',
  'flip-version': 'stream-header-invalid',
  'flip-alg': 'stream-header-invalid',
  'flip-salt': 'stream-header-mismatch',
  'flip-nonce-prefix': 'stream-header-mismatch',
  'flip-first-body': 'stream-record-corrupted',
  'flip-final-body': 'stream-record-corrupted',
  'flip-first-tag': 'stream-record-corrupted',
  'flip-final-tag': 'stream-record-corrupted',
};

export const MUTATIONS = Object.keys(EXPECTED_ERROR_CODE) as MutationName[];

/** The expected code for a file of `records` records: in a one-record file a duplicate IS an appended copy. */
export function expectedErrorCode(mutation: MutationName, records: number): string {
  if (mutation === 'duplicate-first' && records === 1) return 'stream-record-appended';
  return EXPECTED_ERROR_CODE[mutation];
}

/** Sizes around record boundaries (DESIGN §3): 0, 1, n·R − 1, n·R, n·R + 1. */
export function boundarySizes(recordSize: number, n: number): number[] {
  return [0, 1, n * recordSize - 1, n * recordSize, n * recordSize + 1];
}
