import { describe, expect, it } from 'vitest';
import { checkContactKey, checkRetiredContactKey, confirmChangedKey, confirmRetiredKey, MemoryKeyPinStore, previousPinId } from './key-pinning';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);

describe('pins of replaced and retired keys', () => {
  it('a confirmed change keeps the replaced key as a previous key; a retired key is accepted only when it was seen', async () => {
    const pins = new MemoryKeyPinStore();
    expect(await checkContactKey(pins, 'u:signing', A)).toEqual({ status: 'first-use', fingerprint: A });
    expect(await checkContactKey(pins, 'u:signing', B)).toEqual({ status: 'changed', pinnedFingerprint: A, presentedFingerprint: B });
    await confirmChangedKey(pins, 'u:signing', B);
    expect(await pins.get('u:signing')).toBe(B);
    expect(await pins.get(previousPinId('u:signing', A))).toBe(A);
    // The old key, now retired on the server, still verifies old signatures; the live pin is unchanged.
    expect(await checkRetiredContactKey(pins, 'u:signing', A)).toEqual({ status: 'match', fingerprint: A });
    expect(await checkRetiredContactKey(pins, 'u:signing', B)).toEqual({ status: 'match', fingerprint: B });
    // A "retired" key nobody ever saw is a change like any other.
    expect(await checkRetiredContactKey(pins, 'u:signing', C)).toEqual({ status: 'changed', pinnedFingerprint: B, presentedFingerprint: C });
    await confirmRetiredKey(pins, 'u:signing', C);
    expect(await checkRetiredContactKey(pins, 'u:signing', C)).toEqual({ status: 'match', fingerprint: C });
    expect(await pins.get('u:signing')).toBe(B);
  });

  it('first contact through a retired key remembers it as previous and leaves the live pin free', async () => {
    const pins = new MemoryKeyPinStore();
    expect(await checkRetiredContactKey(pins, 'v:signing', A)).toEqual({ status: 'first-use', fingerprint: A });
    expect(await pins.get('v:signing')).toBeUndefined();
    expect(await checkContactKey(pins, 'v:signing', B)).toEqual({ status: 'first-use', fingerprint: B });
    expect(await checkRetiredContactKey(pins, 'v:signing', A)).toEqual({ status: 'match', fingerprint: A });
  });
});
