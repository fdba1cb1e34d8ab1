import { createCryptoProxy } from '@shared/crypto/proxy';
import type { CryptoApi, UnlockedKeys } from '@shared/crypto/service';
import { CRYPTO_METHODS, type CryptoMethod } from '@shared/crypto/worker-protocol';
import { useSyncExternalStore } from 'react';
import { authStore } from './auth';

/**
 * The web client's ONE crypto Worker (src/web/crypto-worker.ts), behind one CryptoApi proxy.
 * The Worker starts on the first call, so pages that never encrypt never start it.
 */
let workerApi: CryptoApi | null = null;

function startWorker(): CryptoApi {
  if (!workerApi) {
    // webpack 5 turns this into a separate worker chunk under /webjars/ (classic worker, own runtime).
    const worker = new Worker(new URL('../../src/web/crypto-worker.ts', import.meta.url), { type: 'module', name: 'kuvert-crypto' });
    workerApi = createCryptoProxy(worker);
  }
  return workerApi;
}

function lazyApi(): CryptoApi {
  const api: Partial<Record<CryptoMethod, (args?: unknown) => Promise<unknown>>> = {};
  for (const method of CRYPTO_METHODS) {
    api[method] = (args?: unknown) => {
      // Nothing to forget while the Worker never ran.
      if (method === 'lock' && !workerApi) return Promise.resolve();
      return (startWorker()[method] as (a?: unknown) => Promise<unknown>)(args);
    };
  }
  return api as unknown as CryptoApi;
}

/** The crypto API of the web client: handles, never key bytes (shared/crypto/service.ts). */
export const cryptoApi: CryptoApi = lazyApi();

/** The user's unlocked SecuPass keys (handles + public info) for this session, or null while locked. */
export interface SecuPassSession {
  userUuid: string;
  keys: UnlockedKeys;
}

let session: SecuPassSession | null = null;
const listeners = new Set<() => void>();

function setSession(next: SecuPassSession | null): void {
  session = next;
  for (const listener of listeners) listener();
}

export const secuPassKeys = {
  get: (): SecuPassSession | null => session,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /** Remembers keys the Worker unlocked (set, change or unlock) until lock() or logout. */
  unlocked(userUuid: string, keys: UnlockedKeys): void {
    setSession({ userUuid, keys });
  },
  /** Forgets every key handle in the Worker and the session state. */
  async lock(): Promise<void> {
    setSession(null);
    await cryptoApi.lock();
  },
};

/** React view of the unlocked-keys state. */
export function useSecuPassSession(): SecuPassSession | null {
  return useSyncExternalStore(secuPassKeys.subscribe, secuPassKeys.get);
}

// Logout (and any other loss of the signed-in user, e.g. an expired session) locks the keys.
authStore.subscribe(() => {
  const user = authStore.getState().user;
  if (session && (!user || user.uuid !== session.userUuid)) void secuPassKeys.lock();
});
