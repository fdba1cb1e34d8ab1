import { checkPasswordPolicy, type PasswordPolicy } from '@shared/contract/auth-escalation';
import { SETTING_KEYS } from '@shared/contract/settings';
import { badRequest } from '../core/http-error';
import type { SettingsStore } from '../settings/settings-store';

export type { PasswordPolicy };

/** Longer than this is refused: nobody types it, and hashing it costs memory. */
export const PASSWORD_MAX_LENGTH = 1024;

/** The policy in force (settings, default: 10 characters with upper and lower case and a digit). */
export async function loadPasswordPolicy(settings: SettingsStore): Promise<PasswordPolicy> {
  const all = await settings.getAll();
  return {
    minLength: Math.max(1, Number(all[SETTING_KEYS.passwordMinLength])),
    requireUppercase: all[SETTING_KEYS.passwordRequireUppercase] === true,
    requireLowercase: all[SETTING_KEYS.passwordRequireLowercase] === true,
    requireDigit: all[SETTING_KEYS.passwordRequireDigit] === true,
    requireSpecial: all[SETTING_KEYS.passwordRequireSpecial] === true,
  };
}

/**
 * The one server-side password check (admin user creation, wizard, password change,
 * reset): throws 400 ValidationException naming the broken rules in `metadata.violations`.
 */
export async function assertPasswordMeetsPolicy(settings: SettingsStore, password: string): Promise<void> {
  const policy = await loadPasswordPolicy(settings);
  const violations: string[] = checkPasswordPolicy(password, policy);
  if (password.length > PASSWORD_MAX_LENGTH) violations.push('maxLength');
  if (violations.length > 0) throw badRequest('The password does not meet the password policy', { violations, policy });
}

/** A random password meeting any sensible policy (first admin when none was given). */
export function generateStrongPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  const body = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  // One of each class whatever the random draw was.
  return `${body}Aa7-`;
}
