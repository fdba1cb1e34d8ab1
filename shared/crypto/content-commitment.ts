// The content commitment of a data room file (README section 7 "Content commitment", metadata
// format 2): one WebCrypto SHA-256 per plaintext record, the signed value a SHA-256 over the header
// hash and that list. Replaces the whole-plaintext SHA-256 (format 1), which needed a streaming hash
// in WebAssembly (WebCrypto's digest is one-shot) and was the largest CPU cost of an E2E transfer.
import { bytesEqual, concatByteList, utf8Encode } from './bytes';
import { StreamContentMismatchError } from './errors';
import { sha256 } from './subtle';

/** What a whole-file read of a data room file checks the plaintext against (README section 7, step 9; one of the two). */
export interface SignedContent {
  /** base64url SHA-256 of the whole plaintext (room metadata format 1). */
  expectedContentSha256?: string;
  /** base64url content commitment (format 2). */
  expectedContentCommitment?: string;
}

/** Domain label in front of the list (so no other SHA-256 of this scheme can be mistaken for it). */
export const CONTENT_COMMITMENT_LABEL = 'Kuvert room v2 content commitment';
const LABEL_BYTES = utf8Encode(CONTENT_COMMITMENT_LABEL);
const HASH_BYTES = 32;

/** Hash of one record's plaintext (the empty file's single empty record included). */
export function recordPlaintextHash(plaintext: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  return sha256(plaintext);
}

/** SHA-256(label ‖ headerHash ‖ h_0 ‖ … ‖ h_{n−1}); `headerHash` is SHA-256 of the 49-byte stream header. */
export async function contentCommitment(headerHash: Uint8Array, recordHashes: readonly Uint8Array[]): Promise<Uint8Array<ArrayBuffer>> {
  if (headerHash.length !== HASH_BYTES || recordHashes.length === 0 || recordHashes.some((hash) => hash.length !== HASH_BYTES)) {
    throw new TypeError('A content commitment takes a 32-byte header hash and at least one 32-byte record hash');
  }
  return sha256(concatByteList([LABEL_BYTES, headerHash, ...recordHashes]));
}

/**
 * The reader's side: record hashes added in stream order (each may still be computing, so several
 * records are hashed at once), checked against the signed commitment when the final record is in —
 * before that record's plaintext is handed over, so a mismatch writes no complete file.
 */
export class ContentCommitmentCheck {
  private readonly hashes: Promise<Uint8Array>[] = [];

  constructor(
    private readonly expected: Uint8Array,
    private readonly headerHash: Uint8Array,
  ) {}

  /** Starts hashing record `hashes.length` (WebCrypto copies the bytes when called, so the caller may transfer them afterwards). */
  add(plaintext: Uint8Array): void {
    const hashing = recordPlaintextHash(plaintext);
    hashing.catch(() => undefined); // awaited in verify
    this.hashes.push(hashing);
  }

  async verify(): Promise<void> {
    const actual = await contentCommitment(this.headerHash, await Promise.all(this.hashes));
    if (!bytesEqual(actual, this.expected)) throw new StreamContentMismatchError('The plaintext differs from the signed content commitment');
  }
}
