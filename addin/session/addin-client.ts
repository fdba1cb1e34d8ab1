import { createApiClient, type ApiClient } from '@shared/api/client';
import type { KeyValueStorage } from '@shared/api/storage-adapter';

/** Where the bearer session token is kept (cookies are partitioned or blocked in Outlook's web views, DESIGN §2). */
export const ADDIN_TOKEN_STORAGE_KEY = 'kuvert.addin.sessionToken';

export interface AddinClient {
  client: ApiClient;
  /** Secret: never log it. */
  getToken(): string | null;
  setToken(token: string | null): void;
}

/**
 * The shared API client with the add-in's bearer token on every call (and no cookies: the
 * token alone says who is signed in). A call that brings its own Authorization (the Basic
 * header of the sign-in) keeps it.
 */
export function createAddinClient(storage: KeyValueStorage, baseFetch: typeof fetch = (i, init) => globalThis.fetch(i, init)): AddinClient {
  let token = storage.getItem(ADDIN_TOKEN_STORAGE_KEY);
  const bearerFetch: typeof fetch = (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return baseFetch(input, { ...init, headers, credentials: 'omit' });
  };
  return {
    client: createApiClient({ fetch: bearerFetch, storage }),
    getToken: () => token,
    setToken(value) {
      token = value;
      if (value) storage.setItem(ADDIN_TOKEN_STORAGE_KEY, value);
      else storage.removeItem(ADDIN_TOKEN_STORAGE_KEY);
    },
  };
}
