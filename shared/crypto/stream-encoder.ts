// Encryption as a WHATWG TransformStream: plaintext bytes in, header + records out (README "Streaming format").
import { RECORDS_IN_FLIGHT, createEncryptionContext, sealRecord, type NewStreamOptions, type StreamContext } from './stream-records';
import { concatByteList } from './bytes';
import { MAX_RECORD_COUNT } from './stream-format';

export interface EncryptStreamOptions extends NewStreamOptions {
  /** The 256-bit file key. IMPORTANT: secret; never log it or put it in an error. */
  fileKey: Uint8Array;
}

/**
 * Framing of one plaintext stream into header ‖ record 0 ‖ … ‖ final record, fed in arbitrary
 * chunks (the encoder's half of what StreamDecoder is to the decoder). `emit` gets the header, then
 * each sealed record in order; memory stays at about two records whatever the size.
 * NB: a full record is held back until the next byte (or the end) shows whether it is the final one,
 * because the final flag is part of its nonce. Chunks holding a whole record are sealed straight from
 * the chunk (no copy), so a producer must not modify a chunk after pushing it (streams' usual rule).
 */
export class StreamEncoder {
  private context: StreamContext | null = null;
  /** RECORDS_IN_FLIGHT + 1 buffers in rotation, made when first needed: a buffer is refilled only after its seal has finished. */
  private readonly buffers: Uint8Array[] = [];
  private bufferTurn = 0;
  private filled = 0;
  /** A whole record's worth of an incoming chunk, sealed without copying once we know whether it is final. */
  private pendingView: Uint8Array | null = null;
  private index = 0;
  /** Records being sealed, oldest first; emitted in order. */
  private readonly inFlight: Promise<Uint8Array>[] = [];

  constructor(private readonly options: EncryptStreamOptions) {}

  /** Derives the stream's keys and emits the header; before any `push`. */
  async start(emit: (bytes: Uint8Array) => void): Promise<void> {
    this.context = await createEncryptionContext(this.options.fileKey, this.options);
    emit(this.context.headerBytes);
  }

  async push(chunk: Uint8Array, emit: (bytes: Uint8Array) => void): Promise<void> {
    const recordSize = (this.context as StreamContext).header.recordSize;
    let offset = 0;
    while (offset < chunk.length) {
      // A full record followed by at least one more byte cannot be the final record.
      if (this.pendingView) {
        const view = this.pendingView;
        this.pendingView = null;
        await this.submit(view, false, emit);
      }
      if (this.filled === recordSize) await this.sealBuffered(false, emit);
      if (this.filled === 0 && chunk.length - offset >= recordSize) {
        this.pendingView = chunk.subarray(offset, offset + recordSize);
        offset += recordSize;
        continue;
      }
      const buffer = this.buffer();
      const take = Math.min(recordSize - this.filled, chunk.length - offset);
      buffer.set(chunk.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
    }
  }

  /** Seals the final record (record 0, empty, for the empty file) and emits what is still in flight. */
  async finish(emit: (bytes: Uint8Array) => void): Promise<void> {
    if (this.pendingView) {
      const view = this.pendingView;
      this.pendingView = null;
      await this.submit(view, true, emit);
    } else await this.sealBuffered(true, emit);
    for (const spent of this.buffers) spent.fill(0);
  }

  /** The buffer being filled (made on first use, so a stream of whole-record chunks never makes one). */
  private buffer(): Uint8Array {
    const turn = this.bufferTurn % (RECORDS_IN_FLIGHT + 1);
    let buffer = this.buffers[turn];
    if (!buffer) {
      buffer = new Uint8Array((this.context as StreamContext).header.recordSize);
      this.buffers[turn] = buffer;
    }
    return buffer;
  }

  private async sealBuffered(isFinal: boolean, emit: (bytes: Uint8Array) => void): Promise<void> {
    const bytes = this.filled === 0 ? new Uint8Array(0) : this.buffer().subarray(0, this.filled);
    this.filled = 0;
    this.bufferTurn += 1;
    await this.submit(bytes, isFinal, emit);
  }

  private async submit(bytes: Uint8Array, isFinal: boolean, emit: (bytes: Uint8Array) => void): Promise<void> {
    if (this.index >= MAX_RECORD_COUNT) throw new RangeError('File too large for this record size');
    const sealing = sealRecord(this.context as StreamContext, this.index, bytes, isFinal);
    sealing.catch(() => undefined); // handled when awaited below; avoids unhandled-rejection noise
    this.inFlight.push(sealing);
    this.index += 1;
    const keep = isFinal ? 0 : RECORDS_IN_FLIGHT - 1;
    while (this.inFlight.length > keep) emit(await (this.inFlight.shift() as Promise<Uint8Array>));
  }
}

/** plaintext → header ‖ record 0 ‖ … ‖ final record (StreamEncoder as a TransformStream). */
export function createEncryptStream(options: EncryptStreamOptions): TransformStream<Uint8Array, Uint8Array> {
  const encoder = new StreamEncoder(options);
  // One controller for the stream's life, so one `emit` too (not a closure per chunk).
  let emit: (bytes: Uint8Array) => void = () => undefined;
  return new TransformStream<Uint8Array, Uint8Array>({
    async start(controller) {
      emit = (bytes) => controller.enqueue(bytes);
      await encoder.start(emit);
    },
    transform: (chunk) => encoder.push(chunk, emit),
    flush: () => encoder.finish(emit),
  });
}

/** Whole-buffer convenience over createEncryptStream (tests, tools, small payloads). */
export async function encryptBytes(plaintext: Uint8Array, options: EncryptStreamOptions): Promise<Uint8Array> {
  return collectStream(bytesToStream(plaintext).pipeThrough(createEncryptStream(options)));
}

export function bytesToStream(bytes: Uint8Array, chunkSize = 64 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      const end = Math.min(bytes.length, offset + chunkSize);
      controller.enqueue(bytes.slice(offset, end));
      offset = end;
    },
  });
}

export async function collectStream(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return concatByteList(parts);
}
