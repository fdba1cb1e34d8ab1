import { createLazyCryptoProxy } from '@shared/crypto/proxy';
import type { CryptoApi, UnlockedKeys } from '@shared/crypto/service';

/**
 * The add-in's ONE crypto Worker: the same entry as the web client's (src/crypto-worker.ts →
 * serveCryptoWorker), emitted as a chunk of the add-in bundle under /addin/. It starts on the
 * first call, so a pane that only sends at levels 1/2 never starts it.
 */
export const cryptoApi: CryptoApi = createLazyCryptoProxy(
  () => new Worker(new URL('../../src/crypto-worker.ts', import.meta.url), { type: 'module', name: 'kuvert-crypto' }),
);

/** The signed-in user's unlocked SecuPass keys (handles + public halves), or null while locked. */
let unlocked: { userUuid: string; keys: UnlockedKeys } | null = null;

export const addinKeys = {
  /** The keys of `userUuid` if they are unlocked in this pane. */
  get(userUuid: string): UnlockedKeys | null {
    return unlocked && unlocked.userUuid === userUuid ? unlocked.keys : null;
  },
  unlocked(userUuid: string, keys: UnlockedKeys): void {
    unlocked = { userUuid, keys };
  },
  /** Sign-out (or a lost session): forgets the handles here and the keys in the Worker. */
  async lock(): Promise<void> {
    unlocked = null;
    await cryptoApi.lock();
  },
};
