import { Field, Input, makeStyles, Subtitle2, Switch, Textarea, tokens } from '@fluentui/react-components';
import type { FormAdmin, FormAppearance } from '@shared/contract/form-admin';
import type { Form, FormInputParsed, PublicForm } from '@shared/contract/forms';
import type { FormProblem } from '@shared/rules/form-rules';
import { useTranslation } from 'react-i18next';
import { HistoryTab } from './history-tab';
import { SubmissionsTab } from './submissions-tab';
import { FormFill } from './public-form-page';
import { BackgroundImageField, useFormBackground } from './layout-images';
import { THEME_ASSET_PATHS } from '@shared/contract/theme';

/** Tabs of the form administration besides those of form-edit-page.tsx (after them, in this order). */
export const ADMIN_TABS = ['users', 'history', 'submissions'] as const;
/** Tabs that need a saved form. */
export const SAVED_FORM_TABS: readonly AdminTab[] = ['history', 'submissions'];
export type AdminTab = (typeof ADMIN_TABS)[number];

const useStyles = makeStyles({
  panel: { display: 'grid', gap: '12px' },
  row: { display: 'flex', gap: '12px', flexWrap: 'wrap' },
  preview: { display: 'grid', gap: '8px', padding: '12px', border: `1px dashed ${tokens.colorNeutralStroke1}`, borderRadius: '8px' },
});

/** The public page's view of the unsaved settings (the live preview). */
function previewOf(state: FormInputParsed, form: Form | undefined, backgroundImageUrl: string | null): PublicForm {
  return {
    formUuid: form?.formUuid ?? 'preview',
    name: state.name,
    securityLevel: state.securityLevel,
    captcha: false,
    onlyAuthenticated: state.onlyAuthenticated,
    optionalRecipients: state.optionalRecipients,
    recipientChoiceRequired: state.mandatoryRecipients.length === 0,
    disclaimerEnabled: state.disclaimerEnabled,
    disclaimerText: state.disclaimerText,
    layout: state.layout,
    translations: {},
    customFields: state.customFields,
    // Not known here: the preview shows the per-file limits only.
    maxUploadSize: 0,
    processPages: state.processPages,
    appearance: state.admin.appearance,
    // The preview never submits: no recipients' keys needed.
    e2eRecipients: [],
    backgroundImageUrl,
    // The theme logo, always served (the product's while none is uploaded).
    logoUrl: state.admin.appearance.showCompanyLogo ? THEME_ASSET_PATHS.logo : null,
  };
}

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l !== '');

interface Props {
  tab: string;
  form: Form | undefined;
  state: FormInputParsed;
  set: (changes: Partial<FormInputParsed>) => void;
  problems: readonly FormProblem[];
  savedAt: number;
}

/**
 * What form administration adds to the editor: the Users and History tabs, and its settings
 * under Options (notifications, subject template) and Layout (confirmation mail, appearance).
 */
export function AdminTabPanel({ tab, form, state, set, problems, savedAt }: Props) {
  const { t } = useTranslation();
  const problemAt = (field: string) => {
    const found = problems.find((p) => p.field === field || p.field.startsWith(`${field}.`));
    return found ? t(`formAdmin:problems.${found.reason}`) : undefined;
  };
  const styles = useStyles();
  const admin = state.admin;
  const setAdmin = (changes: Partial<FormAdmin>) => set({ admin: { ...admin, ...changes } });
  if (tab === 'options') {
    return (
      <div className={styles.panel}>
        <Switch label={t('formAdmin:options.notifyRecipients')} checked={admin.notifyRecipients} onChange={(_e, d) => setAdmin({ notifyRecipients: d.checked })} />
        <Field label={t('formAdmin:options.subjectTemplate')} hint={t('formAdmin:options.subjectHint')} validationMessage={problemAt('admin.subjectTemplate')}>
          <Input value={admin.subjectTemplate} onChange={(_e, d) => setAdmin({ subjectTemplate: d.value })} />
        </Field>
      </div>
    );
  }
  if (tab === 'layout') {
    const appearance = admin.appearance;
    const setAppearance = (changes: Partial<FormAppearance>) => setAdmin({ appearance: { ...appearance, ...changes } });
    return (
      <div className={styles.panel}>
        <Field label={t('formAdmin:layout.confirmationMailText')} hint={t('formAdmin:layout.confirmationHint')} validationMessage={problemAt('admin.confirmationMailText')}>
          <Textarea value={admin.confirmationMailText} onChange={(_e, d) => setAdmin({ confirmationMailText: d.value })} rows={4} />
        </Field>
        <div className={styles.row}>
          {(['primaryColor', 'textColor'] as const).map((key) => (
            <Field key={key} label={t(`formAdmin:layout.${key}`)} hint={t('formAdmin:layout.colourHint')} validationMessage={problemAt(`admin.appearance.${key}`)}>
              <Input value={appearance[key]} onChange={(_e, d) => setAppearance({ [key]: d.value.trim() })} placeholder="#0f6cbd" />
            </Field>
          ))}
          <Field label={t('formAdmin:layout.transparency')}>
            <Input type="number" min={0} max={100} value={String(appearance.transparency)} onChange={(_e, d) => setAppearance({ transparency: Math.min(100, Math.max(0, Math.round(Number(d.value) || 0))) })} />
          </Field>
        </div>
        <Switch label={t('formAdmin:layout.darkTheme')} checked={appearance.darkTheme} onChange={(_e, d) => setAppearance({ darkTheme: d.checked })} />
        <BackgroundImageField formUuid={form?.formUuid} />
        <Field hint={t('formAdmin:layoutImages.showCompanyLogoHint')}>
          <Switch label={t('formAdmin:layoutImages.showCompanyLogo')} checked={appearance.showCompanyLogo} onChange={(_e, d) => setAppearance({ showCompanyLogo: d.checked })} />
        </Field>
      </div>
    );
  }
  if (tab === 'users') {
    return (
      <div className={styles.panel} role="tabpanel" aria-label={t('formAdmin:tabs.users')}>
        <Field label={t('formAdmin:users.editors')} hint={t('formAdmin:users.editorsHint')} validationMessage={problemAt('admin.editors')}>
          <Textarea value={admin.editors.join('\n')} onChange={(_e, d) => setAdmin({ editors: lines(d.value) })} rows={3} />
        </Field>
        <Field label={t('formAdmin:users.submitters')} hint={t('formAdmin:users.submittersHint')} validationMessage={problemAt('admin.submitters')}>
          <Textarea value={admin.submitters.join('\n')} onChange={(_e, d) => setAdmin({ submitters: lines(d.value) })} rows={3} disabled={!state.onlyAuthenticated} />
        </Field>
        <Switch label={t('formAdmin:users.submitterRole')} checked={admin.submitterRole} disabled={!state.onlyAuthenticated} onChange={(_e, d) => setAdmin({ submitterRole: d.checked })} />
      </div>
    );
  }
  if (tab === 'history' && form) {
    return (
      <div className={styles.panel} role="tabpanel" aria-label={t('formAdmin:tabs.history')}>
        <HistoryTab formUuid={form.formUuid} savedAt={savedAt} />
      </div>
    );
  }
  if (tab === 'submissions' && form) {
    return (
      <div className={styles.panel} role="tabpanel" aria-label={t('formAdmin:tabs.submissions')}>
        <SubmissionsTab form={form} />
      </div>
    );
  }
  return null;
}

/** The Layout tab's live preview: the public form with the unsaved settings (outside the editor's <form>). */
export function LayoutPreview({ form, state }: { form: Form | undefined; state: FormInputParsed }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const background = useFormBackground(form?.formUuid);
  return (
    <section aria-labelledby="form-layout-preview" className={styles.preview}>
      <Subtitle2 as="h2" id="form-layout-preview">
        {t('formAdmin:layout.preview')}
      </Subtitle2>
      <FormFill form={previewOf(state, form, background.data?.backgroundImage?.url ?? null)} formId={form?.formUuid ?? 'preview'} preview />
    </section>
  );
}
