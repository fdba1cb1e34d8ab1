import { createApiClient } from '@shared/api/client';
import { createBrowserStorageAdapter } from '@shared/api/storage-adapter';

/** Browser storage (localStorage, memory fallback) for the anti-forgery value and the language. */
export const browserStorage = createBrowserStorageAdapter();

/** The one HTTP client of the web client: same origin, /api/2, cookies + anticsrfattr (SPEC §7). */
export const apiClient = createApiClient({ storage: browserStorage });

// Global response error handler (SPEC §7): log every failed call once, for support; screens show messages.
apiClient.onResponseError((error, request) => {
  console.debug(`[api] ${request.method} ${request.path} failed:`, error.message);
});
