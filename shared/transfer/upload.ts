import type { ApiClient } from '@shared/api/client';
import {
  announceDeliveryFile,
  commitDeliveryFile,
  listDeliveryFileParts,
  putDeliveryFilePart,
} from '@shared/api/endpoints/delivery-send';
import { partBounds, type DeliveryUploadFile, type Part, type PartsResponse } from '@shared/contract/deliveries';
import { sha256Hex } from '@shared/crypto/subtle';
import { DeliverySendError, toSendError } from '@shared/deliveries/send-errors';
import { PARTS_AHEAD, PARTS_IN_FLIGHT, PREPARE_CONCURRENCY } from './constants';
import { runPipeline } from './pipeline';
import { DEFAULT_RETRY, isRefusedForNow, retryGroup, type RetryClock, type RetryPolicy } from './retry';

export { DEFAULT_RETRY, isRetryable, retryDelayMs, retryGroup, withRetry, type RetryClock, type RetryPolicy } from './retry';

/** A local file to send: a Blob works the same in browsers (File), the add-in and Node ≥ 20. */
export interface UploadSource {
  name: string;
  blob: Blob;
  /** Defaults to the Blob's type, else application/octet-stream. */
  mimeType?: string;
}

/** One part of the wire bytes: the PUT body, its size and SHA-256 (hex), hashed where the bytes are (E2E: in the crypto Worker). */
export interface PartBytes {
  body: Blob;
  size: number;
  sha256: string;
}

/** What goes over the wire for one file: its size, how each part is produced, and whether it is E2E ciphertext. */
export interface PreparedUpload {
  /** Bytes on the wire (E2E: the ciphertext size). */
  size: number;
  encrypted: boolean;
  /** E2E: announced with the file, so the server lays parts on record boundaries. */
  encryption?: { recordSize: number; headerSha256: string };
  /**
   * The wire bytes `[start, end)` of part `index`, produced when the pipeline gets to it (plain: a
   * slice of the file; E2E: that part encrypted), so no file is ever held whole.
   */
  readPart(part: { index: number; start: number; end: number }, signal: AbortSignal): Promise<PartBytes>;
  /**
   * E2E: a part on the server that differs from the local one means the local file changed;
   * sending other bytes under the same key and nonces would be nonce reuse, so the upload stops
   * with `LocalFileChangedError` (the caller starts the file over with a fresh key).
   */
  strictResume?: boolean;
}

/** A Blob sent as it is (levels 1/2). */
export function blobUpload(blob: Blob): PreparedUpload {
  return {
    size: blob.size,
    encrypted: false,
    async readPart({ start, end }) {
      // The slice is the body (no copy); its bytes are read once, only for the hash.
      const body = blob.slice(start, end);
      const bytes = new Uint8Array(await body.arrayBuffer());
      return { body, size: bytes.length, sha256: await sha256Hex(bytes) };
    },
  };
}

/** A resumed strict (E2E) upload found a part on the server that the local file no longer gives. */
export class LocalFileChangedError extends Error {
  override readonly name = 'LocalFileChangedError';
}

/**
 * The seam for custom byte transforms: turns a source into the bytes to upload. Without one,
 * the source's bytes are sent as they are (levels 3/4 use `sendDelivery`'s `e2e` instead).
 */
export type FileTransform = (source: UploadSource, signal?: AbortSignal) => Promise<PreparedUpload>;

export interface UploadFileOptions {
  client: ApiClient;
  deliveryUuid: string;
  /** The bytes to upload (already transformed). */
  upload: PreparedUpload;
  name: string;
  mimeType: string;
  /** Resume: the file already announced on the server; its received parts are checked and skipped. */
  fileId?: string;
  /** Resume: the parts listing of `fileId` when the caller already fetched it. */
  parts?: PartsResponse;
  /** Awaited after a fresh announce, before any part (E2E: the sender's own key copy goes to the draft). */
  afterAnnounce?: (fileId: string, signal: AbortSignal | undefined) => Promise<void>;
  partsInFlight?: number;
  /** Parts prepared ahead of those in flight (memory: `partsInFlight + partsAhead` parts at most). */
  partsAhead?: number;
  retry?: RetryPolicy;
  /** Time for the retry's back-off (unit tests). */
  clock?: RetryClock;
  /** true while the upload waits for the server (every retry window used up: SPEC §4 `paused`), false once it goes on. */
  onWaiting?: (waiting: boolean) => void;
  signal?: AbortSignal;
  /** Called with the bytes of every part that is on the server (uploaded now or found there), once per part. */
  onBytes?: (bytes: number) => void;
  /** Called once the server's file id is known (announce or resume). */
  onFileId?: (fileId: string) => void;
}

function cancelled(signal: AbortSignal): never {
  throw new DeliverySendError(toSendError(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError')));
}

interface ReadyPart {
  body: Blob;
  size: number;
  sha256: string;
}

/**
 * Uploads one file (DESIGN §4): announce (or resume by `fileId`), cut into the server's
 * `partSize` (E2E: part 0 also carries the stream header, `leadingBytes`), then a bounded
 * pipeline: parts are produced (read or encrypted) and SHA-256-hashed up to `partsAhead` ahead of
 * the `partsInFlight` PUTs (body as a Blob), a failing PUT is retried with backoff. On a resume the
 * parts the server holds are checked first (same size and hash → skipped), then the rest is sent,
 * then committed. Throws a DeliverySendError (cancelled when `signal` aborts), or
 * LocalFileChangedError for a strict upload whose local file changed.
 */
export async function uploadFile(options: UploadFileOptions): Promise<DeliveryUploadFile> {
  const { client, deliveryUuid, upload, signal } = options;
  const retry = options.retry ?? DEFAULT_RETRY;
  // Parts retry on their own; the file waits while any of them does.
  const group = retryGroup(retry, { ...(options.onWaiting ? { onWaiting: options.onWaiting } : {}), ...(options.clock ? { clock: options.clock } : {}) });
  const retrying = <T>(call: () => Promise<T>, callSignal: AbortSignal | undefined, retryable?: (error: unknown) => boolean) =>
    group(call, callSignal ?? new AbortController().signal, retryable);
  const inFlight = Math.max(1, options.partsInFlight ?? PARTS_IN_FLIGHT);
  const ahead = options.partsAhead ?? PARTS_AHEAD;
  const context = { fileName: options.name };
  try {
    let fileId: string;
    let partSize: number;
    let partCount: number;
    let leadingBytes: number | undefined;
    const received = new Map<number, Part>();
    if (options.fileId) {
      const state = options.parts ?? (await retrying(() => listDeliveryFileParts(client, deliveryUuid, options.fileId!, signal), signal));
      ({ fileId, partSize, partCount, leadingBytes } = state);
      options.onFileId?.(fileId);
      if (state.status === 'committed') {
        // Committed in an earlier run (committing again would be a conflict).
        options.onBytes?.(upload.size);
        return { fileId, name: options.name, size: upload.size, mimeType: options.mimeType, status: 'committed', encrypted: upload.encrypted, scanState: 'notScanned', partSize, partCount };
      }
      for (const part of state.parts) if (part.index < partCount) received.set(part.index, part);
    } else {
      // Not idempotent (a lost answer and a second announce would be a duplicate name): retried only on an answer saying nothing was done.
      const announced = await retrying(
        () =>
          announceDeliveryFile(
            client,
            deliveryUuid,
            { name: options.name, size: upload.size, mimeType: options.mimeType, ...(upload.encryption ? { encryption: upload.encryption } : {}) },
            signal,
          ),
        signal,
        isRefusedForNow,
      );
      ({ fileId, partSize, partCount, leadingBytes } = announced);
      options.onFileId?.(fileId);
      await options.afterAnnounce?.(fileId, signal);
    }

    const prepare = async (index: number, partSignal: AbortSignal): Promise<ReadyPart> => {
      const { start, end } = partBounds({ size: upload.size, partSize, leadingBytes }, index);
      const { body, size, sha256 } = await upload.readPart({ index, start, end }, partSignal);
      if (size !== end - start || body.size !== size) throw new Error(`Part ${index} has ${body.size} bytes, the server expects ${end - start}`);
      return { body, size, sha256 };
    };
    const pipeline = { prepare, inFlight, ahead, prepareConcurrency: PREPARE_CONCURRENCY, signal };

    // Resume: the parts the server holds are checked before anything is sent (a strict upload
    // must not send a single byte under its key once the local file turned out changed).
    const toSend: number[] = [];
    for (let index = 0; index < partCount; index++) if (!received.has(index)) toSend.push(index);
    if (received.size > 0) {
      await runPipeline({
        ...pipeline,
        indices: [...received.keys()].sort((a, b) => a - b),
        send: async (index, part) => {
          const have = received.get(index)!;
          if (have.size === part.size && have.sha256 === part.sha256) options.onBytes?.(part.size);
          else if (upload.strictResume) throw new LocalFileChangedError(`Part ${index} on the server differs from the local file`);
          else toSend.push(index);
        },
      });
      toSend.sort((a, b) => a - b);
    }
    await runPipeline({
      ...pipeline,
      indices: toSend,
      send: async (index, part, partSignal) => {
        await retrying(() => putDeliveryFilePart(client, { deliveryUuid, fileId, index }, part.body, part.sha256, partSignal), partSignal);
        options.onBytes?.(part.size);
      },
    });
    // The commit checks every part in the store: an outage there answers 503 too.
    return await retrying(() => commitDeliveryFile(client, deliveryUuid, fileId, signal), signal);
  } catch (error) {
    if (signal?.aborted) cancelled(signal);
    if (error instanceof LocalFileChangedError || error instanceof DeliverySendError) throw error;
    throw new DeliverySendError(toSendError(error, context));
  }
}
