import type { PublicKey, SetSecuPassBody } from '@shared/contract/secupass';
import type { CryptoApi, UnlockedKeys } from '@shared/crypto/service';
import { forgetContactPins } from '@shared/transfer/contact-pins';

/**
 * The ONE unlock/keys session of a client (web and add-in each make one over their crypto Worker):
 * which user's SecuPass keys are unlocked in the Worker (handles and public halves, never key
 * bytes), the unlock itself with the v2 → v3 upgrade upload and the wrong-passphrase answer, and
 * the lock that forgets every handle. Framework-free: React reads it through
 * `useSyncExternalStore(session.subscribe, session.get)`.
 */

/** The user's unlocked SecuPass keys for this session. */
export interface SecuPassSession {
  userUuid: string;
  keys: UnlockedKeys;
}

/**
 * How an unlock went. `upgrade`: the blob was v2 and came back as v3 — `stored` once the new blob
 * is on the server, `failed` when the upload failed (the keys are unlocked anyway; the next unlock
 * tries again), `none` for a v3 blob.
 */
export type UnlockOutcome =
  | { ok: true; keys: UnlockedKeys; upgrade: 'none' | 'stored' | 'failed' }
  | { ok: false; reason: 'wrongPassphrase' }
  | { ok: false; reason: 'failed'; error: unknown };

export interface KeysSessionOptions {
  crypto: CryptoApi;
}

/** True when the crypto API says the passphrase does not open the blob (errors keep their code across the Worker). */
export function isWrongPassphrase(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'secupass-wrong-passphrase';
}

/** The public halves of unlocked keys as the server stores them (never a handle). */
export function publicKeysOf(keys: UnlockedKeys): PublicKey[] {
  return [keys.encryption, keys.signing].map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey }));
}

export interface KeysSession {
  get(): SecuPassSession | null;
  /** The keys of `userUuid` if they are unlocked (another user's never count). */
  keysOf(userUuid: string): UnlockedKeys | null;
  subscribe(listener: () => void): () => void;
  /** Remembers keys the Worker unlocked elsewhere (set, change) until lock(). */
  unlocked(userUuid: string, keys: UnlockedKeys): void;
  /**
   * Unlocks `blob` (as GET /user/secupass returned it) with `passphrase` in the Worker; a v2 blob is
   * stored back as v3 through `storeUpgradedBlob` (PUT /user/secupass: shared/api `putSecuPass` with
   * the client's ApiClient). An empty passphrase is the caller's to refuse (it says so at the field).
   */
  unlock(args: { userUuid: string; blob: unknown; passphrase: string; storeUpgradedBlob(body: SetSecuPassBody): Promise<unknown>; keepForSession?: { sessionTag: string } }): Promise<UnlockOutcome>;
  /**
   * Unlocks without the passphrase from what "Keep unlocked in this browser session" kept for this
   * tab (shared/crypto/session-keep.ts); false when nothing was kept or it does not open.
   */
  restore(args: { userUuid: string; sessionTag: string }): Promise<boolean>;
  /** Whether the current unlock is kept for a reload (the dialog shows the choice). */
  kept(): boolean;
  /** Forgets the session, the loaded contact pins, every key handle in the Worker and the kept keys (sign-out, "Lock"). */
  lock(): Promise<void>;
}

export function createKeysSession({ crypto }: KeysSessionOptions): KeysSession {
  let session: SecuPassSession | null = null;
  let kept = false;
  const listeners = new Set<() => void>();
  const set = (next: SecuPassSession | null) => {
    session = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    get: () => session,
    keysOf: (userUuid) => (session && session.userUuid === userUuid ? session.keys : null),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    unlocked: (userUuid, keys) => {
      kept = false;
      set({ userUuid, keys });
    },
    kept: () => kept,
    async restore({ userUuid, sessionTag }) {
      let restored: UnlockedKeys | null = null;
      try {
        restored = (await crypto.restoreKeptKeys({ userId: userUuid, sessionTag })).keys;
      } catch {
        // No IndexedDB (private mode, add-in host): simply locked, as without the choice.
      }
      if (!restored) return false;
      kept = true;
      set({ userUuid, keys: restored });
      return true;
    },
    async unlock({ userUuid, blob, passphrase, storeUpgradedBlob, keepForSession }) {
      let result: Awaited<ReturnType<CryptoApi['unlockSecuPass']>>;
      try {
        result = await crypto.unlockSecuPass({ userId: userUuid, blob, passphrase, ...(keepForSession ? { keepForSession } : {}) });
      } catch (error) {
        return isWrongPassphrase(error) ? { ok: false, reason: 'wrongPassphrase' } : { ok: false, reason: 'failed', error };
      }
      let upgrade: 'none' | 'stored' | 'failed' = 'none';
      if (result.upgradedBlob) {
        // v2 → v3: the same keys under the stronger scheme. A failed upload is retried at the next unlock.
        upgrade = await storeUpgradedBlob({ blob: result.upgradedBlob, publicKeys: publicKeysOf(result.keys) }).then(
          () => 'stored' as const,
          () => 'failed' as const,
        );
      }
      kept = result.kept === true;
      set({ userUuid, keys: result.keys });
      return { ok: true, keys: result.keys, upgrade };
    },
    async lock() {
      // Only an unlock that was kept has a record to forget: a plain lock never starts the Worker
      // for it (a signed-out tab that kept keys before a reload is cleared by web/lib/crypto.ts).
      const wasKept = kept;
      kept = false;
      set(null);
      forgetContactPins();
      await crypto.lock();
      if (wasKept) await crypto.forgetKeptKeys({}).catch(() => undefined);
    },
  };
}
