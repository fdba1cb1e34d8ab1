import { describe, expect, it } from 'vitest';
import { fingerprintGroups } from './fingerprint';

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
