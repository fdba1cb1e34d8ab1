import { API_ERROR_HEADER, type BackendError } from '@shared/contract/errors';

/**
 * A non-2xx answer of the backend (SPEC §8). The message comes from the body's
 * `error.message` / `message`, else from the `api-error` header; the parsed error object is
 * kept. Network failures are NOT ApiErrors: they stay the standard `TypeError` of fetch.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The backend error object when the body had one (SPEC §3). */
  readonly error: BackendError | undefined;
  /** Raw parsed body (JSON) or undefined when it was not JSON. */
  readonly body: unknown;
  readonly headers: Headers;

  constructor(options: { status: number; message: string; error?: BackendError; body?: unknown; headers: Headers }) {
    super(options.message);
    this.status = options.status;
    this.error = options.error;
    this.body = options.body;
    this.headers = options.headers;
  }

  /** Exception class the server named, e.g. `RateLimitExceededException`. */
  get errorClass(): string | undefined {
    return this.error?.error;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Builds the ApiError for a failed response whose body was already read (or not JSON). */
export function toApiError(status: number, statusText: string, headers: Headers, body: unknown): ApiError {
  let message: string | undefined;
  let error: BackendError | undefined;
  if (isRecord(body)) {
    // Some proxies wrap the object as {error: {...}}; ours sends it flat with `error` = class name.
    const nested = isRecord(body.error) ? body.error : undefined;
    if (nested && typeof nested.message === 'string') {
      message = nested.message;
      error = nested as unknown as BackendError;
    } else if (typeof body.message === 'string') {
      message = body.message;
      error = body as unknown as BackendError;
    }
  }
  message ||= headers.get(API_ERROR_HEADER) ?? undefined;
  message ||= statusText || `HTTP ${status}`;
  return new ApiError({ status, message, error, body, headers });
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
