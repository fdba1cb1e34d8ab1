import type { UnlockedKeys } from '@shared/crypto/service';
import { createContext, useContext } from 'react';
import { secuPassKeys } from './crypto';

/**
 * How a feature asks for the user's unlocked SecuPass keys without importing another feature:
 * the app provides the unlock dialog (web/app/unlock-provider.tsx); features call
 * `useUnlockedKeys()` and get the keys, or null when the user cancelled.
 */
export type UnlockRequest = () => Promise<UnlockedKeys | null>;

export const UnlockRequestContext = createContext<UnlockRequest>(async () => secuPassKeys.get()?.keys ?? null);

/** Keys of this session, unlocking first (dialog) when they are locked. */
export function useUnlockedKeys(): UnlockRequest {
  const request = useContext(UnlockRequestContext);
  return async () => secuPassKeys.get()?.keys ?? request();
}
