// Encryption as a WHATWG TransformStream: plaintext bytes in, header + records out (README "Streaming format").
import { createEncryptionContext, sealRecord, type NewStreamOptions, type StreamContext } from './stream-records';
import { MAX_RECORD_COUNT } from './stream-format';

export interface EncryptStreamOptions extends NewStreamOptions {
  /** The 256-bit file key. IMPORTANT: secret; never log it or put it in an error. */
  fileKey: Uint8Array;
}

/**
 * plaintext → header ‖ record 0 ‖ … ‖ final record. Memory stays at about two records whatever the size.
 * NB: a full record is held back until the next byte (or the end) shows whether it is the final one,
 * because the final flag is part of its nonce.
 */
export function createEncryptStream(options: EncryptStreamOptions): TransformStream<Uint8Array, Uint8Array> {
  let context: StreamContext;
  let buffer: Uint8Array;
  let filled = 0;
  let index = 0;

  const sealBuffered = async (controller: TransformStreamDefaultController<Uint8Array>, isFinal: boolean) => {
    if (index >= MAX_RECORD_COUNT) throw new RangeError('File too large for this record size');
    controller.enqueue(await sealRecord(context, index, buffer.subarray(0, filled), isFinal));
    index += 1;
    filled = 0;
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    async start(controller) {
      context = await createEncryptionContext(options.fileKey, options);
      buffer = new Uint8Array(context.header.recordSize);
      controller.enqueue(context.headerBytes);
    },
    async transform(chunk, controller) {
      let offset = 0;
      while (offset < chunk.length) {
        // A full buffer followed by at least one more byte cannot be the final record.
        if (filled === buffer.length) await sealBuffered(controller, false);
        const take = Math.min(buffer.length - filled, chunk.length - offset);
        buffer.set(chunk.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
      }
    },
    async flush(controller) {
      // Also covers the empty file: record 0, empty, final.
      await sealBuffered(controller, true);
      buffer.fill(0);
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
  let length = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    length += value.length;
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
