import {
  Button,
  Card,
  Field,
  Input,
  makeStyles,
  Select,
  Spinner,
  Subtitle1,
  Switch,
  Textarea,
} from '@fluentui/react-components';
import { LANGUAGES } from '@shared/contract/constants';
import { LANGUAGE_NAMES } from '@shared/i18n/i18n';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { UnsavedChangesDialog, useUnsavedChangesGuard } from '@web/components/unsaved-changes';
import { useNotify } from '@web/lib/toasts';
import { focusFirstInvalid } from '@web/lib/validation';
import type { TFunction } from 'i18next';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { saveAdminSettings, settingProblemsOf, useAdminSettings } from './api/settings';
import { fieldProblem, toDraft, toStored, type Draft, type DraftValue, type FieldBase, type SettingField } from './setting-values';

export type { SettingField } from './setting-values';

export interface SettingSection {
  id: string;
  title: string;
  description?: string;
  fields: SettingField[];
}

export interface SettingsFormProps {
  title: string;
  intro?: string;
  /** Shown under the heading, before the form (e.g. the server's warnings). */
  notice?: ReactNode;
  sections: SettingSection[];
  /** Checks across fields before saving (e.g. at least one level): key → message. */
  validate?: (draft: Draft) => Record<string, string>;
}

/** The per-language variants (`key.de|.en|.fr`) of a text setting, each with its language in the label. */
export function perLanguageFields(t: TFunction, key: string, label: string, extra: Partial<FieldBase> & { multiline?: boolean } = {}): SettingField[] {
  return LANGUAGES.map((language) => ({
    kind: 'text' as const,
    multiline: extra.multiline,
    visibleWhen: extra.visibleWhen,
    hint: extra.hint,
    key: `${key}.${language}`,
    label: t('admin:settingsForm.perLanguage', { label, language: LANGUAGE_NAMES[language] }),
  }));
}

const useStyles = makeStyles({
  form: { display: 'grid', gap: '16px', maxWidth: '720px' },
  section: { padding: '24px', display: 'grid', gap: '16px' },
  description: { margin: 0 },
  actions: { display: 'flex', gap: '12px', flexWrap: 'wrap' },
});

/**
 * An administration page over settings of PUT /admin/settings: sections of fields, the form's
 * own checks, Save sending only the changed keys, the server's per-key problems at their field,
 * a toast on success and a confirmation before leaving with unsaved changes.
 */
export function SettingsForm({ title, intro, notice, sections, validate }: SettingsFormProps) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const settings = useAdminSettings();
  const formRef = useRef<HTMLFormElement>(null);
  const fields = useMemo(() => sections.flatMap((section) => section.fields), [sections]);

  // Only a new answer of the server starts the form over, not new field texts (a language switch).
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;
  const initial = useMemo<Draft | null>(() => {
    const values = settings.data?.settings;
    return values ? Object.fromEntries(fieldsRef.current.map((field) => [field.key, toDraft(field, values[field.key])])) : null;
  }, [settings.data]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Focus moves after React has rendered the messages (aria-invalid), also after an awaited save.
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (focusRequest > 0) focusFirstInvalid(formRef.current);
  }, [focusRequest]);

  // A fresh load (or the answer of a save) starts the form over.
  useEffect(() => setDraft(initial), [initial]);

  const changedKeys = draft && initial ? fields.filter((field) => draft[field.key] !== initial[field.key]).map((field) => field.key) : [];
  const dirty = changedKeys.length > 0;

  const blocker = useUnsavedChangesGuard(dirty && !saving);

  const setValue = (key: string, value: DraftValue) => {
    setDraft((current) => (current ? { ...current, [key]: value } : current));
    setErrors(({ [key]: _dropped, ...rest }) => rest);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!draft) return;
    setFailure(null);
    const next: Record<string, string> = {};
    // Only edited fields: a value set elsewhere (e.g. 1.5 days through the API) stays as it is.
    for (const field of fields.filter((f) => changedKeys.includes(f.key))) {
      const problem = fieldProblem(t, field, draft[field.key]!);
      if (problem) next[field.key] = problem;
    }
    Object.assign(next, validate?.(draft) ?? {});
    setErrors(next);
    if (Object.keys(next).length > 0) {
      setFocusRequest((count) => count + 1);
      return;
    }
    if (!dirty) {
      notify('info', t('admin:settingsForm.nothingChanged'));
      return;
    }
    const byKey = new Map(fields.map((field) => [field.key, field]));
    const changes = Object.fromEntries(changedKeys.map((key) => [key, toStored(byKey.get(key)!, draft[key]!)]));
    setSaving(true);
    try {
      const saved = await saveAdminSettings(changes);
      await settings.mutate(saved, { revalidate: false });
      notify('success', t('admin:settingsForm.saved'));
    } catch (error) {
      const problems = settingProblemsOf(error);
      if (problems?.length) {
        const known = problems.filter((p) => byKey.has(p.key));
        setErrors(Object.fromEntries(known.map((p) => [p.key, t('admin:settingsForm.errors.server', { problem: p.problem })])));
        // A key the form does not show (should not happen) still gets its message.
        const other = problems.filter((p) => !byKey.has(p.key));
        if (other.length) setFailure(other.map((p) => `${p.key}: ${p.problem}`).join('; '));
        setFocusRequest((count) => count + 1);
      } else {
        setFailure(t('admin:settingsForm.saveFailed'));
      }
    } finally {
      setSaving(false);
    }
  }

  const heading = <PageHeading focusOnMount>{title}</PageHeading>;
  if (settings.error) {
    return (
      <>
        {heading}
        <Alert type="error">{t('admin:settingsForm.loadFailed')}</Alert>
      </>
    );
  }
  if (!draft) {
    return (
      <>
        {heading}
        <Spinner label={t('admin:settingsForm.loading')} />
      </>
    );
  }

  return (
    <>
      {heading}
      {intro ? <p>{intro}</p> : null}
      {notice}
      {failure ? <Alert type="error">{failure}</Alert> : null}
      <form ref={formRef} className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        {sections.map((section) => (
          <SectionCard key={section.id} section={section} draft={draft} errors={errors} onChange={setValue} />
        ))}
        <div className={styles.actions}>
          <Button type="submit" appearance="primary" disabled={saving}>
            {t('admin:settingsForm.save')}
          </Button>
          <Button
            type="button"
            disabled={!dirty || saving}
            onClick={() => {
              setDraft(initial);
              setErrors({});
              setFailure(null);
            }}
          >
            {t('admin:settingsForm.discard')}
          </Button>
        </div>
      </form>
      <UnsavedChangesDialog
        blocker={blocker}
        labels={{ title: t('admin:settingsForm.leaveTitle'), text: t('admin:settingsForm.leaveText'), stay: t('admin:settingsForm.stay'), leave: t('admin:settingsForm.leave') }}
      />
    </>
  );
}

function SectionCard({
  section,
  draft,
  errors,
  onChange,
}: {
  section: SettingSection;
  draft: Draft;
  errors: Record<string, string>;
  onChange: (key: string, value: DraftValue) => void;
}) {
  const styles = useStyles();
  const id = useId();
  return (
    <Card className={styles.section} role="region" aria-labelledby={id}>
      <Subtitle1 as="h2" id={id}>
        {section.title}
      </Subtitle1>
      {section.description ? <p className={styles.description}>{section.description}</p> : null}
      {section.fields
        // A field with a problem stays visible, whatever the other values.
        .filter((field) => !field.visibleWhen || field.visibleWhen(draft) || errors[field.key])
        .map((field) => (
          <SettingInput key={field.key} field={field} value={draft[field.key]!} error={errors[field.key]} onChange={(value) => onChange(field.key, value)} />
        ))}
    </Card>
  );
}

function SettingInput({ field, value, error, onChange }: { field: SettingField; value: DraftValue; error?: string; onChange: (value: DraftValue) => void }) {
  const common = { hint: field.hint, validationMessage: error, validationState: error ? ('error' as const) : undefined };
  // Every control carries the setting key, so tests and support can find a setting by its name.
  const data = { 'data-setting': field.key };
  switch (field.kind) {
    case 'switch':
      return (
        <Field {...common}>
          <Switch {...data} label={field.label} checked={value === true} onChange={(_e, d) => onChange(d.checked)} />
        </Field>
      );
    case 'integer':
      return (
        <Field {...common} label={field.label}>
          <Input {...data} inputMode="numeric" value={String(value)} contentAfter={field.unit} onChange={(_e, d) => onChange(d.value)} />
        </Field>
      );
    case 'choice':
      return (
        <Field {...common} label={field.label}>
          <Select {...data} value={String(value)} onChange={(_e, d) => onChange(d.value)}>
            {field.options.map((option) => (
              <option key={String(option.value)} value={String(option.value)}>
                {option.label}
              </option>
            ))}
          </Select>
        </Field>
      );
    case 'list':
      return (
        <Field {...common} label={field.label}>
          <Textarea {...data} resize="vertical" rows={4} value={String(value)} onChange={(_e, d) => onChange(d.value)} />
        </Field>
      );
    case 'text':
      return (
        <Field {...common} label={field.label}>
          {field.multiline ? (
            <Textarea {...data} resize="vertical" rows={3} value={String(value)} onChange={(_e, d) => onChange(d.value)} />
          ) : (
            <Input {...data} type={field.inputType ?? 'text'} value={String(value)} onChange={(_e, d) => onChange(d.value)} />
          )}
        </Field>
      );
  }
}
