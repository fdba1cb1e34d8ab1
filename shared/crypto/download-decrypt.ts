// Fetching a level-3/4 ciphertext and decrypting it while it arrives (web/README "Downloads"): the
// one loop behind the crypto Worker's decryptDownload (plaintext into a MessagePort) and the
// download service worker (plaintext straight into the response the browser saves). Both run the
// same StreamDecoder, so every check of the reader holds on either path: header (and its signed
// hash), each record, the final record, the signed content hash or commitment.
import { DownloadCancelledError, DownloadFailedError } from './errors';
import { StreamDecoder, type DecryptStreamOptions } from './stream-decoder';
import { STREAM_HEADER_BYTES, STREAM_TAG_BYTES, decodeStreamHeader } from './stream-format';
import { fromBase64Url } from './bytes';
import type { FileKeyMaterial } from './stream-records';
import { importHkdfKey } from './subtle';

/** Whole records per batch the decoder gets at once (4 × 512 KiB: one port message per batch). */
const RECORDS_PER_BATCH = 4;
/**
 * Batch buffers reused in turn. A batch is handed to the decoder, which opens records straight
 * from it and keeps views of the last few (RECORDS_IN_FLIGHT < RECORDS_PER_BATCH) until they
 * settle, and of a failed one until it is diagnosed, at the latest one batch later. So the decoder
 * refers to at most the current and the previous batch, and READ_AHEAD_BATCHES more are being
 * read from the network meanwhile: 2 + 2 = 4.
 */
const BATCH_POOL = 4;
/** Batches read while the decoder works: the network never waits for WebCrypto, nor WebCrypto for the network. */
const READ_AHEAD_BATCHES = 2;

/** Where the plaintext goes: `queue` takes a chunk (its buffer is handed over), `flush` waits for room. */
export interface PlaintextWriter {
  queue(chunk: Uint8Array): void;
  flush(): Promise<void>;
}

export interface FetchDecryptOptions {
  /** The decoder's key and checks (StreamDecoder options). */
  decoder: DecryptStreamOptions;
  url: string;
  headers?: Record<string, string>;
  /** Aborting it stops the fetch; failures then read as DownloadCancelledError. */
  signal: AbortSignal;
  writer: PlaintextWriter;
  /** The ciphertext's Content-Length (0 when unknown), once the answer is in. */
  onResponse?: (totalBytes: number) => void;
  /** Ciphertext bytes as they arrive. */
  onBytes?: (bytes: number) => void;
}

/**
 * GETs `url` (the caller's credentials) and decrypts the body into `writer`. Resolves once the
 * decoder's final checks passed and the last plaintext was queued and flushed; throws the decoder's
 * error, DownloadFailedError (no answer, an HTTP error, a dropped connection) or
 * DownloadCancelledError (after `signal` aborted).
 */
export async function fetchAndDecrypt(options: FetchDecryptOptions): Promise<void> {
  const { signal, writer } = options;
  const decoder = new StreamDecoder(options.decoder);
  const cancelledOr = (failure: Error) => (signal.aborted ? new DownloadCancelledError('The download was cancelled') : failure);
  const emit = (plaintext: Uint8Array) => writer.queue(plaintext);
  let response: Response;
  try {
    response = await fetch(options.url, { credentials: 'include', ...(options.headers ? { headers: options.headers } : {}), signal });
  } catch {
    throw cancelledOr(new DownloadFailedError('The download failed'));
  }
  if (!response.ok || !response.body) throw new DownloadFailedError(`The download failed (${response.status})`);
  options.onResponse?.(Number(response.headers.get('content-length') ?? 0));
  // Fresh buffers are what costs most here (Chromium zeroes and maps each one): the body is
  // read straight into a few reused record-aligned batches (BYOB where the body is a byte
  // stream, else copied), and the decoder opens whole records from them without copying.
  const fill = bodyFiller(response.body, (bytes) => options.onBytes?.(bytes), () => cancelledOr(new DownloadFailedError('The download was interrupted')));
  const header = await fill(new Uint8Array(STREAM_HEADER_BYTES).buffer);
  await decoder.push(header.view, emit);
  if (header.view.byteLength === STREAM_HEADER_BYTES) {
    const batchBytes = RECORDS_PER_BATCH * (decodeStreamHeader(header.view).recordSize + STREAM_TAG_BYTES);
    const pool: ArrayBuffer[] = [];
    // Reads run one after another (one body reader), each into the next pool slot.
    let reading: Promise<unknown> = Promise.resolve();
    const readTurn = (turn: number) => {
      const read = reading.then(() => fill(pool[turn] ?? new ArrayBuffer(batchBytes)));
      read.catch(() => undefined); // awaited in order below; a failure while decrypting is reported from there
      reading = read.catch(() => undefined);
      return read;
    };
    const ahead = [readTurn(0)];
    for (let turn = 0; ; turn = (turn + 1) % BATCH_POOL) {
      while (ahead.length <= READ_AHEAD_BATCHES) ahead.push(readTurn((turn + ahead.length) % BATCH_POOL));
      const batch = await (ahead.shift() as ReturnType<typeof readTurn>);
      pool[turn] = batch.buffer;
      if (batch.view.byteLength > 0) await decoder.push(batch.view, emit);
      await writer.flush();
      if (batch.view.byteLength < batchBytes) break;
    }
  }
  await decoder.finish(emit);
  await writer.flush();
}

/**
 * Reads a response body into caller-owned buffers: `fill(buffer)` fills it completely, except at the
 * end of the body, and returns the view of what it wrote and the buffer (a BYOB read transfers the
 * buffer, so the returned one replaces the one passed in).
 */
function bodyFiller(
  body: ReadableStream<Uint8Array>,
  onBytes: (bytes: number) => void,
  readFailure: () => Error,
): (buffer: ArrayBuffer) => Promise<{ view: Uint8Array; buffer: ArrayBuffer }> {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = body.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream in this runtime: chunks are copied in.
  }
  const reader = byob ? null : body.getReader();
  let leftover: Uint8Array = new Uint8Array(0);
  let ended = false;
  const read = async <T>(next: () => Promise<T>): Promise<T> => {
    try {
      return await next();
    } catch {
      throw readFailure();
    }
  };
  return async (buffer) => {
    let filled = 0;
    while (filled < buffer.byteLength && !ended) {
      if (byob) {
        const target = new Uint8Array(buffer, filled, buffer.byteLength - filled);
        const { done, value } = await read(() => (byob as ReadableStreamBYOBReader).read(target));
        if (value) buffer = value.buffer as ArrayBuffer;
        if (done) ended = true;
        if (value && value.byteLength > 0) {
          filled += value.byteLength;
          onBytes(value.byteLength);
        }
        continue;
      }
      if (leftover.byteLength === 0) {
        const { done, value } = await read(() => (reader as ReadableStreamDefaultReader<Uint8Array>).read());
        if (done) {
          ended = true;
          break;
        }
        leftover = value;
        onBytes(value.byteLength);
      }
      const take = Math.min(leftover.byteLength, buffer.byteLength - filled);
      new Uint8Array(buffer, filled, take).set(leftover.subarray(0, take));
      leftover = leftover.subarray(take);
      filled += take;
    }
    return { view: new Uint8Array(buffer, 0, filled), buffer };
  };
}

/**
 * One file's key for the download service worker (web/README "Downloads"): the file key as a
 * non-extractable HKDF CryptoKey — it derives this file's content key and header and nothing else,
 * and structured cloning (postMessage) keeps it non-extractable — with what the reader must check
 * (a data room file: the header its key derives, and the signed content hash or commitment).
 */
export interface ServiceWorkerDownloadKey {
  key: CryptoKey;
  headerDerivedFromKey: boolean;
  /** base64url, as signed (room metadata format 1). */
  expectedContentSha256?: string;
  /** base64url, as signed (format 2). */
  expectedContentCommitment?: string;
}

export async function serviceWorkerDownloadKey(fileKey: Uint8Array, checks: Omit<ServiceWorkerDownloadKey, 'key'>): Promise<ServiceWorkerDownloadKey> {
  return { ...checks, key: await importHkdfKey(fileKey) };
}

/** What a service worker download must decode: the key and checks, the signed size and header hash. */
export interface ServiceWorkerDecodeArgs {
  key: ServiceWorkerDownloadKey;
  plaintextLength: number;
  expectedHeaderSha256?: string;
}

/** The StreamDecoder options of a service worker download (every check the Worker's reader makes). */
export function serviceWorkerDecoderOptions(args: ServiceWorkerDecodeArgs): DecryptStreamOptions {
  const { key } = args;
  const fileKey: FileKeyMaterial = key.key;
  return {
    fileKey,
    plaintextLength: args.plaintextLength,
    ...(args.expectedHeaderSha256 === undefined ? {} : { expectedHeaderHash: fromBase64Url(args.expectedHeaderSha256) }),
    ...(key.headerDerivedFromKey ? { headerDerivedFromKey: true } : {}),
    ...(key.expectedContentSha256 === undefined ? {} : { expectedPlaintextSha256: fromBase64Url(key.expectedContentSha256) }),
    ...(key.expectedContentCommitment === undefined ? {} : { expectedContentCommitment: fromBase64Url(key.expectedContentCommitment) }),
  };
}

/** The plaintext stream's queue before the decoder waits (the browser's download drains it). */
export const DECRYPTED_STREAM_HIGH_WATER_MARK = 8 * 1024 * 1024;

/**
 * A download decrypted into a byte stream (the service worker's response body). The decoding
 * starts at once and pauses while the stream's queue is full; a failure errors the stream, so the
 * browser's download fails instead of landing a complete-looking file; cancelling the stream (the
 * download bar) or `signal` stops the fetch. `done` settles with the outcome (rejects like
 * fetchAndDecrypt).
 */
export function decryptedDownloadStream(options: Omit<FetchDecryptOptions, 'writer' | 'signal'> & { signal?: AbortSignal }): {
  stream: ReadableStream<Uint8Array>;
  done: Promise<void>;
} {
  const abort = new AbortController();
  options.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  let wake: (() => void) | null = null;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        wake?.();
      },
      cancel() {
        abort.abort();
        wake?.();
      },
    },
    { highWaterMark: DECRYPTED_STREAM_HIGH_WATER_MARK, size: (chunk) => chunk.byteLength },
  );
  const writer: PlaintextWriter = {
    queue(chunk) {
      if (chunk.byteLength === 0 || abort.signal.aborted) return;
      // No garbage-collector nudge here (plaintext-port.ts has one): nothing is transferred, the
      // response body copies each chunk out and drops it, and V8's own accounting of the
      // buffers' external memory collects them — measured flat without it (web/README "Downloads"),
      // while the nudge's 16 MB array per 8 MiB cost ~0.3 CPU-s per GiB.
      controller.enqueue(chunk);
    },
    async flush() {
      while ((controller.desiredSize ?? 0) <= 0 && !abort.signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (abort.signal.aborted) throw new DownloadCancelledError('The download was cancelled');
    },
  };
  const done = fetchAndDecrypt({ ...options, signal: abort.signal, writer }).then(
    () => controller.close(),
    (error: unknown) => {
      abort.abort();
      try {
        controller.error(error);
      } catch {
        // Already cancelled by the reader.
      }
      throw error;
    },
  );
  done.catch(() => undefined);
  return { stream, done };
}
