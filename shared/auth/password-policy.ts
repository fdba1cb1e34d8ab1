import type { PasswordPolicy } from '../api/endpoints/pre-login';

export type PasswordRule = 'minLength' | 'uppercase' | 'lowercase' | 'digit' | 'special';

/** Rules the password breaks under the policy (empty = acceptable). SPEC §5: "meet the policy". */
export function passwordPolicyViolations(policy: PasswordPolicy, password: string): PasswordRule[] {
  const broken: PasswordRule[] = [];
  if ([...password].length < policy.minLength) broken.push('minLength');
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) broken.push('uppercase');
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) broken.push('lowercase');
  if (policy.requireDigit && !/\p{Nd}/u.test(password)) broken.push('digit');
  if (policy.requireSpecial && !/[^\p{L}\p{Nd}]/u.test(password)) broken.push('special');
  return broken;
}
