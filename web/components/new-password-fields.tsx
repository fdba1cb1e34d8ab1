import { Field, Input } from '@fluentui/react-components';
import type { PasswordPolicy } from '@shared/contract/auth-escalation';
import { useTranslation } from 'react-i18next';

export interface NewPasswordValue {
  password: string;
  confirmation: string;
}

/** New password + confirmation, with the policy spelled out as a hint (SPEC §5). */
export function NewPasswordFields({
  value,
  onChange,
  errors,
  policy,
  autoFocus = false,
}: {
  value: NewPasswordValue;
  onChange: (value: NewPasswordValue) => void;
  errors: { password?: string; confirmation?: string };
  policy: PasswordPolicy | undefined;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const rules = policy
    ? [
        t('common:validation.policyRule.minLength', { count: policy.minLength }),
        policy.requireUppercase ? t('common:validation.policyRule.uppercase') : null,
        policy.requireLowercase ? t('common:validation.policyRule.lowercase') : null,
        policy.requireDigit ? t('common:validation.policyRule.digit') : null,
        policy.requireSpecial ? t('common:validation.policyRule.special') : null,
      ].filter(Boolean)
    : [];
  return (
    <>
      <Field label={t('common:password.new')} required validationMessage={errors.password} hint={rules.length ? rules.join(' ') : undefined}>
        <Input type="password" name="new-password" autoComplete="new-password" autoFocus={autoFocus} value={value.password} onChange={(_e, data) => onChange({ ...value, password: data.value })} />
      </Field>
      <Field label={t('common:password.confirm')} required validationMessage={errors.confirmation}>
        <Input type="password" name="confirm-password" autoComplete="new-password" value={value.confirmation} onChange={(_e, data) => onChange({ ...value, confirmation: data.value })} />
      </Field>
    </>
  );
}
