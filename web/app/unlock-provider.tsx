import type { UnlockedKeys } from '@shared/crypto/service';
import { UnlockSecuPassDialog } from '@web/features/secupass';
import { UnlockRequestContext, type UnlockPurpose } from '@web/lib/unlock-request';
import { useCallback, useRef, useState, type ReactNode } from 'react';

/** Composes the SecuPass unlock dialog for every feature that needs keys (deliveries, release). */
export function UnlockProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [purpose, setPurpose] = useState<UnlockPurpose>('unlock');
  const pending = useRef<((keys: UnlockedKeys | null) => void) | null>(null);
  const settle = (keys: UnlockedKeys | null) => {
    pending.current?.(keys);
    pending.current = null;
  };
  const request = useCallback(
    (forPurpose: UnlockPurpose) =>
      new Promise<UnlockedKeys | null>((resolve) => {
        pending.current?.(null);
        pending.current = resolve;
        setPurpose(forPurpose);
        setOpen(true);
      }),
    [],
  );
  return (
    <UnlockRequestContext.Provider value={request}>
      {children}
      {/* Closed through `open`, never unmounted while open (Fluent would leave the page aria-hidden); its
          content, which loads the SecuPass state anonymous pages must not request, mounts only while open. */}
      <UnlockSecuPassDialog
        open={open}
        purpose={purpose}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) settle(null);
        }}
        onUnlocked={(keys) => settle(keys)}
      />
    </UnlockRequestContext.Provider>
  );
}
