// Test support (NOT used by production code): the content commitment of README section 7 written out
// from the text alone (records cut from the whole plaintext), to compare the streaming writers and
// readers with.
import { concatByteList, utf8Encode } from '../bytes';
import { STREAM_HEADER_BYTES } from '../stream-format';
import { sha256 } from '../subtle';

export async function referenceCommitment(plaintext: Uint8Array, header: Uint8Array, recordSize: number): Promise<Uint8Array> {
  if (header.length !== STREAM_HEADER_BYTES) throw new TypeError('a 49-byte header');
  const records: Uint8Array[] = [];
  for (let start = 0; start < plaintext.length || records.length === 0; start += recordSize) records.push(plaintext.subarray(start, Math.min(plaintext.length, start + recordSize)));
  const hashes = await Promise.all(records.map((record) => sha256(record)));
  return sha256(concatByteList([utf8Encode('Kuvert room v2 content commitment'), await sha256(header), ...hashes]));
}
