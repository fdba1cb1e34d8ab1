import { ApiError } from '@shared/api/api-error';
import type { ApiClient } from '@shared/api/client';
import {
  announceDeliveryFile,
  commitDeliveryFile,
  listDeliveryFileParts,
  putDeliveryFilePart,
} from '@shared/api/endpoints/delivery-send';
import { partBounds, type DeliveryUploadFile, type Part } from '@shared/contract/deliveries';
import { sha256Hex } from '@shared/crypto/subtle';
import { DeliverySendError, toSendError } from '@shared/deliveries/send-errors';
import { PART_MAX_ATTEMPTS, PARTS_IN_FLIGHT, RETRY_BASE_DELAY_MS, RETRY_MAX_DELAY_MS } from './constants';

/** A local file to send: a Blob works the same in browsers (File), the add-in and Node ≥ 20. */
export interface UploadSource {
  name: string;
  blob: Blob;
  /** Defaults to the Blob's type, else application/octet-stream. */
  mimeType?: string;
}

/** What goes over the wire for one file: the bytes (after the transform) and whether they are E2E ciphertext. */
export interface PreparedUpload {
  blob: Blob;
  encrypted: boolean;
  /** E2E: announced with the file, so the server lays parts on record boundaries. */
  encryption?: { recordSize: number; headerSha256: string };
}

/**
 * The seam for levels 3/4: turns a source into the bytes to upload (E2E will plug its
 * encryption in here). Without one, the source's bytes are sent as they are.
 */
export type FileTransform = (source: UploadSource, signal?: AbortSignal) => Promise<PreparedUpload>;

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: PART_MAX_ATTEMPTS, baseDelayMs: RETRY_BASE_DELAY_MS, maxDelayMs: RETRY_MAX_DELAY_MS };

export interface UploadFileOptions {
  client: ApiClient;
  deliveryUuid: string;
  /** The bytes to upload (already transformed). */
  upload: PreparedUpload;
  name: string;
  mimeType: string;
  /** Resume: the file already announced on the server; its received parts are checked and skipped. */
  fileId?: string;
  partsInFlight?: number;
  retry?: RetryPolicy;
  signal?: AbortSignal;
  /** Called with the bytes of every part that is on the server (uploaded now or found there), once per part. */
  onBytes?: (bytes: number) => void;
  /** Called once the server's file id is known (announce or resume). */
  onFileId?: (fileId: string) => void;
}

/** Whether a failed PUT is worth another attempt: no answer, a timeout, or a server-side hiccup (never a refusal). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 408 || error.status === 429 || (error.status >= 500 && error.status !== 507);
  return error instanceof TypeError; // fetch: no answer at all
}

/** Backoff before attempt `attempt + 1` (attempt ≥ 1): exponential, capped, with half jitter. */
export function retryDelayMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(full / 2 + (random() * full) / 2);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function cancelled(signal: AbortSignal): never {
  throw new DeliverySendError(toSendError(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError')));
}

/**
 * Uploads one file (DESIGN §4): announce (or resume by `fileId`), cut into the server's
 * `partSize` (E2E: part 0 also carries the stream header, `leadingBytes`), SHA-256 each part, PUT up to `partsInFlight` at once with the body as a Blob,
 * retry a failing part with backoff, skip parts the server already holds with the same size
 * and hash, then commit. Throws a DeliverySendError (cancelled when `signal` aborts).
 */
export async function uploadFile(options: UploadFileOptions): Promise<DeliveryUploadFile> {
  const { client, deliveryUuid, upload, signal } = options;
  const retry = options.retry ?? DEFAULT_RETRY;
  const context = { fileName: options.name };
  try {
    let fileId: string;
    let partSize: number;
    let partCount: number;
    let leadingBytes: number | undefined;
    const received = new Map<number, Part>();
    if (options.fileId) {
      const state = await listDeliveryFileParts(client, deliveryUuid, options.fileId, signal);
      ({ fileId, partSize, partCount, leadingBytes } = state);
      options.onFileId?.(fileId);
      if (state.status === 'committed') {
        // Committed in an earlier run (committing again would be a conflict).
        options.onBytes?.(upload.blob.size);
        return { fileId, name: options.name, size: upload.blob.size, mimeType: options.mimeType, status: 'committed', encrypted: upload.encrypted, scanState: 'notScanned', partSize, partCount };
      }
      for (const part of state.parts) received.set(part.index, part);
    } else {
      const announced = await announceDeliveryFile(
        client,
        deliveryUuid,
        { name: options.name, size: upload.blob.size, mimeType: options.mimeType, ...(upload.encryption ? { encryption: upload.encryption } : {}) },
        signal,
      );
      ({ fileId, partSize, partCount, leadingBytes } = announced);
      options.onFileId?.(fileId);
    }

    // The parts share one controller: the first part that fails for good stops the others.
    const stop = new AbortController();
    const onOuterAbort = () => stop.abort(signal!.reason);
    signal?.addEventListener('abort', onOuterAbort, { once: true });
    let next = 0;
    const worker = async () => {
      while (!stop.signal.aborted) {
        const index = next++;
        if (index >= partCount) return;
        const { start, end } = partBounds({ size: upload.blob.size, partSize, leadingBytes }, index);
        const slice = upload.blob.slice(start, end);
        const hash = await sha256Hex(new Uint8Array(await slice.arrayBuffer()));
        const have = received.get(index);
        if (!(have && have.size === slice.size && have.sha256 === hash)) {
          for (let attempt = 1; ; attempt++) {
            try {
              await putDeliveryFilePart(client, { deliveryUuid, fileId, index }, slice, hash, stop.signal);
              break;
            } catch (error) {
              if (stop.signal.aborted || attempt >= retry.maxAttempts || !isRetryable(error)) throw error;
              await sleep(retryDelayMs(attempt, retry), stop.signal);
            }
          }
        }
        options.onBytes?.(slice.size);
      }
    };
    try {
      const workers = Array.from({ length: Math.max(1, Math.min(options.partsInFlight ?? PARTS_IN_FLIGHT, partCount)) }, () =>
        worker().catch((error: unknown) => {
          if (!stop.signal.aborted) stop.abort(error);
          throw error;
        }),
      );
      const results = await Promise.allSettled(workers);
      if (signal?.aborted) cancelled(signal);
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      // The first failure is the cause; later ones are the aborts it triggered.
      if (failure) throw stop.signal.aborted ? stop.signal.reason : failure.reason;
    } finally {
      signal?.removeEventListener('abort', onOuterAbort);
    }
    return await commitDeliveryFile(client, deliveryUuid, fileId, signal);
  } catch (error) {
    if (signal?.aborted) cancelled(signal);
    throw error instanceof DeliverySendError ? error : new DeliverySendError(toSendError(error, context));
  }
}
