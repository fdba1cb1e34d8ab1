// How the crypto Worker hands decrypted bytes to whoever writes them out (the download service
// worker, or the page for the save picker and the in-memory fallback) over a MessagePort, without
// a hop through the page: ArrayBuffers are transferred (no copies), several records ride in one
// message, and a byte window gives backpressure without a round trip per record.
// No crypto here; keys never cross a port.

/** Writer → reader: plaintext (whole buffers, transferred), the end, or a failure. Reader → writer: acks and cancel. */
export type PlaintextPortMessage =
  | { type: 'chunks'; chunks: ArrayBuffer[] }
  | { type: 'end' }
  | { type: 'error'; message: string }
  | { type: 'ack'; bytes: number }
  | { type: 'cancel' };

/** The part of a MessagePort used here (Node's and the browser's both fit). */
export interface PortLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
}

/**
 * Bytes the writer may send ahead of the reader's acks. The reader acks as its queue drains, so
 * at most this plus the reader's high-water mark is buffered; 16 MiB hides the ack latency at
 * hundreds of MiB/s (32 records of 512 KiB).
 */
export const PORT_WINDOW_BYTES = 16 * 1024 * 1024;
/** The reader's queue before it stops acking (the browser's writer pulls from it). */
export const PORT_READER_HIGH_WATER_MARK = 8 * 1024 * 1024;

/**
 * Why a reader nudges the garbage collector. Every chunk arrives as a fresh ArrayBuffer (WebCrypto
 * always returns one) that Chromium frees only at a major GC: the browser side keeps its own
 * reference to a transferred buffer until then. A reader's heap is tiny, so V8 rarely reaches the
 * old-generation limit that starts one, and freed chunks piled up: the renderer grew by ~460 MiB
 * while streaming 4000 MiB (`npm run bench -- download`, memory figure). Allocating and dropping a
 * short-lived 8 MB array every 8 MiB of plaintext brings the next major GC forward: +113 MiB peak
 * at 4000 MiB, the curve flat during the download (16 MiB: +170 MiB). No API frees a buffer at once
 * (`ArrayBuffer.prototype.transfer(0)` made it worse: V8 stopped counting the bytes Chromium still held).
 */
export const GC_NUDGE_EVERY_BYTES = 8 * 1024 * 1024;
const GC_NUDGE_ELEMENTS = 2_000_000;
/** Stored to a module variable, so no compiler can drop the allocation as unused. */
let _nudgeSink: unknown;

/** Brings the next major GC forward (why: GC_NUDGE_EVERY_BYTES); the service worker's decrypted stream uses it too. */
export function nudgeGarbageCollector(): void {
  _nudgeSink = new Array(GC_NUDGE_ELEMENTS).fill(0);
  _nudgeSink = undefined;
}

export class PortCancelledError extends Error {
  override readonly name = 'PortCancelledError';
}

/** A buffer that can be transferred whole: the view's own buffer when it spans it, else a copy. */
function ownBuffer(chunk: Uint8Array): ArrayBuffer {
  if (chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer) return chunk.buffer;
  return chunk.slice().buffer as ArrayBuffer;
}

/**
 * The writing end. `queue` collects chunks (their buffers are handed over, so do not touch them
 * afterwards); `flush` sends them in one message and waits while the window is full. A reader's
 * cancel calls `onCancel` and makes every later call throw PortCancelledError.
 */
export class PlaintextPortWriter {
  private outstanding = 0;
  private queued: ArrayBuffer[] = [];
  private queuedBytes = 0;
  private wake: (() => void) | null = null;
  private cancelled = false;
  private interrupted = false;

  constructor(
    private readonly port: PortLike,
    private readonly onCancel: () => void = () => undefined,
    private readonly window = PORT_WINDOW_BYTES,
  ) {
    port.onmessage = (event: MessageEvent<PlaintextPortMessage>) => {
      const message = event.data;
      if (message?.type === 'ack') this.outstanding -= message.bytes;
      else if (message?.type === 'cancel') {
        this.cancelled = true;
        this.onCancel();
      } else return;
      this.wake?.();
    };
  }

  queue(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    this.queued.push(ownBuffer(chunk));
    this.queuedBytes += chunk.byteLength;
  }

  async flush(): Promise<void> {
    if (this.cancelled) throw new PortCancelledError('The reader cancelled');
    if (this.queued.length > 0) {
      const chunks = this.queued;
      this.outstanding += this.queuedBytes;
      this.queued = [];
      this.queuedBytes = 0;
      this.port.postMessage({ type: 'chunks', chunks } satisfies PlaintextPortMessage, chunks);
    }
    while (this.outstanding >= this.window && !this.cancelled && !this.interrupted) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    if (this.cancelled) throw new PortCancelledError('The reader cancelled');
    if (this.interrupted) throw new PortCancelledError('The download was stopped');
  }

  /**
   * Stops a wait for the window from the writer's side (e.g. a cancel on the control port while the
   * reader is not reading): without it the writer would wait for acks that never come.
   */
  interrupt(): void {
    this.interrupted = true;
    this.wake?.();
  }

  async end(): Promise<void> {
    await this.flush();
    this.port.postMessage({ type: 'end' } satisfies PlaintextPortMessage);
    this.release();
  }

  /** Tells the reader the bytes are incomplete (its stream errors, so no partial file is kept). */
  fail(message: string): void {
    if (!this.cancelled) this.port.postMessage({ type: 'error', message } satisfies PlaintextPortMessage);
    this.release();
  }

  // The reader closes the port once it has read the end or the failure: closing it here could drop them.
  private release(): void {
    this.queued = [];
    this.port.onmessage = null;
  }
}

/**
 * The reading end as a byte stream. Acks go back as the queue drains below `highWaterMark`;
 * cancelling the stream (e.g. the user cancels in the browser's download bar) tells the writer.
 */
export function plaintextPortStream(port: PortLike, highWaterMark = PORT_READER_HIGH_WATER_MARK): ReadableStream<Uint8Array> {
  let unacked = 0;
  let sinceNudge = 0;
  let done = false;
  const ack = () => {
    if (unacked > 0 && !done) {
      port.postMessage({ type: 'ack', bytes: unacked } satisfies PlaintextPortMessage);
      unacked = 0;
    }
  };
  const finish = () => {
    done = true;
    port.onmessage = null;
    port.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        port.onmessage = (event: MessageEvent<PlaintextPortMessage>) => {
          const message = event.data;
          if (message?.type === 'chunks') {
            for (const chunk of message.chunks) {
              controller.enqueue(new Uint8Array(chunk));
              unacked += chunk.byteLength;
              sinceNudge += chunk.byteLength;
            }
            if (sinceNudge >= GC_NUDGE_EVERY_BYTES) {
              sinceNudge = 0;
              nudgeGarbageCollector();
            }
            if ((controller.desiredSize ?? 0) > 0) ack();
          } else if (message?.type === 'end') {
            finish();
            controller.close();
          } else if (message?.type === 'error') {
            finish();
            controller.error(new Error(message.message));
          }
        };
      },
      pull() {
        ack();
      },
      cancel() {
        if (!done) port.postMessage({ type: 'cancel' } satisfies PlaintextPortMessage);
        finish();
      },
    },
    { highWaterMark, size: (chunk) => chunk.byteLength },
  );
}
