import { Field, Radio, RadioGroup, type FieldProps } from '@fluentui/react-components';
import type { CustomField } from '@shared/contract/forms';
import { useTranslation } from 'react-i18next';

/**
 * A rating field (shared/contract/form-conditions.ts): one radio per star, 1 … ratingMax, in a row —
 * native radios, so Tab reaches the group and the arrow keys move the choice. Each is named
 * "n of m stars" for screen readers; the value submitted is the number as text.
 */
export function RatingInput({ field, common, value, onValue }: { field: CustomField; common: FieldProps; value: string; onValue: (value: string) => void }) {
  const { t } = useTranslation();
  const stars = Array.from({ length: field.ratingMax }, (_v, i) => String(i + 1));
  return (
    <Field {...common}>
      <RadioGroup layout="horizontal" value={value} onChange={(_e, d) => onValue(d.value)}>
        {stars.map((n) => (
          <Radio key={n} value={n} label={n} input={{ 'aria-label': t('forms:public.stars', { n, max: field.ratingMax }) }} />
        ))}
      </RadioGroup>
    </Field>
  );
}
