import { checkPasswordPolicy, type PasswordPolicy } from '@shared/contract/auth-escalation';
import { AUTH_APP_CODE_LENGTH } from '@shared/contract/constants';
import type { TFunction } from 'i18next';

/** Form rules of SPEC §5 returning a translated message or undefined. */

export function requiredMessage(t: TFunction, value: string): string | undefined {
  return value.trim() ? undefined : t('common:validation.required');
}

export function emailMessage(t: TFunction, value: string): string | undefined {
  return requiredMessage(t, value) ?? (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) ? undefined : t('common:validation.email'));
}

const SIX_DIGITS = new RegExp(`^\\d{${AUTH_APP_CODE_LENGTH}}$`);

/** Authentication app code: 6 digits, spaces ignored (SPEC §5). */
export function sixDigitCodeMessage(t: TFunction, value: string): string | undefined {
  return requiredMessage(t, value) ?? (SIX_DIGITS.test(value.replace(/\s+/g, '')) ? undefined : t('common:validation.codeDigits', { count: AUTH_APP_CODE_LENGTH }));
}

/** New password: required, meets the policy (when known), matches its confirmation (SPEC §5). */
export function newPasswordMessages(
  t: TFunction,
  password: string,
  confirmation: string,
  policy: PasswordPolicy | undefined,
): { password?: string; confirmation?: string } {
  const result: { password?: string; confirmation?: string } = {};
  const required = requiredMessage(t, password);
  if (required) result.password = required;
  else if (policy) {
    const broken = checkPasswordPolicy(password, policy);
    if (broken.length) {
      result.password = [t('common:validation.passwordPolicy'), ...broken.map((rule) => t(`common:validation.policyRule.${rule}`, { count: policy.minLength }))].join(' ');
    }
  }
  const confirmRequired = requiredMessage(t, confirmation);
  if (confirmRequired) result.confirmation = confirmRequired;
  else if (password !== confirmation) result.confirmation = t('common:validation.passwordsMustMatch');
  return result;
}

/** Moves focus to the first invalid field of a form (keyboard and screen-reader users land on the problem). */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  invalid?.focus();
}
