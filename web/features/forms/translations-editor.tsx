import { Body1, Caption1, Field, Input, makeStyles, Subtitle2, Textarea, tokens } from '@fluentui/react-components';
import { LANGUAGES, type Language } from '@shared/contract/constants';
import type { FormInputParsed } from '@shared/contract/forms';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  table: { borderCollapse: 'collapse', width: '100%' },
  cell: { padding: '4px', verticalAlign: 'top', borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, textAlign: 'start' },
  missing: { color: tokens.colorPaletteRedForeground1 },
});

/** One translatable text: where it lives in a language's object (path) and the form's own text. */
interface Row {
  path: string[];
  label: string;
  source: string;
}

type Texts = Record<string, unknown>;

/** The texts the Translations JSON may give (server/README "Layout and translations"), with the form's own text. */
function rowsOf(form: FormInputParsed, t: (key: string, values?: Record<string, unknown>) => string): Row[] {
  const rows: Row[] = [
    { path: ['name'], label: t('forms:translations.table.name'), source: form.name },
    { path: ['description'], label: t('forms:translations.table.description'), source: form.layout.description },
    { path: ['successTitle'], label: t('forms:translations.table.successTitle'), source: form.layout.successTitle },
    { path: ['successMessage'], label: t('forms:translations.table.successMessage'), source: form.layout.successMessage },
  ];
  if (form.disclaimerEnabled) rows.push({ path: ['disclaimerText'], label: t('forms:translations.table.disclaimerText'), source: form.disclaimerText });
  for (const field of form.customFields) {
    if (field.name.trim() === '') continue;
    rows.push({ path: ['fields', field.name, 'label'], label: t('forms:translations.table.fieldLabel', { field: field.name }), source: field.name });
    if (field.hint) rows.push({ path: ['fields', field.name, 'hint'], label: t('forms:translations.table.fieldHint', { field: field.name }), source: field.hint });
    for (const option of field.options) rows.push({ path: ['fields', field.name, 'options', option], label: t('forms:translations.table.option', { field: field.name, option }), source: option });
  }
  form.processPages.forEach((page, index) => {
    rows.push({ path: ['pages', page.id, 'title'], label: t('forms:translations.table.pageTitle', { n: index + 1 }), source: page.title });
    if (page.description) rows.push({ path: ['pages', page.id, 'description'], label: t('forms:translations.table.pageDescription', { n: index + 1 }), source: page.description });
  });
  return rows;
}

const isObject = (value: unknown): value is Texts => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field's entry may be its hint alone (a string): read as `{hint}`. */
function read(texts: unknown, path: string[]): string {
  let node: unknown = texts;
  for (const [i, key] of path.entries()) {
    if (i === 2 && path[0] === 'fields' && typeof node === 'string') node = { hint: node };
    if (!isObject(node)) return '';
    node = node[key];
  }
  return typeof node === 'string' ? node : '';
}

/** Sets (or, when empty, removes) one text; empty objects on the way are removed too. */
function write(texts: Texts, path: string[], value: string): Texts {
  const [key, ...rest] = path as [string, ...string[]];
  const copy: Texts = { ...texts };
  if (rest.length === 0) {
    if (value === '') delete copy[key];
    else copy[key] = value;
    return copy;
  }
  let child = copy[key];
  if (path[0] === 'fields' && rest.length === 1 && typeof child === 'string') child = { hint: child };
  const next = write(isObject(child) ? child : {}, rest, value);
  if (Object.keys(next).length === 0) delete copy[key];
  else copy[key] = next;
  return copy;
}

/**
 * The Translations tab (issue 33 §1.4): a column per language for every text of the form — name,
 * description, success texts, disclaimer, field labels, hints and options, page titles — with what
 * is still untranslated per language. The JSON below stays as import and export; the table reads
 * and writes it, so both always agree. JSON that does not parse shows the JSON alone.
 */
export function TranslationsEditor({ form, problem, onChange }: { form: FormInputParsed; problem: string | undefined; onChange: (translations: string) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  let parsed: Texts | undefined;
  try {
    const value: unknown = JSON.parse(form.translations || '{}');
    parsed = isObject(value) ? value : undefined;
  } catch {
    parsed = undefined;
  }
  const rows = rowsOf(form, t).filter((row) => row.source.trim() !== '');
  const language = (code: Language) => t(`forms:translations.table.language.${code}`);
  const missing = (code: Language) => (parsed ? rows.filter((row) => read(parsed[code], row.path) === '').length : 0);
  const setText = (code: Language, path: string[], value: string) => {
    const current = parsed ?? {};
    const texts = write(isObject(current[code]) ? current[code] : {}, path, value);
    const next: Texts = { ...current, [code]: texts };
    if (Object.keys(texts).length === 0) delete next[code];
    onChange(JSON.stringify(next, null, 2));
  };
  return (
    <>
      {parsed ? (
        <>
          <Subtitle2 as="h2">{t('forms:translations.table.title')}</Subtitle2>
          <ul aria-label={t('forms:translations.table.status')}>
            {LANGUAGES.map((code) => (
              <li key={code}>
                <Body1 className={missing(code) > 0 ? styles.missing : undefined}>{missing(code) > 0 ? t('forms:translations.table.missing', { language: language(code), count: missing(code) }) : t('forms:translations.table.complete', { language: language(code) })}</Body1>
              </li>
            ))}
          </ul>
          <table className={styles.table}>
            <thead>
              <tr>
                <th className={styles.cell} scope="col">
                  {t('forms:translations.table.text')}
                </th>
                {LANGUAGES.map((code) => (
                  <th key={code} className={styles.cell} scope="col">
                    {language(code)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.path.join('\u0000')}>
                  <th className={styles.cell} scope="row">
                    <Body1 block>{row.source}</Body1>
                    <Caption1>{row.label}</Caption1>
                  </th>
                  {LANGUAGES.map((code) => {
                    const value = read(parsed[code], row.path);
                    return (
                      <td key={code} className={styles.cell}>
                        <Input
                          aria-label={t('forms:translations.table.cell', { text: row.label, language: language(code) })}
                          value={value}
                          placeholder={t('forms:translations.table.untranslated')}
                          onChange={(_e, d) => setText(code, row.path, d.value)}
                        />
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <Body1 as="p">{t('forms:translations.table.fixJson')}</Body1>
      )}
      <Field label={t('forms:translations.label')} hint={t('forms:translations.hint')} validationMessage={problem}>
        <Textarea value={form.translations} onChange={(_e, d) => onChange(d.value)} rows={10} />
      </Field>
    </>
  );
}
