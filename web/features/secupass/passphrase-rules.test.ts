import type { SecuPassPolicy } from '@shared/contract/secupass';
import { describe, expect, it } from 'vitest';
import { evaluatePassphrase, passphraseStrength, policyChecklist, strengthMeter } from './passphrase-rules';

const policy: SecuPassPolicy = { minLength: 12, requireLowercase: true, requireUppercase: true, requireDigit: true, requireSpecial: false, minStrength: 3 };

describe('passphrase rules', () => {
  it('rates guessable candidates low and long random ones high', () => {
    expect(passphraseStrength('')).toBe(0);
    expect(passphraseStrength('password')).toBe(0);
    expect(passphraseStrength('Password1')).toBeLessThanOrEqual(1);
    expect(passphraseStrength('violet-Harbor-71-quietly-jump')).toBe(4);
  });
  it('treats the user inputs as guessable', () => {
    expect(passphraseStrength('Jane.Doe@example.test', ['jane.doe@example.test'])).toBeLessThan(passphraseStrength('Jane.Doe@example.test'));
  });
  it('lists every broken policy rule and the strength floor', () => {
    expect(evaluatePassphrase(policy, 'short', 0).problems).toEqual(['minLength', 'uppercase', 'digit', 'strength']);
    expect(evaluatePassphrase(policy, 'violet-Harbor-71-quietly-jump', 4).problems).toEqual([]);
    expect(evaluatePassphrase(policy, 'violet-Harbor-71', 2).problems).toEqual(['strength']);
    expect(evaluatePassphrase({ ...policy, minStrength: 0 }, 'violet-Harbor-71', 0).problems).toEqual([]);
  });
  it('counts characters, not UTF-16 units, for the length', () => {
    expect(evaluatePassphrase({ ...policy, minLength: 4, requireUppercase: false, requireDigit: false, minStrength: 0 }, 'a😀b😀', 0).problems).toEqual([]);
    expect(evaluatePassphrase({ ...policy, minLength: 5, requireUppercase: false, requireDigit: false, minStrength: 0 }, 'a😀b😀', 0).problems).toEqual(['minLength']);
  });
  it('shows only the rules the policy has, each met or not', () => {
    const evaluation = evaluatePassphrase(policy, 'abcdefghijkl', 1);
    expect(policyChecklist(policy, evaluation)).toEqual([
      { rule: 'minLength', met: true },
      { rule: 'lowercase', met: true },
      { rule: 'uppercase', met: false },
      { rule: 'digit', met: false },
      { rule: 'strength', met: false },
    ]);
    expect(policyChecklist({ ...policy, requireLowercase: false, requireUppercase: false, requireDigit: false, minStrength: 0 }, evaluation).map((item) => item.rule)).toEqual(['minLength']);
  });
  it('maps scores to meter values and colours', () => {
    expect(strengthMeter(0)).toEqual({ level: 'veryWeak', value: 0.2, color: 'error' });
    expect(strengthMeter(2)).toEqual({ level: 'fair', value: 0.6, color: 'warning' });
    expect(strengthMeter(4)).toEqual({ level: 'veryStrong', value: 1, color: 'success' });
  });
});
