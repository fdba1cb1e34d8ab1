// An upload read, hashed and sealed where the key lives (README "Upload parts"): the caller names a
// ciphertext byte range (a part on the server's layout) and gets that part's bytes; the plaintext
// never crosses the Worker boundary.
import { toBase64Url } from './bytes';
import { contentCommitment, recordPlaintextHash } from './content-commitment';
import { StreamRangeError } from './errors';
import { STREAM_TAG_BYTES, ciphertextLength, recordCiphertextOffset, recordCount } from './stream-format';
import { sealRecord, type StreamContext } from './stream-records';
import { sha256Hex } from './subtle';

/** One part ready to PUT: the body (its bytes copied once into the Blob), its size and SHA-256 (hex, `x-content-sha256`). */
export interface SealedPartBody {
  body: Blob;
  size: number;
  sha256: string;
}

/** Part buffers kept for the next parts (the pipeline prepares two at once; a third covers part 0's header). */
const SPARE_BUFFERS = 3;

interface RecordSlot {
  sealed: Promise<Uint8Array>;
  /** Ciphertext bytes of this record handed out so far; the slot is dropped once all were. */
  handed: number;
}

/**
 * Seals the upload stream of `source` (a File) under `context` part by part, in any order and
 * several parts at once: each part reads only the records it needs that no neighbour read yet (a
 * record that straddles two parts is read, hashed and sealed once and kept until both took their
 * bytes), so every record is sealed exactly once — never two plaintexts under one nonce, even when
 * the file changes meanwhile. With `commitContent` each record's plaintext is also hashed (one
 * WebCrypto SHA-256 per record, in any order) for the content commitment (content-commitment.ts);
 * then every byte must be asked for exactly once before `contentCommitment`.
 */
export class UploadSealer {
  readonly size: number;
  private readonly plaintextSize: number;
  private readonly recordSize: number;
  private readonly records: number;
  private readonly slots = new Map<number, RecordSlot>();
  /** Records whose read started: one of them without a slot was handed out whole already. */
  private readonly created = new Set<number>();
  /** Each record's plaintext hash, at its index (with `commitContent`). */
  private readonly recordHashes: Promise<Uint8Array>[] | null;
  private failure: { error: unknown } | null = null;
  /** Assembly buffers of finished parts, reused by `sealPartBody` (no fresh 4 MiB buffer per part). */
  private readonly spare: Uint8Array<ArrayBuffer>[] = [];

  constructor(
    private readonly context: StreamContext,
    private readonly source: Blob,
    options: { commitContent?: boolean } = {},
  ) {
    this.plaintextSize = source.size;
    this.recordSize = context.header.recordSize;
    this.records = recordCount(this.plaintextSize, this.recordSize);
    this.size = ciphertextLength(this.plaintextSize, this.recordSize);
    this.recordHashes = options.commitContent ? [] : null;
  }

  /** Ciphertext bytes `[start, end)` sealed, in a buffer of their own (transferable). */
  async sealPart(start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
    this.checkRange(start, end);
    const out = new Uint8Array(end - start);
    await this.sealInto(start, end, out);
    return out;
  }

  /**
   * The part as a PUT body: its records copied from WebCrypto's output straight into a reused part
   * buffer, hashed there for `x-content-sha256` and copied once into the Blob (shared/transfer
   * README "Copies on an E2E upload"). Same bytes as `sealPart`.
   */
  async sealPartBody(start: number, end: number): Promise<SealedPartBody> {
    this.checkRange(start, end);
    const size = end - start;
    const at = this.spare.findIndex((spare) => spare.length >= size);
    const buffer = at >= 0 ? this.spare.splice(at, 1)[0]! : new Uint8Array(size);
    try {
      const part = buffer.subarray(0, size);
      await this.sealInto(start, end, part);
      // Both copy the bytes when called (WebCrypto's digest, the Blob constructor), so the buffer is free right after.
      const hashing = sha256Hex(part);
      const body = new Blob([part]);
      return { body, size, sha256: await hashing };
    } finally {
      if (this.spare.length < SPARE_BUFFERS) this.spare.push(buffer);
    }
  }

  private checkRange(start: number, end: number): void {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start || end > this.size) {
      throw new StreamRangeError(`Part [${start}, ${end}) is not in a stream of ${this.size} bytes`);
    }
  }

  /** Seals `[start, end)` into `out` (exactly `end − start` bytes): each record's ciphertext copied once, where it belongs. */
  private async sealInto(start: number, end: number, out: Uint8Array): Promise<void> {
    const stride = this.recordSize + STREAM_TAG_BYTES;
    const headerBytes = this.context.headerBytes;
    const first = Math.max(0, Math.floor((start - headerBytes.length) / stride));
    const last = end <= headerBytes.length ? -1 : Math.min(this.records - 1, Math.floor((end - 1 - headerBytes.length) / stride));
    // Claimed before the first await, so parts asked for in order claim their records in order.
    let missingFrom = -1;
    for (let record = first; record <= last; record++) {
      if (this.slots.has(record)) continue;
      if (this.created.has(record)) throw new StreamRangeError(`Record ${record} was sealed and handed out already`);
      if (missingFrom < 0) missingFrom = record;
      if (record === last || this.slots.has(record + 1)) {
        this.readRun(missingFrom, record);
        missingFrom = -1;
      }
    }
    if (start < headerBytes.length) out.set(headerBytes.subarray(start, Math.min(end, headerBytes.length)));
    for (let record = first; record <= last; record++) {
      const slot = this.slots.get(record)!;
      const sealed = await slot.sealed;
      const at = recordCiphertextOffset(record, this.recordSize);
      const from = Math.max(start, at);
      const to = Math.min(end, at + sealed.length);
      out.set(sealed.subarray(from - at, to - at), from - start);
      slot.handed += to - from;
      if (slot.handed >= sealed.length) this.slots.delete(record);
    }
  }

  /** base64url content commitment (README section 7), once every record was read and hashed (`commitContent`). */
  async contentCommitment(): Promise<string> {
    if (!this.recordHashes) throw new StreamRangeError('This upload does not commit to its content');
    if (this.failure) throw this.failure.error;
    const hashed = this.recordHashes.filter(Boolean).length;
    if (hashed < this.records) throw new StreamRangeError(`Only ${hashed} of ${this.records} records were hashed`);
    return toBase64Url(await contentCommitment(this.context.headerHash, await Promise.all(this.recordHashes)));
  }

  /** Reads records `from…to` in one read and starts hashing (`commitContent`) and sealing each (WebCrypto's threads). */
  private readRun(from: number, to: number): void {
    const plaintextStart = from * this.recordSize;
    const plaintextEnd = Math.min(this.plaintextSize, (to + 1) * this.recordSize);
    const bytes = (async () => {
      const read = new Uint8Array(await this.source.slice(plaintextStart, plaintextEnd).arrayBuffer());
      if (read.length !== plaintextEnd - plaintextStart) throw new StreamRangeError('The file is shorter than when it was chosen');
      return read;
    })();
    bytes.catch((error: unknown) => this.fail(error));
    for (let record = from; record <= to; record++) {
      this.created.add(record);
      const plaintext = bytes.then((read) => {
        const offset = (record - from) * this.recordSize;
        return read.subarray(offset, Math.min(read.length, offset + this.recordSize));
      });
      if (this.recordHashes) {
        const hash = plaintext.then(recordPlaintextHash);
        hash.catch(() => undefined); // a failed read fails the upload (fail above)
        this.recordHashes[record] = hash;
      }
      const sealed = plaintext.then((bytesOfRecord) => sealRecord(this.context, record, bytesOfRecord, record === this.records - 1));
      sealed.catch(() => undefined); // awaited by the parts that need it
      this.slots.set(record, { sealed, handed: 0 });
    }
  }

  private fail(error: unknown): void {
    if (!this.failure) this.failure = { error };
  }
}
