import type { UnlockedKeys } from '@shared/crypto/service';
import { createContext, useContext } from 'react';
import { secuPassKeys } from './crypto';

/** What the keys are unlocked for: the dialog names the action (SPEC §2 "Enter your passphrase to …"). */
export type UnlockPurpose = 'send' | 'release' | 'decrypt' | 'unlock';

/**
 * How a feature asks for the user's unlocked SecuPass keys without importing another feature:
 * the app provides the unlock dialog (web/app/unlock-provider.tsx); features call
 * `useUnlockedKeys(purpose)` and get the keys, or null when the user cancelled.
 */
export type UnlockRequest = (purpose: UnlockPurpose) => Promise<UnlockedKeys | null>;

export const UnlockRequestContext = createContext<UnlockRequest>(async () => secuPassKeys.get()?.keys ?? null);

/** Keys of this session, unlocking first (a dialog worded for `purpose`) when they are locked. */
export function useUnlockedKeys(purpose: UnlockPurpose): () => Promise<UnlockedKeys | null> {
  const request = useContext(UnlockRequestContext);
  return async () => secuPassKeys.get()?.keys ?? request(purpose);
}
