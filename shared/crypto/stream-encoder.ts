// Encryption as a WHATWG TransformStream: plaintext bytes in, header + records out (README "Streaming format").
import { RECORDS_IN_FLIGHT, createEncryptionContext, sealRecord, type NewStreamOptions, type StreamContext } from './stream-records';
import { concatByteList } from './bytes';
import { MAX_RECORD_COUNT } from './stream-format';

export interface EncryptStreamOptions extends NewStreamOptions {
  /** The 256-bit file key. IMPORTANT: secret; never log it or put it in an error. */
  fileKey: Uint8Array;
}

/**
 * plaintext → header ‖ record 0 ‖ … ‖ final record. Memory stays at about two records whatever the size.
 * NB: a full record is held back until the next byte (or the end) shows whether it is the final one,
 * because the final flag is part of its nonce. Chunks holding a whole record are sealed straight from
 * the chunk (no copy), so a producer must not modify a chunk after enqueueing it (streams' usual rule).
 */
export function createEncryptStream(options: EncryptStreamOptions): TransformStream<Uint8Array, Uint8Array> {
  let context: StreamContext;
  // RECORDS_IN_FLIGHT + 1 buffers in rotation: a buffer is refilled only after its seal has finished.
  let buffers: Uint8Array[] = [];
  let bufferTurn = 0;
  let buffer: Uint8Array;
  let filled = 0;
  /** A whole record's worth of an incoming chunk, sealed without copying once we know whether it is final. */
  let pendingView: Uint8Array | null = null;
  let index = 0;
  const inFlight: Promise<Uint8Array>[] = [];

  const submit = async (controller: TransformStreamDefaultController<Uint8Array>, bytes: Uint8Array, isFinal: boolean) => {
    if (index >= MAX_RECORD_COUNT) throw new RangeError('File too large for this record size');
    const sealing = sealRecord(context, index, bytes, isFinal);
    sealing.catch(() => undefined); // handled when awaited below; avoids unhandled-rejection noise
    inFlight.push(sealing);
    index += 1;
    while (inFlight.length > (isFinal ? 0 : RECORDS_IN_FLIGHT - 1)) controller.enqueue(await (inFlight.shift() as Promise<Uint8Array>));
  };

  const sealBuffered = async (controller: TransformStreamDefaultController<Uint8Array>, isFinal: boolean) => {
    const bytes = buffer.subarray(0, filled);
    filled = 0;
    bufferTurn += 1;
    buffer = buffers[bufferTurn % buffers.length] as Uint8Array;
    await submit(controller, bytes, isFinal);
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    async start(controller) {
      context = await createEncryptionContext(options.fileKey, options);
      buffers = Array.from({ length: RECORDS_IN_FLIGHT + 1 }, () => new Uint8Array(context.header.recordSize));
      buffer = buffers[0] as Uint8Array;
      controller.enqueue(context.headerBytes);
    },
    async transform(chunk, controller) {
      const recordSize = context.header.recordSize;
      let offset = 0;
      while (offset < chunk.length) {
        // A full record followed by at least one more byte cannot be the final record.
        if (pendingView) {
          const view = pendingView;
          pendingView = null;
          await submit(controller, view, false);
        }
        if (filled === buffer.length) await sealBuffered(controller, false);
        if (filled === 0 && chunk.length - offset >= recordSize) {
          pendingView = chunk.subarray(offset, offset + recordSize);
          offset += recordSize;
          continue;
        }
        const take = Math.min(buffer.length - filled, chunk.length - offset);
        buffer.set(chunk.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
      }
    },
    async flush(controller) {
      // Also covers the empty file: record 0, empty, final.
      if (pendingView) await submit(controller, pendingView, true);
      else await sealBuffered(controller, true);
      for (const spent of buffers) spent.fill(0);
    },
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
