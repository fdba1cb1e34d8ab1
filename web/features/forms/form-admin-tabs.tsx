import { Field, Input, makeStyles, Switch, Textarea } from '@fluentui/react-components';
import type { FormAdmin } from '@shared/contract/form-admin';
import type { Form, FormInputParsed } from '@shared/contract/forms';
import type { FormProblem } from '@shared/rules/form-rules';
import { useTranslation } from 'react-i18next';
import { HistoryTab } from './history-tab';

/** Tabs of the form administration besides those of form-edit-page.tsx (after them, in this order). */
export const ADMIN_TABS = ['users', 'history'] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

const useStyles = makeStyles({ panel: { display: 'grid', gap: '12px' } });

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
  return null;
}
