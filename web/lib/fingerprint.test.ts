import { describe, expect, it } from 'vitest';
import { displayFingerprint, fingerprintGroups } from './fingerprint';

describe('fingerprint display', () => {
  it('groups fingerprints in fours', () => {
    const hex = 'ab12cd34'.repeat(8);
    const groups = fingerprintGroups(hex);
    expect(groups).toHaveLength(16);
    expect(groups[0]).toBe('AB12');
    expect(fingerprintGroups(groups.join(' '))).toEqual(groups);
    expect(fingerprintGroups('')).toEqual([]);
    expect(fingerprintGroups('xyz1')).toEqual([]);
    expect(fingerprintGroups('abc')).toEqual([]);
  });
});

describe('displayFingerprint', () => {
  it('groups plain hex and leaves text it cannot group as it is', () => {
    expect(displayFingerprint('ab12cd34')).toBe('AB12 CD34');
    expect(displayFingerprint('AB12 CD34')).toBe('AB12 CD34');
    expect(displayFingerprint('xyz')).toBe('xyz');
  });
});
