import { ApiError } from '@shared/api/api-error';
import type { ApiClient } from '@shared/api/client';
import { getContactPins, putContactPins } from '@shared/api/endpoints/secupass';
import { createBrowserStorageAdapter, type KeyValueStorage } from '@shared/api/storage-adapter';
import { FILE_COUNTERS_MAX, MEMBER_LIST_VERSIONS_MAX, type ContactPinList } from '@shared/crypto/contact-pins';
import { ContactPinsRolledBackError } from '@shared/crypto/errors';
import type { KeyPinStore } from '@shared/crypto/key-pinning';
import type { CryptoApi, UnlockedKeys } from '@shared/crypto/service';

/**
 * The user's contact pins kept on the server (DESIGN §9 "Contact pins", issue 12 §4): one list,
 * sealed in the crypto Worker (signed with the own signing key, encrypted to the own encryption
 * key), read on every device at unlock. The server cannot read, change, swap or forge it
 * (ContactPinsInvalidError); an older list than this device saw, or a list dropped while this
 * device knows one existed, is a rollback (ContactPinsRolledBackError). What a fresh device cannot
 * tell is in shared/crypto/README.md section 6.
 */

/** Where a device remembers the highest counter it saw, per signing key (localStorage). */
export const PIN_COUNTER_PREFIX = 'kuvert.contactPinsCounter.';
/** The pins of the first version, per device (shared/transfer e2e.ts StorageKeyPinStore); migrated once. */
export const LEGACY_PIN_PREFIX = 'kuvert.keyPins.';

export interface ContactPinStoreOptions {
  client: ApiClient;
  crypto: CryptoApi;
  keys: UnlockedKeys;
  /** The owner's user UUID (bound into the list). */
  ownerUserId: string;
  /** Device memory (counter seen, legacy pins): localStorage in browsers. */
  storage?: KeyValueStorage;
}

/**
 * A bounded "highest seen" map with higher values raised: a raised key moves to the end and past
 * `max` the least recently raised are dropped. Null when nothing was higher (nothing to save).
 */
function raiseBounded(current: Record<string, number> | undefined, entries: [string, number][], max: number): Record<string, number> | null {
  const out = { ...current };
  let changed = false;
  for (const [key, value] of entries) {
    if (value <= (out[key] ?? 0)) continue;
    delete out[key];
    out[key] = value;
    changed = true;
  }
  if (!changed) return null;
  const keys = Object.keys(out);
  for (const drop of keys.slice(0, Math.max(0, keys.length - max))) delete out[drop];
  return out;
}

export class ServerKeyPinStore implements KeyPinStore {
  private list: ContactPinList;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly storage: KeyValueStorage;

  private constructor(
    private readonly options: ContactPinStoreOptions,
    list: ContactPinList,
  ) {
    this.list = list;
    this.storage = options.storage ?? createBrowserStorageAdapter();
  }

  /** Loads (and checks) the list; migrates this device's legacy local pins into it once. */
  static async load(options: ContactPinStoreOptions): Promise<ServerKeyPinStore> {
    const storage = options.storage ?? createBrowserStorageAdapter();
    const store = new ServerKeyPinStore({ ...options, storage }, await fetchList(options, storage));
    await store.migrateLegacy();
    return store;
  }

  /** The current list (a copy). */
  snapshot(): ContactPinList {
    return structuredClone(this.list);
  }

  async get(contactId: string): Promise<string | undefined> {
    await this.queue.catch(() => undefined);
    return this.list.pins[contactId];
  }

  async set(contactId: string, fingerprint: string): Promise<void> {
    await this.change((list) => {
      if (list.pins[contactId] === fingerprint) return false;
      list.pins[contactId] = fingerprint;
      // A verification is of one key: a moved pin is not verified.
      if (list.verified[contactId] !== undefined && list.verified[contactId] !== fingerprint) delete list.verified[contactId];
      return true;
    });
  }

  /** Whether the user verified exactly this key of the contact. */
  isVerified(contactId: string, fingerprint: string): boolean {
    return this.list.verified[contactId] === fingerprint;
  }

  /** The user compared the fingerprint (or scanned the QR code): this key of the contact is verified (and pinned). */
  async markVerified(contactId: string, fingerprint: string): Promise<void> {
    await this.change((list) => {
      if (list.verified[contactId] === fingerprint && list.pins[contactId] === fingerprint) return false;
      list.pins[contactId] = fingerprint;
      list.verified[contactId] = fingerprint;
      return true;
    });
  }

  /** Takes the verification back (the pin stays). */
  async unmarkVerified(contactId: string): Promise<void> {
    await this.change((list) => {
      if (list.verified[contactId] === undefined) return false;
      delete list.verified[contactId];
      return true;
    });
  }

  /** The highest metadata counter of an E2E room file any of the user's devices saw (0: none). */
  fileCounter(fileId: string): number {
    return this.list.fileCounters?.[fileId] ?? 0;
  }

  /**
   * Remembers higher counters (README section 7 "Version chain"), in one save. A raised file moves
   * to the end; past FILE_COUNTERS_MAX the least recently raised are dropped.
   */
  async raiseFileCounters(entries: { fileId: string; counter: number }[]): Promise<void> {
    await this.change((list) => {
      const raised = raiseBounded(list.fileCounters, entries.map((e) => [e.fileId, e.counter]), FILE_COUNTERS_MAX);
      if (raised) list.fileCounters = raised;
      return raised !== null;
    });
  }

  /** The highest signed member list version of an E2E room any of the user's devices accepted as its latest (0: none). */
  memberListVersion(roomId: string): number {
    return this.list.memberListVersions?.[roomId] ?? 0;
  }

  /**
   * Remembers higher member list versions (README section 7 "The highest list version seen"), in one
   * save. A raised room moves to the end; past MEMBER_LIST_VERSIONS_MAX the least recently raised are dropped.
   */
  async raiseMemberListVersions(entries: { roomId: string; version: number }[]): Promise<void> {
    await this.change((list) => {
      const raised = raiseBounded(list.memberListVersions, entries.map((e) => [e.roomId, e.version]), MEMBER_LIST_VERSIONS_MAX);
      if (raised) list.memberListVersions = raised;
      return raised !== null;
    });
  }

  private async migrateLegacy(): Promise<void> {
    const key = LEGACY_PIN_PREFIX + this.options.keys.signing.keyId;
    const raw = this.storage.getItem(key);
    if (raw === null) return;
    let legacy: Record<string, string> = {};
    try {
      legacy = JSON.parse(raw) as Record<string, string>;
    } catch {
      legacy = {};
    }
    await this.change((list) => {
      let changed = false;
      // The server list wins where both have a pin (it is the one every device agreed on).
      for (const [contactId, fingerprint] of Object.entries(legacy)) {
        if (typeof fingerprint === 'string' && list.pins[contactId] === undefined) {
          list.pins[contactId] = fingerprint;
          changed = true;
        }
      }
      return changed;
    });
    this.storage.removeItem(key);
  }

  /**
   * Applies `edit` to the list and saves it with the next counter. Saves run one at a time; when
   * another device saved meanwhile (409), the list is loaded again, the edit re-applied, saved again.
   */
  private change(edit: (list: ContactPinList) => boolean): Promise<void> {
    const run = async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const next = structuredClone(this.list);
        if (!edit(next)) return;
        next.counter = this.list.counter + 1;
        next.updatedAt = new Date().toISOString();
        const sealed = await this.options.crypto.sealContactPins({ signingKey: this.options.keys.signing.handle, encryptionKey: this.options.keys.encryption.handle, list: next });
        try {
          await putContactPins(this.options.client, sealed);
          this.list = next;
          rememberCounter(this.storage, this.options.keys, next.counter);
          return;
        } catch (error) {
          if (!(error instanceof ApiError) || error.status !== 409) throw error;
          this.list = await fetchList(this.options, this.storage);
        }
      }
      throw new Error('The contact pin list keeps changing on another device; try again');
    };
    const result = this.queue.catch(() => undefined).then(run);
    this.queue = result;
    return result;
  }
}

const counterKey = (keys: UnlockedKeys) => PIN_COUNTER_PREFIX + keys.signing.keyId;

function rememberCounter(storage: KeyValueStorage, keys: UnlockedKeys, counter: number): void {
  const seen = Number(storage.getItem(counterKey(keys)) ?? 0);
  if (counter > seen) storage.setItem(counterKey(keys), String(counter));
}

/** GET, open and verify, rollback check against this device's memory. An empty list when there is none. */
async function fetchList(options: ContactPinStoreOptions, storage: KeyValueStorage): Promise<ContactPinList> {
  const answer = await getContactPins(options.client);
  const seen = Number(storage.getItem(counterKey(options.keys)) ?? 0);
  if (answer.envelope === null) {
    // None (or dropped by a reset, which comes with new keys and so another counter key): fine
    // unless this device saw a list under these keys.
    if (seen > 0) throw new ContactPinsRolledBackError(`The server dropped the contact pin list (this device saw version ${seen})`);
    return { format: 1, ownerUserId: options.ownerUserId, counter: answer.counter, updatedAt: new Date(0).toISOString(), pins: {}, verified: {} };
  }
  const list = await options.crypto.openContactPins({
    signingKey: options.keys.signing.handle,
    encryptionKey: options.keys.encryption.handle,
    ownerUserId: options.ownerUserId,
    sealed: answer.envelope,
  });
  if (list.counter < seen) throw new ContactPinsRolledBackError(`The server handed out version ${list.counter} of the contact pin list; this device saw version ${seen}`);
  rememberCounter(storage, options.keys, list.counter);
  return list;
}

const loaded = new Map<string, Promise<ServerKeyPinStore>>();

/**
 * The signed-in user's store, loaded once per unlocked key set (every E2E call of the session
 * shares it). A failed load is not cached: the next call tries again (and reports again).
 */
export function contactPinsFor(options: Omit<ContactPinStoreOptions, 'ownerUserId'> & { ownerUserId: () => Promise<string> }): Promise<ServerKeyPinStore> {
  const key = `${options.keys.signing.keyId}|${options.keys.signing.handle}`;
  let pending = loaded.get(key);
  if (!pending) {
    pending = options.ownerUserId().then((ownerUserId) => ServerKeyPinStore.load({ ...options, ownerUserId }));
    loaded.set(key, pending);
    pending.catch(() => loaded.delete(key));
  }
  return pending;
}

/** Forgets the loaded stores (logout, lock). */
export function forgetContactPins(): void {
  loaded.clear();
}
