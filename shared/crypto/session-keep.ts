// "Keep unlocked in this browser session" (README section "Unlock kept for a reload"): the unlocked
// private keys, wrapped under a fresh NON-EXTRACTABLE AES-256-GCM key, kept in a store (IndexedDB in
// the Worker) so a reload of the same tab unlocks again without the passphrase. Opt-in; never the
// passphrase, never raw key bytes in the store.
import { fromBase64Url, toBase64Url, utf8Encode } from './bytes';
import { importUserKeyPair, keyIdOf, type UserKeyPair, type UserKeyUsage } from './keys';
import type { PlainPrivateKey } from './secupass';
import { aesGcmDecrypt, aesGcmEncrypt, randomBytes, subtle } from './subtle';

const IV_BYTES = 12;
export const KEPT_KEYS_VERSION = 1;

/** What the store holds per user. `wrappingKey` is a CryptoKey (IndexedDB keeps it non-extractable). */
export interface KeptKeysRecord {
  version: typeof KEPT_KEYS_VERSION;
  /** Random per tab session (the page keeps it in sessionStorage): another tab or a new browser start does not match. */
  sessionTag: string;
  wrappingKey: CryptoKey;
  keys: { keyId: string; usage: UserKeyUsage; publicKey: string; iv: string; wrappedKey: string }[];
}

/** Where records live, by user id. Injected so Node tests run the logic without IndexedDB. */
export interface KeptKeysStore {
  get(userId: string): Promise<KeptKeysRecord | undefined>;
  put(userId: string, record: KeptKeysRecord): Promise<void>;
  delete(userId: string): Promise<void>;
  clear(): Promise<void>;
}

/** AD binds each wrapped key to its user, key id and tab session: a record copied to another user or tab does not open. */
function associatedData(userId: string, keyId: string, sessionTag: string): Uint8Array {
  return utf8Encode(`kuvert-kept-keys|v${KEPT_KEYS_VERSION}|${userId}|${keyId}|${sessionTag}`);
}

/** Wraps the transient PKCS8 under a fresh non-extractable key and stores the record (replacing an older one). */
export async function keepUnlockedKeys(store: KeptKeysStore, options: { userId: string; sessionTag: string; keys: readonly PlainPrivateKey[] }): Promise<void> {
  // IMPORTANT: extractable false — script on the origin can use the key but never read its bytes.
  const wrappingKey = await subtle().generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const keys: KeptKeysRecord['keys'] = [];
  for (const key of options.keys) {
    const iv = randomBytes(IV_BYTES);
    const wrapped = await aesGcmEncrypt({ key: wrappingKey, iv, plaintext: key.pkcs8, additionalData: associatedData(options.userId, key.keyId, options.sessionTag) });
    keys.push({ keyId: key.keyId, usage: key.usage, publicKey: toBase64Url(key.publicKeySpki), iv: toBase64Url(iv), wrappedKey: toBase64Url(wrapped) });
  }
  await store.put(options.userId, { version: KEPT_KEYS_VERSION, sessionTag: options.sessionTag, wrappingKey, keys });
}

/**
 * The kept keys of `userId` for this tab session, imported non-extractable; null when there are none.
 * A record of another session, or one that does not open, is deleted (it can never open again).
 */
export async function restoreKeptKeys(store: KeptKeysStore, options: { userId: string; sessionTag: string }): Promise<UserKeyPair[] | null> {
  const record = await store.get(options.userId);
  if (!record) return null;
  if (record.version !== KEPT_KEYS_VERSION || record.sessionTag !== options.sessionTag || !Array.isArray(record.keys)) {
    await store.delete(options.userId);
    return null;
  }
  const pairs: UserKeyPair[] = [];
  try {
    for (const key of record.keys) {
      const publicKeySpki = fromBase64Url(key.publicKey);
      const pkcs8 = await aesGcmDecrypt({ key: record.wrappingKey, iv: fromBase64Url(key.iv), ciphertext: fromBase64Url(key.wrappedKey), additionalData: associatedData(options.userId, key.keyId, options.sessionTag) });
      if (!pkcs8 || (await keyIdOf(publicKeySpki)) !== key.keyId) throw new Error('kept key does not open');
      try {
        pairs.push(await importUserKeyPair({ usage: key.usage, pkcs8, publicKeySpki }));
      } finally {
        pkcs8.fill(0);
      }
    }
  } catch {
    await store.delete(options.userId);
    return null;
  }
  return pairs;
}

const DB_NAME = 'kuvert-kept-keys';
const STORE = 'records';

/** The Worker's store: one IndexedDB object store keyed by user id (Workers have `indexedDB`). */
export function indexedDbKeptKeysStore(factory: IDBFactory = globalThis.indexedDB): KeptKeysStore {
  const open = () =>
    new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(DB_NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
    });
  const run = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest): Promise<T> => {
    const db = await open();
    try {
      return await new Promise<T>((resolve, reject) => {
        const transaction = db.transaction(STORE, mode);
        const request = work(transaction.objectStore(STORE));
        transaction.oncomplete = () => resolve(request.result as T);
        transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB request failed'));
        transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
      });
    } finally {
      db.close();
    }
  };
  return {
    get: (userId) => run<KeptKeysRecord | undefined>('readonly', (store) => store.get(userId)),
    put: (userId, record) => run<void>('readwrite', (store) => store.put(record, userId)).then(() => undefined),
    delete: (userId) => run<void>('readwrite', (store) => store.delete(userId)).then(() => undefined),
    clear: () => run<void>('readwrite', (store) => store.clear()).then(() => undefined),
  };
}
