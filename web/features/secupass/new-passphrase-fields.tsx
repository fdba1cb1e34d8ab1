import { Field, Input, makeStyles, ProgressBar, tokens } from '@fluentui/react-components';
import { CheckmarkCircle16Filled, DismissCircle16Regular } from '@fluentui/react-icons';
import type { SecuPassPolicy } from '@shared/contract/secupass';
import { useDeferredValue, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { evaluatePassphrase, passphraseStrength, policyChecklist, strengthMeter, type PassphraseEvaluation } from './passphrase-rules';

export interface NewPassphraseValue {
  passphrase: string;
  confirmation: string;
}

const useStyles = makeStyles({
  rules: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: '4px' },
  rule: { display: 'flex', gap: '6px', alignItems: 'center' },
  met: { color: tokens.colorPaletteGreenForeground1 },
  unmet: { color: tokens.colorNeutralForeground3 },
});

/** Evaluates the candidate against policy and strength (zxcvbn runs on the deferred value so typing stays fluid). */
export function usePassphraseEvaluation(policy: SecuPassPolicy | undefined, passphrase: string, userInputs: string[]): PassphraseEvaluation | null {
  const deferred = useDeferredValue(passphrase);
  const inputsKey = userInputs.join('\n');
  return useMemo(() => {
    if (!policy) return null;
    return evaluatePassphrase(policy, deferred, passphraseStrength(deferred, inputsKey ? inputsKey.split('\n') : []));
  }, [policy, deferred, inputsKey]);
}

/** New passphrase + confirmation with a strength meter and the server policy as a live checklist (SPEC §5). */
export function NewPassphraseFields({
  value,
  onChange,
  errors,
  policy,
  evaluation,
  autoFocus = false,
  labelKey = 'secupass:form.passphrase',
}: {
  value: NewPassphraseValue;
  onChange: (value: NewPassphraseValue) => void;
  errors: { passphrase?: string; confirmation?: string };
  policy: SecuPassPolicy | undefined;
  evaluation: PassphraseEvaluation | null;
  autoFocus?: boolean;
  labelKey?: 'secupass:form.passphrase' | 'secupass:form.newPassphrase';
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  const rulesId = useId();
  const meter = evaluation ? strengthMeter(evaluation.score) : null;
  return (
    <>
      <Field label={t(labelKey)} required validationMessage={errors.passphrase}>
        <Input
          type="password"
          name="new-passphrase"
          autoComplete="new-password"
          autoFocus={autoFocus}
          aria-describedby={policy ? rulesId : undefined}
          value={value.passphrase}
          onChange={(_e, data) => onChange({ ...value, passphrase: data.value })}
        />
      </Field>
      {meter && value.passphrase ? (
        <Field label={t('secupass:strength.label', { strength: t(`secupass:strength.${meter.level}`) })} validationState="none">
          <ProgressBar value={meter.value} max={1} thickness="large" color={meter.color} />
        </Field>
      ) : null}
      {policy && evaluation ? (
        <ul id={rulesId} className={styles.rules} aria-label={t('secupass:policy.title')}>
          {policyChecklist(policy, evaluation).map(({ rule, met }) => (
            <li key={rule} className={styles.rule}>
              {met ? <CheckmarkCircle16Filled className={styles.met} aria-hidden /> : <DismissCircle16Regular className={styles.unmet} aria-hidden />}
              <span>
                {t(`secupass:policy.${rule}`, { count: policy.minLength })}
                <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                  {' '}
                  {met ? t('secupass:policy.met') : t('secupass:policy.notMet')}
                </span>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <Field label={t('secupass:form.confirmation')} required validationMessage={errors.confirmation}>
        <Input
          type="password"
          name="confirm-passphrase"
          autoComplete="new-password"
          value={value.confirmation}
          onChange={(_e, data) => onChange({ ...value, confirmation: data.value })}
        />
      </Field>
    </>
  );
}

/** Field messages for a new passphrase: required, meets the policy, matches its confirmation (SPEC §5). */
export function newPassphraseMessages(
  t: (key: string, options?: Record<string, unknown>) => string,
  value: NewPassphraseValue,
  policy: SecuPassPolicy,
  evaluation: PassphraseEvaluation,
): { passphrase?: string; confirmation?: string } {
  const result: { passphrase?: string; confirmation?: string } = {};
  if (!value.passphrase) result.passphrase = t('common:validation.required');
  else if (evaluation.problems.length) {
    result.passphrase = [t('secupass:policy.notMetIntro'), ...evaluation.problems.map((rule) => t(`secupass:policy.${rule}`, { count: policy.minLength }))].join(' ');
  }
  if (!value.confirmation) result.confirmation = t('common:validation.required');
  else if (value.passphrase !== value.confirmation) result.confirmation = t('secupass:form.mustMatch');
  return result;
}
