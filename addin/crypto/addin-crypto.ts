import { createLazyCryptoProxy } from '@shared/crypto/proxy';
import type { CryptoApi } from '@shared/crypto/service';
import { createKeysSession } from '@shared/secupass/keys-session';

/**
 * The add-in's ONE crypto Worker: the same entry as the web client's (src/crypto-worker.ts →
 * serveCryptoWorker), emitted as a chunk of the add-in bundle under /addin/. It starts on the
 * first call, so a pane that only sends at levels 1/2 never starts it.
 */
export const cryptoApi: CryptoApi = createLazyCryptoProxy(
  () => new Worker(new URL('../../src/crypto-worker.ts', import.meta.url), { type: 'module', name: 'kuvert-crypto' }),
);

/**
 * The signed-in user's unlocked SecuPass keys in this pane (shared/secupass/keys-session.ts, the
 * web client's session too): `keysOf(userUuid)`, `unlock`, and `lock` at sign-out or a lost session.
 */
export const addinKeys = createKeysSession({ crypto: cryptoApi });
