import { describe, expect, it } from 'vitest';
import type { DeliverySendConfig } from './config';
import { SECURITY_LEVELS } from './constants';
import { SecurityLevelSchema } from './deliveries';
import {
  allowedSecurityLevels,
  E2E_SECURITY_LEVELS,
  encryptsMessage,
  isE2eLevel,
  isLowerLevel,
  isSecurityLevel,
  minimalSecurityLevel,
  opensByLink,
  SECURITY_LEVEL_ORDER,
  SECURITY_LEVEL_TABLE,
  securityLevelInfo,
  securityLevelNumber,
  SERVER_READABLE_LEVELS,
} from './security-levels';

type Flags = Pick<DeliverySendConfig, 'allowSecurityLevel1' | 'allowSecurityLevel2' | 'allowSecurityLevel3' | 'allowSecurityLevel4'>;
const flags = (one: boolean, two: boolean, three: boolean, four: boolean): Flags => ({
  allowSecurityLevel1: one,
  allowSecurityLevel2: two,
  allowSecurityLevel3: three,
  allowSecurityLevel4: four,
});

describe('security-level table (SPEC §3/§4)', () => {
  it('holds the four wire values of SPEC §4 in order, each with its number, name, flag and label key', () => {
    // The wire values are the contract's; the table must not invent others.
    expect(SECURITY_LEVEL_TABLE.map((l) => [l.wire, l.name, l.number, l.allowFlag, l.textKey])).toEqual([
      [0, 'LEVEL_1', 1, 'allowSecurityLevel1', 'level1'],
      [10, 'LEVEL_2', 2, 'allowSecurityLevel2', 'level2'],
      [20, 'LEVEL_3', 3, 'allowSecurityLevel3', 'level3'],
      [30, 'LEVEL_4', 4, 'allowSecurityLevel4', 'level4'],
    ]);
    for (const info of SECURITY_LEVEL_TABLE) expect(SECURITY_LEVELS[info.name]).toBe(info.wire);
    expect(SECURITY_LEVEL_ORDER).toEqual([0, 10, 20, 30]);
    // Every value the wire schema accepts has a row, and nothing else parses.
    for (const wire of SECURITY_LEVEL_ORDER) expect(SecurityLevelSchema.parse(wire)).toBe(wire);
    for (const other of [-1, 1, 5, 15, 40, '10']) expect(SecurityLevelSchema.safeParse(other).success, String(other)).toBe(false);
  });

  it('answers "is this end-to-end?", "is the message encrypted?", "does the link open it?" from the table', () => {
    expect(SECURITY_LEVEL_ORDER.map(isE2eLevel)).toEqual([false, false, true, true]);
    expect(SECURITY_LEVEL_ORDER.map(encryptsMessage)).toEqual([false, false, false, true]);
    expect(SECURITY_LEVEL_ORDER.map(opensByLink)).toEqual([true, false, false, false]);
    expect(SECURITY_LEVEL_ORDER.map(securityLevelNumber)).toEqual([1, 2, 3, 4]);
    expect(E2E_SECURITY_LEVELS).toEqual([20, 30]);
    expect(SERVER_READABLE_LEVELS).toEqual([0, 10]);
    // Level 4 encrypts the message only because it encrypts the files too.
    for (const info of SECURITY_LEVEL_TABLE) if (info.encryptsMessage) expect(info.e2e).toBe(true);
    expect(isLowerLevel(10, 20)).toBe(true);
    expect(isLowerLevel(30, 0)).toBe(false);
    expect(isLowerLevel(10, 10)).toBe(false);
  });

  it('narrows unknown numbers without a cast, and refuses a corrupt value instead of calling it "not encrypted"', () => {
    expect([0, 10, 20, 30].every(isSecurityLevel)).toBe(true);
    for (const other of [1, 3, 4, 25, -10, NaN, '20', null, undefined]) expect(isSecurityLevel(other), String(other)).toBe(false);
    const fromDatabase: unknown = JSON.parse('25');
    expect(isSecurityLevel(fromDatabase)).toBe(false);
    // A value that slipped past the types (e.g. a hand-edited row) throws rather than answer false.
    expect(() => securityLevelInfo(JSON.parse('25'))).toThrow(RangeError);
    expect(() => isE2eLevel(JSON.parse('25'))).toThrow(RangeError);
  });

  it('allowed levels follow the allowSecurityLevel1..4 flags in order; the minimal is the first allowed', () => {
    expect(allowedSecurityLevels(flags(true, true, true, true))).toEqual([0, 10, 20, 30]);
    expect(allowedSecurityLevels(flags(false, true, false, true))).toEqual([10, 30]);
    expect(minimalSecurityLevel(flags(false, true, false, true))).toBe(10);
    expect(minimalSecurityLevel(flags(false, false, false, true))).toBe(30);
    expect(allowedSecurityLevels(flags(false, false, false, false))).toEqual([]);
    expect(minimalSecurityLevel(flags(false, false, false, false))).toBeUndefined();
  });
});
