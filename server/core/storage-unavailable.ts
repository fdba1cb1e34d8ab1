/**
 * The blob store cannot be reached right now (the local blob folder is missing or refuses access,
 * the S3 endpoint refuses connections, times out or answers 5xx). Thrown by the guard around the
 * store (storage/unavailable.ts); the error handler answers 503 with `Retry-After`, so clients wait
 * and try again instead of failing the transfer (issue 29 §3). Lives in `core/` because the error
 * handler maps it and `core/` may not import `storage/`.
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
  constructor(
    /** What failed, for the log only (a code such as ECONNREFUSED, never a secret). */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`The file store is unavailable (${reason})`, options);
  }
}

/**
 * `Retry-After` of the 503: short, because an outage is usually a restart of the store; the
 * clients back off on their own beyond it (shared/transfer/retry.ts).
 */
export const STORAGE_RETRY_AFTER_SECONDS = 5;
