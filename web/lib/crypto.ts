import { createLazyCryptoProxy } from '@shared/crypto/proxy';
import type { CryptoApi } from '@shared/crypto/service';
import { createKeysSession, type SecuPassSession } from '@shared/secupass/keys-session';
import { useSyncExternalStore } from 'react';
import { authStore } from './auth';

export type { SecuPassSession } from '@shared/secupass/keys-session';

/**
 * The web client's ONE crypto Worker (src/crypto-worker.ts, shared with the add-in bundle), behind
 * one CryptoApi proxy that starts it on the first call. Handles, never key bytes (shared/crypto/service.ts).
 */
export const cryptoApi: CryptoApi = createLazyCryptoProxy(
  // webpack 5 turns this into a separate worker chunk under /webjars/ (classic worker, own runtime).
  () => new Worker(new URL('../../src/crypto-worker.ts', import.meta.url), { type: 'module', name: 'kuvert-crypto' }),
);

/**
 * The user's unlocked SecuPass keys (shared/secupass/keys-session.ts, the same session the add-in
 * uses): unlock with the v2 → v3 upgrade, `unlocked` after set/change, `lock` forgets every handle.
 */
export const secuPassKeys = createKeysSession({ crypto: cryptoApi });

/** React view of the unlocked-keys state. */
export function useSecuPassSession(): SecuPassSession | null {
  return useSyncExternalStore(secuPassKeys.subscribe, secuPassKeys.get);
}

// Logout (and any other loss of the signed-in user, e.g. an expired session) locks the keys.
authStore.subscribe(() => {
  const user = authStore.getState().user;
  const session = secuPassKeys.get();
  if (session && (!user || user.uuid !== session.userUuid)) void secuPassKeys.lock();
});
