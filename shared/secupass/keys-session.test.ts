import type { SetSecuPassBody } from '@shared/contract/secupass';
import { generateWrappableKeyPair } from '@shared/crypto/keys';
import { SECUPASS_V2_MIN_ITERATIONS, writeLegacyV2Blob } from '@shared/crypto/secupass';
import { createCryptoService } from '@shared/crypto/service';
import { describe, expect, it } from 'vitest';
import { createKeysSession, isWrongPassphrase, publicKeysOf } from './keys-session';

const userUuid = 'user-7';
const passphrase = 'correct horse battery staple';

/** A session over the real crypto service (what the Worker runs); stored blobs are recorded as the server would keep them. */
function sessionWithStore(fail = false) {
  const crypto = createCryptoService();
  const stored: SetSecuPassBody[] = [];
  const base = createKeysSession({ crypto });
  const storeUpgradedBlob = async (body: SetSecuPassBody) => {
    if (fail) throw new Error('PUT /user/secupass failed');
    stored.push(body);
  };
  const session = { ...base, unlock: (args: { userUuid: string; blob: unknown; passphrase: string }) => base.unlock({ ...args, storeUpgradedBlob }) };
  return { crypto, session, stored };
}

async function legacyBlob() {
  const encryption = await generateWrappableKeyPair('encryption');
  const signing = await generateWrappableKeyPair('signing');
  return writeLegacyV2Blob({
    userId: userUuid,
    passphrase,
    iterations: SECUPASS_V2_MIN_ITERATIONS,
    keys: [
      { usage: 'encryption', ...encryption },
      { usage: 'signing', ...signing },
    ],
  });
}

describe('keys session (unlock, v2 → v3 upgrade, wrong passphrase, lock)', { timeout: 120_000 }, () => {
  it('unlocks a v3 blob, keeps the keys for that user only and notifies; a wrong passphrase is its own answer', async () => {
    const { crypto, session, stored } = sessionWithStore();
    const { blob, keys: setKeys } = await crypto.setupSecuPass({ userId: userUuid, passphrase });
    const seen: Array<string | null> = [];
    session.subscribe(() => seen.push(session.get()?.userUuid ?? null));

    expect(await session.unlock({ userUuid, blob, passphrase: `${passphrase}!` })).toEqual({ ok: false, reason: 'wrongPassphrase' });
    expect(session.get()).toBeNull();
    // Another user's id does not open the blob either (bound as associated data).
    expect(await session.unlock({ userUuid: 'someone-else', blob, passphrase })).toEqual({ ok: false, reason: 'wrongPassphrase' });

    const outcome = await session.unlock({ userUuid, blob, passphrase });
    expect(outcome).toMatchObject({ ok: true, upgrade: 'none' });
    if (!outcome.ok) throw new Error('unreachable');
    expect(outcome.keys.encryption.fingerprint).toBe(setKeys.encryption.fingerprint);
    expect(session.keysOf(userUuid)).toBe(outcome.keys);
    expect(session.keysOf('someone-else')).toBeNull();
    expect(stored).toEqual([]);
    expect(seen).toEqual([userUuid]);

    // The handles work in the service until lock(), and not after it.
    const sign = () => crypto.signManifest({ signingKey: outcome.keys.signing.handle, manifest: { v: 1 } as never });
    await expect(sign()).resolves.toBeTruthy();
    await session.lock();
    expect(session.get()).toBeNull();
    expect(seen).toEqual([userUuid, null]);
    await expect(sign()).rejects.toThrow();
  });

  it('stores a v2 blob back as v3 with the same public keys; the stored blob unlocks without another upgrade', async () => {
    const { session, stored } = sessionWithStore();
    const v2 = await legacyBlob();
    const outcome = await session.unlock({ userUuid, blob: v2, passphrase });
    expect(outcome).toMatchObject({ ok: true, upgrade: 'stored' });
    if (!outcome.ok) throw new Error('unreachable');
    expect(stored).toHaveLength(1);
    expect((stored[0]!.blob as { version: number }).version).toBe(3);
    expect(stored[0]!.publicKeys).toEqual(publicKeysOf(outcome.keys));
    expect(stored[0]!.publicKeys.map((k) => k.publicKey)).toEqual(v2.keys.map((k) => k.publicKey));

    const again = sessionWithStore();
    expect(await again.session.unlock({ userUuid, blob: stored[0]!.blob, passphrase })).toMatchObject({ ok: true, upgrade: 'none' });
    expect(again.stored).toEqual([]);
  });

  it('a failed upgrade upload still unlocks (the next unlock tries again)', async () => {
    const { session } = sessionWithStore(true);
    const outcome = await session.unlock({ userUuid, blob: await legacyBlob(), passphrase });
    expect(outcome).toMatchObject({ ok: true, upgrade: 'failed' });
    expect(session.get()?.userUuid).toBe(userUuid);
  });

  it('anything else than a wrong passphrase is a failure with its cause', async () => {
    const { session } = sessionWithStore();
    const outcome = await session.unlock({ userUuid, blob: { version: 9 }, passphrase });
    expect(outcome.ok).toBe(false);
    expect(outcome).toMatchObject({ reason: 'failed' });
    expect(isWrongPassphrase({ code: 'secupass-wrong-passphrase' })).toBe(true);
    expect(isWrongPassphrase(new Error('secupass-wrong-passphrase'))).toBe(false);
  });
});
