import type { SetSecuPassBody } from '@shared/contract/secupass';
import { useCallback, useState } from 'react';
import type { KeysSession, UnlockOutcome } from './keys-session';

/** Why the passphrase field is marked: empty, or it does not open the blob. The view picks the text. */
export type UnlockFieldError = 'required' | 'wrongPassphrase';

/**
 * The passphrase form of the unlock dialogs (web and add-in; the dialogs are only views): the
 * typed passphrase, the field's error, a general failure, the pending flag, and `submit`, which
 * runs `session.unlock` (v2 → v3 upgrade upload, wrong passphrase). React's only role here is the
 * state; the steps are keys-session.ts.
 */
export function useUnlockForm(session: KeysSession, storeUpgradedBlob: (body: SetSecuPassBody) => Promise<unknown>) {
  const [passphrase, setPassphrase] = useState('');
  const [fieldError, setFieldError] = useState<UnlockFieldError | undefined>();
  const [failure, setFailure] = useState(false);
  const [pending, setPending] = useState(false);

  /** Each opening of a dialog starts empty. */
  const reset = useCallback(() => {
    setPassphrase('');
    setFieldError(undefined);
    setFailure(false);
    setPending(false);
  }, []);

  /**
   * Unlocks `blob` for `userUuid`; null when the field refused it before anything ran. `keepForSession`:
   * the user ticked "Keep unlocked in this browser session" (absent: an earlier kept unlock is dropped).
   */
  async function submit({ userUuid, blob, keepForSession }: { userUuid: string; blob: unknown; keepForSession?: { sessionTag: string } }): Promise<UnlockOutcome | null> {
    if (!passphrase) {
      setFieldError('required');
      return null;
    }
    setPending(true);
    setFieldError(undefined);
    setFailure(false);
    const outcome = await session.unlock({ userUuid, blob, passphrase, storeUpgradedBlob, ...(keepForSession ? { keepForSession } : {}) });
    setPending(false);
    if (!outcome.ok && outcome.reason === 'wrongPassphrase') setFieldError('wrongPassphrase');
    else if (!outcome.ok) setFailure(true);
    return outcome;
  }

  return { passphrase, setPassphrase, fieldError, failure, pending, reset, submit };
}
