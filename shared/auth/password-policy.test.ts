import { describe, expect, it } from 'vitest';
import { passwordPolicyViolations } from './password-policy';

const strict = { minLength: 10, requireUppercase: true, requireLowercase: true, requireDigit: true, requireSpecial: true };

describe('password policy', () => {
  it('lists every broken rule', () => {
    expect(passwordPolicyViolations(strict, 'abc')).toEqual(['minLength', 'uppercase', 'digit', 'special']);
    expect(passwordPolicyViolations(strict, 'Ärger-2024-x')).toEqual([]);
  });
  it('accepts anything long enough under a lax policy', () => {
    expect(passwordPolicyViolations({ ...strict, requireUppercase: false, requireDigit: false, requireSpecial: false }, 'aaaaaaaaaa')).toEqual([]);
  });
});
