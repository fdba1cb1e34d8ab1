import { Checkbox, Field, Input, makeStyles, Select, Textarea } from '@fluentui/react-components';
import { FIELD_CONDITION_OPERATORS, RATING_SCALES, type FieldCondition, type FieldConditionOperator } from '@shared/contract/form-conditions';
import { DISPLAY_ONLY_FIELD_TYPES, type CustomField } from '@shared/contract/forms';
import { useTranslation } from 'react-i18next';

/**
 * The custom-fields tab's settings of issue 33 §3 (shared/contract/form-conditions.ts): a number's
 * range, step and whole numbers, a rating's scale, and "Show only when" an earlier field matches.
 */

const useStyles = makeStyles({ row: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'end' } });

const numberOrNull = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? null : Number(text));
const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l !== '');

export function NumberRatingSettings({ field, problemAt, update }: { field: CustomField; problemAt: (key: string) => string | undefined; update: (changes: Partial<CustomField>) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  if (field.type === 'rating') {
    return (
      <Field label={t('forms:fields.ratingMax')}>
        <Select value={String(field.ratingMax)} onChange={(_e, d) => update({ ratingMax: Number(d.value) as CustomField['ratingMax'] })}>
          {RATING_SCALES.map((n) => (
            <option key={n} value={n}>
              {t('forms:fields.ratingScale', { max: n })}
            </option>
          ))}
        </Select>
      </Field>
    );
  }
  if (field.type !== 'number') return null;
  const numberInput = (key: 'min' | 'max' | 'step') => (
    <Field label={t(`forms:fields.${key}`)} validationMessage={problemAt(key)}>
      <Input type="number" step="any" value={field[key] === null ? '' : String(field[key])} onChange={(_e, d) => update({ [key]: numberOrNull(d.value) })} />
    </Field>
  );
  return (
    <div className={styles.row}>
      {numberInput('min')}
      {numberInput('max')}
      {numberInput('step')}
      <Checkbox label={t('forms:fields.integer')} checked={field.integer} onChange={(_e, d) => update({ integer: d.checked === true })} />
    </div>
  );
}

/** "Show only when": an earlier value field, the operator and the values (one per line). */
export function ConditionSettings({ condition, earlier, problem, onChange }: { condition: FieldCondition | null; earlier: readonly CustomField[]; problem: string | undefined; onChange: (condition: FieldCondition | null) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const candidates = earlier.filter((f) => !DISPLAY_ONLY_FIELD_TYPES.includes(f.type) && f.name.trim() !== '');
  return (
    <div className={styles.row}>
      <Field label={t('forms:fields.conditionField')} validationMessage={problem}>
        <Select value={condition?.field ?? ''} onChange={(_e, d) => onChange(d.value === '' ? null : { field: d.value, operator: condition?.operator ?? 'equals', values: condition?.values ?? [] })}>
          <option value="">{t('forms:fields.always')}</option>
          {candidates.map((f) => (
            <option key={f.name} value={f.name}>
              {f.name}
            </option>
          ))}
        </Select>
      </Field>
      {condition ? (
        <>
          <Field label={t('forms:fields.conditionOperator')}>
            <Select value={condition.operator} onChange={(_e, d) => onChange({ ...condition, operator: d.value as FieldConditionOperator })}>
              {FIELD_CONDITION_OPERATORS.map((op) => (
                <option key={op} value={op}>
                  {t(`forms:fields.operators.${op}`)}
                </option>
              ))}
            </Select>
          </Field>
          {condition.operator === 'filled' ? null : (
            <Field label={t('forms:fields.conditionValues')}>
              <Textarea rows={2} value={condition.values.join('\n')} onChange={(_e, d) => onChange({ ...condition, values: lines(d.value) })} />
            </Field>
          )}
        </>
      ) : null}
    </div>
  );
}
