// Blob-store outages as one error (issue 29 §3): whatever says "the store cannot be reached now" —
// a refused or dropped connection, a timeout, a 5xx from S3, a local folder that is gone or refuses
// access — becomes StorageUnavailableError, which the error handler answers with 503 + Retry-After.
// Everything else (a missing blob, a body that does not match its hash, a bad key) passes as it is.
import { StorageUnavailableError } from '../core/storage-unavailable';
import type { BlobStore } from './blob-store';

/** Socket and file-system codes of an unreachable store (network, or a folder/volume that went away). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN',
  'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT',
  'EACCES', 'EPERM', 'EROFS', 'EIO', 'ENOTCONN', 'ESTALE', 'ENODEV', 'ENXIO',
]);
/** Error names the AWS SDK gives timeouts and a store's own "try later" answers. */
const UNAVAILABLE_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'SlowDown', 'ServiceUnavailable', 'InternalError']);

/** The code (or name) naming why the store is unreachable, or null when `error` is not an outage. */
export function unavailableReason(error: unknown): string | null {
  if (error instanceof StorageUnavailableError) return error.reason;
  if (typeof error !== 'object' || error === null) return null;
  const { code, name, $metadata, errors } = error as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: unknown }; errors?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return code;
  if (typeof name === 'string' && UNAVAILABLE_NAMES.has(name)) return name;
  const status = $metadata?.httpStatusCode;
  if (typeof status === 'number' && status >= 500) return `HTTP ${status}`;
  // Node's connect of several addresses fails with an AggregateError of the attempts.
  if (Array.isArray(errors)) for (const inner of errors) if (unavailableReason(inner)) return unavailableReason(inner);
  return null;
}

const translated = (error: unknown): unknown => {
  if (error instanceof StorageUnavailableError) return error;
  const reason = unavailableReason(error);
  return reason ? new StorageUnavailableError(reason, { cause: error }) : error;
};

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw translated(error);
  }
}

/**
 * The store with its outages translated. A byte stream that fails after it opened keeps its own
 * error (the answer has started: the client sees a short body and resumes with a Range).
 * `checkReady` stays raw: `/readyz` names the code itself.
 */
export function guardAvailability(store: BlobStore): BlobStore {
  return {
    put: (key, body, options) => guarded(() => store.put(key, body, options)),
    getStream: (key, range) => guarded(() => store.getStream(key, range)),
    ...(store.openRange
      ? {
          openRange: (key: string, range: Parameters<NonNullable<BlobStore['openRange']>>[1]) =>
            guarded(async () => {
              const reader = await store.openRange!(key, range);
              return { read: (target: Uint8Array) => guarded(() => reader.read(target)), close: () => reader.close() };
            }),
        }
      : {}),
    delete: (key) => guarded(() => store.delete(key)),
    deletePrefix: (prefix) => guarded(() => store.deletePrefix(prefix)),
    exists: (key) => guarded(() => store.exists(key)),
    freeSpace: () => guarded(() => store.freeSpace()),
    sweepTemporaries: () => guarded(() => store.sweepTemporaries()),
    checkReady: () => store.checkReady(),
  };
}
