import { Body1, Button, Card, Checkbox, Field, Input, makeStyles, Select, Textarea } from '@fluentui/react-components';
import { CUSTOM_FIELD_TYPES, USER_ATTRIBUTES, type CustomField, type CustomFieldType } from '@shared/contract/forms';
import type { ProcessPage } from '@shared/contract/form-pages';
import type { FormProblem } from '@shared/rules/form-rules';
import { FieldPageSelect } from './process-pages-editor';
import { ConditionSettings, NumberRatingSettings } from './field-rules-editor';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  card: { display: 'grid', gap: '8px', padding: '12px' },
  row: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'end' },
});

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
const numberOrNull = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? null : Number(text));

/** The custom-fields tab: each field with the settings its type needs (SPEC §3, §5). */
export function CustomFieldsEditor({ fields, problems, onChange, newField, pages = [] }: { fields: CustomField[]; problems: FormProblem[]; onChange: (fields: CustomField[]) => void; newField: () => CustomField; pages?: readonly ProcessPage[] }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const update = (index: number, changes: Partial<CustomField>) => onChange(fields.map((f, i) => (i === index ? { ...f, ...changes } : f)));
  const move = (index: number, by: number) => {
    const next = [...fields];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    onChange(next);
  };
  const problemAt = (index: number, key: string) => {
    const found = problems.find((p) => p.field === `customFields.${index}.${key}`);
    return found ? t(`forms:problems.${found.reason}`) : undefined;
  };

  return (
    <>
      {fields.length === 0 ? <Body1 as="p">{t('forms:fields.none')}</Body1> : null}
      {fields.map((field, index) => {
        const label = field.name || t('forms:fields.field', { n: index + 1 });
        return (
          <Card key={index} className={styles.card} role="group" aria-label={label}>
            <div className={styles.row}>
              <Field label={t('forms:fields.name')} required validationMessage={problemAt(index, 'name')}>
                <Input value={field.name} onChange={(_e, d) => update(index, { name: d.value })} />
              </Field>
              <Field label={t('forms:fields.type')}>
                <Select value={field.type} onChange={(_e, d) => update(index, { type: d.value as CustomFieldType })}>
                  {CUSTOM_FIELD_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {t(`forms:fields.types.${type}`)}
                    </option>
                  ))}
                </Select>
              </Field>
              <Checkbox label={t('forms:fields.required')} checked={field.required} onChange={(_e, d) => update(index, { required: d.checked === true })} />
            </div>
            <FieldPageSelect field={field} pages={pages} problem={problemAt(index, 'page')} onPage={(page) => update(index, { page })} />
            <Field label={t('forms:fields.hint')}>
              <Input value={field.hint} onChange={(_e, d) => update(index, { hint: d.value })} />
            </Field>
            {field.type === 'text' ? (
              <Field label={t('forms:fields.textAreaSize')} validationMessage={problemAt(index, 'textAreaSize')}>
                <Input type="number" min={1} max={10} value={field.textAreaSize === null ? '' : String(field.textAreaSize)} onChange={(_e, d) => update(index, { textAreaSize: numberOrNull(d.value) })} />
              </Field>
            ) : null}
            {field.type === 'checkbox' || field.type === 'radio' || field.type === 'dropdown' ? (
              <Field label={t('forms:fields.options')} validationMessage={problemAt(index, 'options')}>
                <Textarea value={field.options.join('\n')} onChange={(_e, d) => update(index, { options: lines(d.value) })} rows={3} />
              </Field>
            ) : null}
            <NumberRatingSettings field={field} problemAt={(key) => problemAt(index, key)} update={(changes) => update(index, changes)} />
            <ConditionSettings condition={field.condition} earlier={fields.slice(0, index)} problem={problemAt(index, 'condition')} onChange={(condition) => update(index, { condition })} />
            {field.type === 'file' ? (
              <div className={styles.row}>
                <Field label={t('forms:fields.maxFileSizeKb')} validationMessage={problemAt(index, 'maxFileSizeKb')}>
                  <Input type="number" min={1} value={field.maxFileSizeKb === null ? '' : String(field.maxFileSizeKb)} onChange={(_e, d) => update(index, { maxFileSizeKb: numberOrNull(d.value) })} />
                </Field>
                <Field label={t('forms:fields.allowedFileTypes')}>
                  <Input value={field.allowedFileTypes} onChange={(_e, d) => update(index, { allowedFileTypes: d.value })} />
                </Field>
              </div>
            ) : null}
            {field.type === 'date' ? (
              <div className={styles.row}>
                <Field label={t('forms:fields.startDate')} validationMessage={problemAt(index, 'startDate')}>
                  <Input type="date" value={field.startDate ?? ''} onChange={(_e, d) => update(index, { startDate: d.value || null })} />
                </Field>
                <Field label={t('forms:fields.endDate')} validationMessage={problemAt(index, 'endDate')}>
                  <Input type="date" value={field.endDate ?? ''} onChange={(_e, d) => update(index, { endDate: d.value || null })} />
                </Field>
              </div>
            ) : null}
            {field.type === 'userAttribute' ? (
              <Field label={t('forms:fields.userAttribute')} validationMessage={problemAt(index, 'userAttribute')}>
                <Select value={field.userAttribute ?? ''} onChange={(_e, d) => update(index, { userAttribute: (d.value || null) as CustomField['userAttribute'] })}>
                  <option value="" />
                  {USER_ATTRIBUTES.map((attribute) => (
                    <option key={attribute} value={attribute}>
                      {attribute}
                    </option>
                  ))}
                </Select>
              </Field>
            ) : null}
            {field.type !== 'file' && field.type !== 'signature' && field.type !== 'rating' ? (
              <Field label={t('forms:fields.defaultValue')} validationMessage={problemAt(index, 'defaultValue')}>
                <Input value={field.defaultValue} onChange={(_e, d) => update(index, { defaultValue: d.value })} />
              </Field>
            ) : null}
            {field.type === 'text' || field.type === 'email' ? (
              <Field label={t('forms:fields.regex')} validationMessage={problemAt(index, 'regex')}>
                <Input value={field.regex} onChange={(_e, d) => update(index, { regex: d.value })} />
              </Field>
            ) : null}
            <div className={styles.row}>
              <Button disabled={index === 0} onClick={() => move(index, -1)}>
                {t('forms:fields.up')}
              </Button>
              <Button disabled={index === fields.length - 1} onClick={() => move(index, 1)}>
                {t('forms:fields.down')}
              </Button>
              <Button onClick={() => onChange(fields.filter((_f, i) => i !== index))}>{t('forms:fields.remove', { name: label })}</Button>
            </div>
          </Card>
        );
      })}
      <div>
        <Button onClick={() => onChange([...fields, newField()])}>{t('forms:fields.add')}</Button>
      </div>
    </>
  );
}
