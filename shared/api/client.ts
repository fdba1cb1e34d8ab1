import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { API_BASE } from '@shared/contract/constants';
import { toApiError, type ApiError } from './api-error';
import { createMemoryStorage, type KeyValueStorage } from './storage-adapter';

/** Local-storage key of the anti-forgery value; independent of cookies (SPEC §3). */
export const ANTI_CSRF_STORAGE_KEY = 'anticsrfattr';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface BasicCredentials {
  username: string;
  password: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  /** Serialized as JSON. */
  body?: unknown;
  /**
   * A binary body sent as is (e.g. an upload part; a Blob is fastest in Chromium, DESIGN §4).
   * Takes precedence over `body`; `Content-Type` is `contentType`, else the Blob's type, else
   * `application/octet-stream`.
   */
  rawBody?: Blob | ArrayBuffer | Uint8Array;
  /** Content type of `rawBody`. */
  contentType?: string;
  headers?: Record<string, string>;
  /** Sends `Authorization: Basic …` built from these (UTF-8). */
  basicAuth?: BasicCredentials;
  /** `api` (default) prefixes /api/2; `backend` calls a path on the backend host as is (keep-alive, logout). */
  base?: 'api' | 'backend';
  /** Extra statuses that are not errors (e.g. 401/403 for GET /user, SPEC §5). */
  acceptStatus?: (status: number) => boolean;
  /** Milliseconds; none by default (SPEC §9). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  data: T;
  /** Final address after redirects (SPEC §7: GET /user may end on the two-factor page). */
  url: string;
  redirected: boolean;
}

/** Called with every failed call before it is thrown: the global response error handler (SPEC §7). */
export type ResponseErrorHandler = (error: ApiError | Error, request: { method: HttpMethod; path: string }) => void;

export interface ApiClient {
  request<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  getAntiCsrfToken(): string | null;
  setAntiCsrfToken(value: string | null): void;
  /** Registers the global error handler; returns a function removing it. */
  onResponseError(handler: ResponseErrorHandler): () => void;
}

export interface ApiClientOptions {
  /** Backend origin ('' = same origin). */
  backendUrl?: string;
  fetch?: typeof fetch;
  storage?: KeyValueStorage;
}

/** Base64 of the UTF-8 bytes (btoa alone breaks on non-Latin-1 passwords). */
export function encodeBasicCredentials({ username, password }: BasicCredentials): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

function buildUrl(backendUrl: string, base: 'api' | 'backend', path: string, query: RequestOptions['query']): string {
  const prefix = base === 'api' ? `${backendUrl}${API_BASE}` : backendUrl;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  const qs = search.toString();
  return `${prefix}${path}${qs ? `?${qs}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The fetch-based HTTP client of every product call (SPEC §7): base /api/2, cookies included,
 * the anti-forgery value as header `anticsrfattr` on every call, no timeout unless asked.
 */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const backendUrl = (options.backendUrl ?? '').replace(/\/$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const storage = options.storage ?? createMemoryStorage();
  let antiCsrfToken: string | null = storage.getItem(ANTI_CSRF_STORAGE_KEY);
  const errorHandlers = new Set<ResponseErrorHandler>();

  function report(error: ApiError | Error, method: HttpMethod, path: string): void {
    for (const handler of errorHandlers) {
      try {
        handler(error, { method, path });
      } catch {
        // A broken handler must not hide the original error.
      }
    }
  }

  async function request<T>(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    if (antiCsrfToken) headers[ANTI_CSRF_HEADER] = antiCsrfToken;
    if (opts.basicAuth) headers.Authorization = encodeBasicCredentials(opts.basicAuth);
    let body: BodyInit | undefined;
    if (opts.rawBody !== undefined) {
      const raw = opts.rawBody;
      body = raw as BodyInit;
      const blobType = typeof Blob !== 'undefined' && raw instanceof Blob ? raw.type : '';
      headers['Content-Type'] = opts.contentType || blobType || 'application/octet-stream';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
    const signals = [opts.signal, opts.timeoutMs ? AbortSignal.timeout(opts.timeoutMs) : undefined].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    const url = buildUrl(backendUrl, opts.base ?? 'api', path, opts.query);
    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        headers,
        body,
        credentials: 'include',
        signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
      });
    } catch (cause) {
      const error = cause instanceof Error ? cause : new Error(String(cause));
      report(error, method, path);
      throw error;
    }
    const data = await readBody(response);
    const accepted = response.ok || (opts.acceptStatus?.(response.status) ?? false);
    if (!accepted) {
      const error = toApiError(response.status, response.statusText, response.headers, data);
      report(error, method, path);
      throw error;
    }
    return { status: response.status, headers: response.headers, data: data as T, url: response.url, redirected: response.redirected };
  }

  return {
    request,
    get: async <T>(path: string, opts?: RequestOptions) => (await request<T>('GET', path, opts)).data,
    post: async <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      (await request<T>('POST', path, { ...opts, body })).data,
    getAntiCsrfToken: () => antiCsrfToken,
    setAntiCsrfToken(value) {
      antiCsrfToken = value;
      if (value) storage.setItem(ANTI_CSRF_STORAGE_KEY, value);
      else storage.removeItem(ANTI_CSRF_STORAGE_KEY);
    },
    onResponseError(handler) {
      errorHandlers.add(handler);
      return () => void errorHandlers.delete(handler);
    },
  };
}
