import { createKeysSession } from '@shared/secupass/keys-session';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './bytes';
import { generateWrappableKeyPair, keyIdOf } from './keys';
import { SECUPASS_V2_MIN_ITERATIONS, writeLegacyV2Blob } from './secupass';
import { CryptoService } from './service';
import { KEPT_KEYS_VERSION, restoreKeptKeys, type KeptKeysRecord, type KeptKeysStore } from './session-keep';
import { importAesGcmKey } from './subtle';

const userId = 'user-kept-1';
const passphrase = 'correct horse battery staple';
const sessionTag = 'tab-session-a';

/** The store interface over a Map (what IndexedDB does in the Worker; structured clone keeps CryptoKeys as they are). */
function mapStore(): KeptKeysStore & { records: Map<string, KeptKeysRecord> } {
  const records = new Map<string, KeptKeysRecord>();
  return {
    records,
    get: async (id) => records.get(id),
    put: async (id, record) => void records.set(id, record),
    delete: async (id) => void records.delete(id),
    clear: async () => records.clear(),
  };
}

/** A blob whose PKCS8 the test knows, so it can look for the raw bytes in what is stored (v2: fast PBKDF2). */
async function knownBlob() {
  const encryption = await generateWrappableKeyPair('encryption');
  const signing = await generateWrappableKeyPair('signing');
  const blob = await writeLegacyV2Blob({
    userId,
    passphrase,
    iterations: SECUPASS_V2_MIN_ITERATIONS,
    keys: [
      { usage: 'encryption', ...encryption },
      { usage: 'signing', ...signing },
    ],
  });
  return { blob, pkcs8: [encryption.pkcs8, signing.pkcs8] };
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  return Buffer.from(haystack).includes(Buffer.from(needle));
}

describe('keys kept for a reload (session-keep.ts)', { timeout: 120_000 }, () => {
  it('round trip: kept at unlock, restored by a fresh service (a reload) without the passphrase; no raw key or passphrase stored', async () => {
    const store = mapStore();
    const { blob, pkcs8 } = await knownBlob();
    const first = new CryptoService({ keptKeys: store });
    const unlocked = await first.unlockSecuPass({ userId, blob, passphrase, keepForSession: { sessionTag } });
    expect(unlocked.kept).toBe(true);

    const record = store.records.get(userId);
    expect(record).toBeDefined();
    if (!record) return;
    expect(record.wrappingKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', record.wrappingKey)).rejects.toThrow();
    const serialised = new TextEncoder().encode(JSON.stringify(record.keys));
    expect(new TextDecoder().decode(serialised)).not.toContain(passphrase);
    for (const key of pkcs8) {
      expect(contains(serialised, key)).toBe(false);
      expect(record.keys.some((entry) => contains(fromBase64Url(entry.wrappedKey), key))).toBe(false);
    }

    const reloaded = new CryptoService({ keptKeys: store });
    const restored = await reloaded.restoreKeptKeys({ userId, sessionTag });
    expect(restored.keys?.encryption.fingerprint).toBe(unlocked.keys.encryption.fingerprint);
    expect(restored.keys?.signing.fingerprint).toBe(unlocked.keys.signing.fingerprint);
    // The restored private keys work: a list sealed and signed before the reload opens after it.
    const list = { format: 1 as const, ownerUserId: userId, counter: 1, updatedAt: '2026-11-29T08:00:00.000Z', pins: { a: 'b' }, verified: {} };
    const sealed = await first.sealContactPins({ signingKey: unlocked.keys.signing.handle, encryptionKey: unlocked.keys.encryption.handle, list });
    const opened = await reloaded.openContactPins({ signingKey: restored.keys!.signing.handle, encryptionKey: restored.keys!.encryption.handle, ownerUserId: userId, sealed });
    expect(opened.pins).toEqual({ a: 'b' });
  });

  it('another tab session, another user or a changed byte opens nothing, and the record is deleted', async () => {
    const { blob } = await knownBlob();
    const store = mapStore();
    await new CryptoService({ keptKeys: store }).unlockSecuPass({ userId, blob, passphrase, keepForSession: { sessionTag } });
    const record = store.records.get(userId)!;

    expect(await restoreKeptKeys(store, { userId, sessionTag: 'another-tab' })).toBeNull();
    expect(store.records.has(userId)).toBe(false);

    // The same record under another user id: the associated data binds it to its user.
    store.records.set('someone-else', record);
    expect(await restoreKeptKeys(store, { userId: 'someone-else', sessionTag })).toBeNull();
    expect(store.records.has('someone-else')).toBe(false);

    const wrapped = fromBase64Url(record.keys[0]!.wrappedKey);
    wrapped[5]! ^= 1;
    store.records.set(userId, { ...record, keys: [{ ...record.keys[0]!, wrappedKey: toBase64Url(wrapped) }, record.keys[1]!] });
    expect(await restoreKeptKeys(store, { userId, sessionTag })).toBeNull();
    expect(store.records.has(userId)).toBe(false);
  });

  it('known answer: a record sealed elsewhere (Node’s AES-256-GCM, key 32×07, IV 12×03) with the documented associated data opens', async () => {
    // Frozen vector: P-256 key pair and AES-256-GCM(PKCS8, AD "kuvert-kept-keys|v1|<user>|<keyId>|<tag>") made once with node:crypto.
    const spki = 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEdkALKy8I1qaK681g_OgxE1NtFJtq7aWp91vqIQoqeDJxfyXELWmTCVvSZNhjizr3MVRPad648tLRu-rSJjttZQ';
    const keyId = 'HWk46oTKEHSGn-VY_E4O9A';
    const wrappedKey =
      'FX8kAVsoblF8R2nao5nCDuw66MUy3VpNLN-AtY7VK7qwpnkCJaRJaSCbRePdTdgz4lRkM_bsCx3-G3PcwO7r0Yev4Z4O4ndTSeLBx9-86zsrDEOexwOyxd1Ch7pnm0vvYGvH_EZCKmEE_1d2TycwzQmcMr0bTKSCk2zWzCIlwFhJZzx9y8XHHOhkx0jgtSvIqNFuDqrDMO7r_A';
    expect(await keyIdOf(fromBase64Url(spki))).toBe(keyId);
    const store = mapStore();
    const record: KeptKeysRecord = {
      version: KEPT_KEYS_VERSION,
      sessionTag,
      wrappingKey: await importAesGcmKey(new Uint8Array(32).fill(7)),
      keys: [{ keyId, usage: 'encryption' as const, publicKey: spki, iv: toBase64Url(new Uint8Array(12).fill(3)), wrappedKey }],
    };
    store.records.set(userId, record);
    const pairs = await restoreKeptKeys(store, { userId, sessionTag });
    expect(pairs?.map((pair) => pair.keyId)).toEqual([keyId]);
    expect(pairs?.[0]?.privateKey.extractable).toBe(false);
    // The same bytes under another tab's tag do not open (the tag is in the associated data, not only compared).
    store.records.set(userId, { ...record, sessionTag: 'tab-session-b' });
    expect(await restoreKeptKeys(store, { userId, sessionTag: 'tab-session-b' })).toBeNull();
  });

  it('unticked: an unlock without the choice deletes the earlier record; lock (sign-out) forgets every record', async () => {
    const { blob } = await knownBlob();
    const store = mapStore();
    const service = new CryptoService({ keptKeys: store });
    await service.unlockSecuPass({ userId, blob, passphrase, keepForSession: { sessionTag } });
    const again = await service.unlockSecuPass({ userId, blob, passphrase });
    expect(again.kept).toBe(false);
    expect(store.records.has(userId)).toBe(false);

    const session = createKeysSession({ crypto: service });
    const outcome = await session.unlock({ userUuid: userId, blob, passphrase, storeUpgradedBlob: async () => undefined, keepForSession: { sessionTag } });
    expect(outcome.ok).toBe(true);
    expect(session.kept()).toBe(true);
    expect(store.records.has(userId)).toBe(true);
    await session.lock();
    expect(session.kept()).toBe(false);
    expect(store.records.size).toBe(0);
    expect(await createKeysSession({ crypto: new CryptoService({ keptKeys: store }) }).restore({ userUuid: userId, sessionTag })).toBe(false);
  });

  it('a service without a store keeps nothing and restores nothing (Node, an add-in host without IndexedDB)', async () => {
    const { blob } = await knownBlob();
    const service = new CryptoService();
    expect((await service.unlockSecuPass({ userId, blob, passphrase, keepForSession: { sessionTag } })).kept).toBe(false);
    expect(await service.restoreKeptKeys({ userId, sessionTag })).toEqual({ keys: null });
  });
});
