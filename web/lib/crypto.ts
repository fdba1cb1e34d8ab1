import { createLazyCryptoProxy } from '@shared/crypto/proxy';
import type { CryptoApi, UnlockedKeys } from '@shared/crypto/service';
import { forgetContactPins } from '@shared/transfer/contact-pins';
import { useSyncExternalStore } from 'react';
import { authStore } from './auth';

/**
 * The web client's ONE crypto Worker (src/crypto-worker.ts, shared with the add-in bundle), behind
 * one CryptoApi proxy that starts it on the first call. Handles, never key bytes (shared/crypto/service.ts).
 */
export const cryptoApi: CryptoApi = createLazyCryptoProxy(
  // webpack 5 turns this into a separate worker chunk under /webjars/ (classic worker, own runtime).
  () => new Worker(new URL('../../src/crypto-worker.ts', import.meta.url), { type: 'module', name: 'kuvert-crypto' }),
);

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
    forgetContactPins();
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
