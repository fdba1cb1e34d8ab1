// Decryption as a WHATWG TransformStream: header + records in, plaintext out. Rejects every
// rearrangement of records, each with its own error (errors.ts); README "What the decoder rejects".
import { createSHA256, type IHasher } from 'hash-wasm';
import { bytesEqual, concatBytes } from './bytes';
import { ContentCommitmentCheck } from './content-commitment';
import {
  StreamEmptyFinalRecordError,
  StreamContentMismatchError,
  StreamHeaderMismatchError,
  StreamRecordAppendedError,
  StreamRecordCorruptedError,
  StreamRecordDuplicatedError,
  StreamRecordMissingError,
  StreamRecordReorderedError,
  StreamTrailingDataError,
  StreamTruncatedError,
  type CryptoError,
} from './errors';
import { STREAM_HEADER_BYTES, STREAM_TAG_BYTES, recordCount, recordPlaintextLength } from './stream-format';
import { assertDerivedHeader } from './stream-parts';
import { RECORDS_IN_FLIGHT, contextFromHeader, openRecord, type FileKeyMaterial, type StreamContext } from './stream-records';

export interface DecryptStreamOptions {
  /** The 256-bit file key (or it as a non-extractable HKDF key). IMPORTANT: secret; never log it or put it in an error. */
  fileKey: FileKeyMaterial;
  /**
   * Plaintext size from the signed manifest. Optional, but with it every mutation gets its exact error
   * class (without it, bytes glued onto a short final record can only be reported as corruption).
   */
  plaintextLength?: number;
  /** SHA-256 of the header from the signed manifest: a changed salt/prefix then reads as header mismatch. */
  expectedHeaderHash?: Uint8Array;
  /**
   * The header must be the one `fileKey` derives (an upload stream, README "Upload parts"). With the
   * signed header hash this binds the signature to the file key: a data room's file key is wrapped
   * under the room key, so any member could wrap a fresh one and re-encrypt under the old header.
   */
  headerDerivedFromKey?: boolean;
  /**
   * SHA-256 of the whole plaintext as signed (a data room file's `contentSha256`): the plaintext is
   * hashed as it is emitted and `finish` fails with StreamContentMismatchError when it differs — so a
   * download writes no file whose bytes the uploader did not sign (the sink is interrupted instead).
   */
  expectedPlaintextSha256?: Uint8Array;
  /**
   * The signed content commitment (a data room file of metadata format 2, content-commitment.ts):
   * each record's plaintext is hashed as it opens and the commitment is checked when the final record
   * is in, before its plaintext is emitted — StreamContentMismatchError, and no file is completed.
   */
  expectedContentCommitment?: Uint8Array;
}

/** How far ahead a misplaced record is looked for when diagnosing (each look is one trial decryption). */
const LOOKAHEAD_RECORDS = 64;
/** Tags of this many recent records are kept to recognise duplicates and appended copies (16 B each). */
const REMEMBERED_TAGS = 4096;

/** A record's tag as a Map key: one char per byte (hex with padStart cost 32 string steps per record). */
function tagKey(tag: Uint8Array): string {
  return String.fromCharCode(...tag);
}

interface Failure {
  index: number;
  bytes: Uint8Array;
  isFinal: boolean;
  /** The stream ended before this record was complete. */
  cutShort?: boolean;
}

/** Framing and checking of one ciphertext stream, fed in arbitrary chunks. */
export class StreamDecoder {
  private readonly header = new Uint8Array(STREAM_HEADER_BYTES);
  private headerFilled = 0;
  private context: StreamContext | null = null;
  private fullRecordBytes = 0;
  private expectedRecords: number | null = null;
  private expectedFinalBytes: number | null = null;
  /** Bytes of the records being framed, when a chunk does not hold a whole record. */
  private accumulator = new Uint8Array(0);
  /**
   * Accumulators in rotation (the first made with the header, the others when first needed): a record
   * cut from one is opened from it in place, no copy, and the bytes after it move to the next. One is
   * refilled only RECORDS_IN_FLIGHT records later, when `submit` has settled the record cut from it.
   */
  private readonly accumulators: Uint8Array<ArrayBuffer>[] = [];
  private accumulatorTurn = 0;
  private accumulated = 0;
  private index = 0;
  private finished = false;
  private failure: Failure | null = null;
  private afterwards: Uint8Array[] = [];
  /** Records being opened, oldest first; settled in order so errors and output keep stream order. */
  private inFlight: { index: number; bytes: Uint8Array; isFinal: boolean; opening: Promise<Uint8Array | null> }[] = [];
  private afterwardsLength = 0;
  private readonly seenTags = new Map<string, number>();
  /** SHA-256 of the plaintext emitted so far (with `expectedPlaintextSha256`; hash-wasm: WebCrypto cannot stream). */
  private hasher: IHasher | null = null;
  /** Per-record hashes against the signed commitment (with `expectedContentCommitment`). */
  private commitment: ContentCommitmentCheck | null = null;

  constructor(private readonly options: DecryptStreamOptions) {}

  async push(chunk: Uint8Array, emit: (plaintext: Uint8Array) => void): Promise<void> {
    let offset = 0;
    if (!this.context) {
      const take = Math.min(STREAM_HEADER_BYTES - this.headerFilled, chunk.length);
      this.header.set(chunk.subarray(0, take), this.headerFilled);
      this.headerFilled += take;
      offset = take;
      if (this.headerFilled < STREAM_HEADER_BYTES) return;
      await this.openHeader();
    }
    while (offset < chunk.length) {
      if (this.failure || this.finished) {
        this.keepAfterwards(chunk.subarray(offset));
        if (this.afterwardsLength >= this.fullRecordBytes) {
          await this.settleAll(emit);
          throw await this.diagnoseOrExcess();
        }
        return;
      }
      // Fast path (length known): a whole record inside the chunk is opened straight from it, no copy.
      if (this.accumulated === 0 && this.expectedRecords !== null) {
        const isFinal = this.index === this.expectedRecords - 1;
        const size = isFinal ? (this.expectedFinalBytes as number) : this.fullRecordBytes;
        if (chunk.length - offset >= size) {
          await this.submit(chunk.subarray(offset, offset + size), isFinal, emit);
          offset += size;
          continue;
        }
      }
      const take = Math.min(this.accumulator.length - this.accumulated, chunk.length - offset);
      this.accumulator.set(chunk.subarray(offset, offset + take), this.accumulated);
      this.accumulated += take;
      offset += take;
      await this.drain(emit, false);
      if (this.failure && this.afterwardsLength >= this.fullRecordBytes) throw await this.diagnose(this.failure);
    }
  }

  async finish(emit: (plaintext: Uint8Array) => void): Promise<void> {
    if (!this.context) throw new StreamTruncatedError('The stream ends inside its header');
    if (!this.failure && !this.finished) await this.drain(emit, true);
    await this.settleAll(emit);
    if (this.failure || this.afterwardsLength > 0) throw await this.diagnoseOrExcess();
    if (!this.finished) throw new StreamTruncatedError('The stream ends before its final record');
    const expected = this.options.expectedPlaintextSha256;
    if (expected && this.hasher && !bytesEqual(this.hasher.digest('binary'), expected)) {
      throw new StreamContentMismatchError('The plaintext differs from the signed content hash');
    }
  }

  /** Waits for the oldest record in flight; a failure moves the records after it back to "afterwards". */
  private async settleOldest(emit: (plaintext: Uint8Array) => void): Promise<void> {
    const entry = this.inFlight.shift();
    if (!entry) return;
    const plaintext = await entry.opening;
    if (!plaintext) {
      this.failure = { index: entry.index, bytes: entry.bytes, isFinal: entry.isFinal };
      // Everything read after the failed record, in stream order, is what diagnosis looks at.
      const later = [...this.inFlight.map((other) => other.bytes), this.accumulator.slice(0, this.accumulated), ...this.afterwards];
      this.inFlight = [];
      this.accumulated = 0;
      this.finished = false;
      this.afterwards = later.filter((part) => part.length > 0);
      this.afterwardsLength = this.afterwards.reduce((sum, part) => sum + part.length, 0);
      return;
    }
    if (entry.isFinal && plaintext.length === 0 && entry.index > 0) {
      throw new StreamEmptyFinalRecordError('A non-empty file ends with an empty final record');
    }
    this.rememberTag(entry.bytes);
    // Hashed before it is emitted: emit may transfer the buffer away.
    this.hasher?.update(plaintext);
    if (this.commitment) {
      this.commitment.add(plaintext);
      // The final record's bytes wait for the check: a mismatch never completes the output.
      if (entry.isFinal) await this.commitment.verify();
    }
    emit(plaintext);
  }

  private async settleAll(emit: (plaintext: Uint8Array) => void): Promise<void> {
    while (this.inFlight.length > 0 && !this.failure) await this.settleOldest(emit);
  }

  private async openHeader(): Promise<void> {
    const context = await contextFromHeader(this.options.fileKey, this.header);
    if (this.options.expectedHeaderHash && !bytesEqual(context.headerHash, this.options.expectedHeaderHash)) {
      throw new StreamHeaderMismatchError('The stream header differs from the one in the signed manifest');
    }
    if (this.options.headerDerivedFromKey) await assertDerivedHeader(this.options.fileKey, this.header);
    if (this.options.expectedPlaintextSha256) this.hasher = await createSHA256();
    if (this.options.expectedContentCommitment) this.commitment = new ContentCommitmentCheck(this.options.expectedContentCommitment, context.headerHash);
    this.context = context;
    this.fullRecordBytes = context.header.recordSize + STREAM_TAG_BYTES;
    this.accumulator = new Uint8Array(2 * this.fullRecordBytes);
    this.accumulators.push(this.accumulator);
    const length = this.options.plaintextLength;
    if (length !== undefined) {
      this.expectedRecords = recordCount(length, context.header.recordSize);
      this.expectedFinalBytes = recordPlaintextLength(this.expectedRecords - 1, length, context.header.recordSize) + STREAM_TAG_BYTES;
    }
  }

  /** Opens every record the accumulator holds completely; at the end also the last partial one. */
  private async drain(emit: (plaintext: Uint8Array) => void, atEnd: boolean): Promise<void> {
    while (!this.finished && !this.failure) {
      let size: number;
      let isFinal: boolean;
      if (this.expectedRecords !== null) {
        isFinal = this.index === this.expectedRecords - 1;
        size = isFinal ? (this.expectedFinalBytes as number) : this.fullRecordBytes;
        if (this.accumulated < size) {
          if (!atEnd) return;
          // An earlier record's failure takes precedence over running out of bytes.
          await this.settleAll(emit);
          if (this.failure) return;
          if (this.accumulated === 0) throw new StreamTruncatedError('The stream ends before its final record');
          // Too few bytes for this record: cut short, unless a (shorter) later record sits here.
          this.failure = { index: this.index, bytes: this.accumulator.slice(0, this.accumulated), isFinal, cutShort: true };
          this.accumulated = 0;
          return;
        }
      } else if (this.accumulated > this.fullRecordBytes) {
        // More bytes follow a full record, so it is not the final one.
        size = this.fullRecordBytes;
        isFinal = false;
      } else if (atEnd && this.accumulated > 0) {
        size = this.accumulated;
        isFinal = true;
      } else {
        if (!atEnd) return;
        await this.settleAll(emit);
        if (this.failure) return;
        throw new StreamTruncatedError('The stream ends before its final record');
      }
      const bytes = this.accumulator.subarray(0, size);
      this.nextAccumulator().set(this.accumulator.subarray(size, this.accumulated));
      this.accumulator = this.accumulators[this.accumulatorTurn] as Uint8Array<ArrayBuffer>;
      this.accumulated -= size;
      await this.submit(bytes, isFinal, emit);
    }
  }

  /** Turns to the next accumulator in rotation (see `accumulators`) and returns it. */
  private nextAccumulator(): Uint8Array<ArrayBuffer> {
    this.accumulatorTurn = (this.accumulatorTurn + 1) % (RECORDS_IN_FLIGHT + 1);
    let next = this.accumulators[this.accumulatorTurn];
    if (!next) {
      next = new Uint8Array(2 * this.fullRecordBytes);
      this.accumulators[this.accumulatorTurn] = next;
    }
    return next;
  }

  /** Starts opening the next record (bytes must stay unchanged until settled). */
  private async submit(bytes: Uint8Array, isFinal: boolean, emit: (plaintext: Uint8Array) => void): Promise<void> {
    const opening = openRecord(this.context as StreamContext, this.index, bytes, isFinal);
    opening.catch(() => undefined); // handled in settleOldest; avoids unhandled-rejection noise
    this.inFlight.push({ index: this.index, bytes, isFinal, opening });
    this.index += 1;
    if (isFinal) {
      this.finished = true;
      this.keepAfterwards(this.accumulator.subarray(0, this.accumulated));
      this.accumulated = 0;
    }
    while (this.inFlight.length >= RECORDS_IN_FLIGHT && !this.failure) await this.settleOldest(emit);
  }

  private keepAfterwards(bytes: Uint8Array): void {
    // Diagnosis needs at most one record (plus one byte to know more follows).
    const room = this.fullRecordBytes + 1 - this.afterwardsLength;
    if (room <= 0 || bytes.length === 0) return;
    const kept = bytes.slice(0, room);
    this.afterwards.push(kept);
    this.afterwardsLength += kept.length;
  }

  private async diagnoseOrExcess(): Promise<CryptoError> {
    if (this.failure) return this.diagnose(this.failure);
    return this.classifyExcess(concatBytes(...this.afterwards));
  }

  private rememberTag(record: Uint8Array): void {
    this.seenTags.set(tagKey(record.subarray(record.length - STREAM_TAG_BYTES)), record.length);
    if (this.seenTags.size > REMEMBERED_TAGS) {
      const oldest = this.seenTags.keys().next().value;
      if (oldest !== undefined) this.seenTags.delete(oldest);
    }
  }

  /** Whether `bytes` starts with a record this stream already had (same tag, same length). */
  private startsWithSeenRecord(bytes: Uint8Array): boolean {
    for (const length of new Set(this.seenTags.values())) {
      if (bytes.length < length) continue;
      if (this.seenTags.get(tagKey(bytes.subarray(length - STREAM_TAG_BYTES, length))) === length) return true;
    }
    return false;
  }

  private classifyExcess(excess: Uint8Array): CryptoError {
    if (this.startsWithSeenRecord(excess)) return new StreamRecordAppendedError('A copy of a record follows the final record');
    return new StreamTrailingDataError('Bytes follow the final record');
  }

  /** Lengths a record starting at `bytes` could have. */
  private candidateLengths(available: number): number[] {
    const lengths = new Set<number>([this.fullRecordBytes]);
    if (this.expectedFinalBytes !== null) lengths.add(this.expectedFinalBytes);
    else if (available < this.fullRecordBytes) lengths.add(available);
    return [...lengths].filter((length) => length >= STREAM_TAG_BYTES && length <= available);
  }

  /** Whether `bytes` starts with record `index` (final or not). */
  private async startsWithRecord(bytes: Uint8Array, index: number): Promise<boolean> {
    const context = this.context as StreamContext;
    for (const length of this.candidateLengths(bytes.length)) {
      const record = bytes.subarray(0, length);
      if ((await openRecord(context, index, record, false)) || (await openRecord(context, index, record, true))) return true;
    }
    return false;
  }

  /** Which later record (if any, within the look-ahead) `bytes` starts with, and its length. */
  private async findLaterRecord(bytes: Uint8Array, index: number): Promise<number | null> {
    const context = this.context as StreamContext;
    const last = this.expectedRecords !== null ? this.expectedRecords - 1 : index + LOOKAHEAD_RECORDS;
    for (const length of this.candidateLengths(bytes.length)) {
      const record = bytes.subarray(0, length);
      for (let later = index + 1; later <= Math.min(last, index + LOOKAHEAD_RECORDS); later++) {
        if ((await openRecord(context, later, record, false)) || (await openRecord(context, later, record, true))) return length;
      }
    }
    return null;
  }

  /** Names what went wrong at a record that did not authenticate in its place. */
  private async diagnose(failure: Failure): Promise<CryptoError> {
    const context = this.context as StreamContext;
    const { index, bytes, isFinal } = failure;
    const following = concatBytes(...this.afterwards);
    if (bytes.length === STREAM_TAG_BYTES && index > 0 && (await openRecord(context, index, bytes, true))) {
      return new StreamEmptyFinalRecordError('A non-empty file ends with an empty final record');
    }
    if (isFinal && (await openRecord(context, index, bytes, false))) {
      // A genuine middle record where the final one should be: records are cut off at the end,
      // unless what follows is an empty final record.
      if (following.length === STREAM_TAG_BYTES && (await openRecord(context, index + 1, following, true))) {
        return new StreamEmptyFinalRecordError('A non-empty file ends with an empty final record');
      }
      return new StreamTruncatedError('The stream ends before its final record');
    }
    if (!isFinal && (await openRecord(context, index, bytes, true))) {
      return this.classifyExcess(following);
    }
    // From here on, look at what starts at this position regardless of how it was framed.
    const here = concatBytes(bytes, following);
    if (this.startsWithSeenRecord(here)) return new StreamRecordDuplicatedError(`Record ${index} repeats an earlier record`);
    const laterLength = await this.findLaterRecord(here, index);
    if (laterLength !== null) {
      const rest = here.subarray(laterLength);
      if (await this.startsWithRecord(rest, index)) return new StreamRecordReorderedError(`Record ${index} comes after a later record`);
      return new StreamRecordMissingError(`Record ${index} is missing`);
    }
    if (failure.cutShort) return new StreamTruncatedError(`The stream ends inside record ${index}`);
    return new StreamRecordCorruptedError(`Record ${index} does not authenticate (modified, or wrong key)`);
  }
}

/** ciphertext → plaintext; errors as described on StreamDecoder. */
export function createDecryptStream(options: DecryptStreamOptions): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new StreamDecoder(options);
  // One controller for the stream's life, so one `emit` too (not a closure per chunk).
  let emit: (plaintext: Uint8Array) => void = () => undefined;
  return new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      emit = (plaintext) => controller.enqueue(plaintext);
    },
    transform: (chunk) => decoder.push(chunk, emit),
    flush: () => decoder.finish(emit),
  });
}
