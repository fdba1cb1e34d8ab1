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

const SESSION_TAG_KEY = 'kuvert.keptUnlockTab';

/**
 * A random tag of this tab's session (sessionStorage: gone with the tab, kept over a reload). The
 * Worker binds kept keys to it, so another tab or a restarted browser does not restore them. Not a
 * secret and no key material.
 */
export function keptUnlockSessionTag(): string {
  let tag = sessionStorage.getItem(SESSION_TAG_KEY);
  if (!tag) {
    tag = crypto.randomUUID();
    sessionStorage.setItem(SESSION_TAG_KEY, tag);
  }
  return tag;
}

/** This tab's tag, if it has one; storage can be missing (tests, Node) or disabled (sandboxed frames): then none. */
function storedTag(): string | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(SESSION_TAG_KEY);
  } catch {
    return null;
  }
}

let restoreTriedFor: string | null = null;

// Logout (and any other loss of the signed-in user, e.g. an expired session: the server answered
// "not signed in") locks the keys and forgets the kept ones; a signed-in user whose keys are locked
// gets them back from "Keep unlocked in this browser session" once per page load.
authStore.subscribe(() => {
  const { user, initialized, loadError } = authStore.getState();
  const session = secuPassKeys.get();
  if (session && (!user || user.uuid !== session.userUuid)) void secuPassKeys.lock();
  // Only a tab that has a tag can have kept anything: other anonymous pages never start the Worker.
  else if (!user && initialized && !loadError && storedTag()) void cryptoApi.forgetKeptKeys({}).catch(() => undefined);
  // A tab without a tag never ticked the box: no Worker is started for nothing.
  const tag = storedTag();
  if (user && !session && tag && restoreTriedFor !== user.uuid) {
    restoreTriedFor = user.uuid;
    void secuPassKeys.restore({ userUuid: user.uuid, sessionTag: tag });
  }
  if (!user) restoreTriedFor = null;
});
