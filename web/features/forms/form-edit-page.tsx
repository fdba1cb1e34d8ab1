import { Button, Checkbox, Field, Input, Link, makeStyles, Select, Spinner, Switch, Tab, TabList, Textarea } from '@fluentui/react-components';
import { createForm, deleteForm, getForm, updateForm } from '@shared/api/endpoints/forms';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { CustomFieldInputSchema, FORM_WEB_LINKS, FormInputSchema, type Form, type FormInputParsed } from '@shared/contract/forms';
import { isE2eLevel, SECURITY_LEVEL_ORDER, SERVER_READABLE_LEVELS, securityLevelInfo } from '@shared/contract/security-levels';
import { formAdminProblems } from '@shared/rules/form-admin-rules';
import { processPageProblems } from '@shared/rules/form-pages-rules';
import { conditionProblems } from '@shared/rules/form-conditions';
import { formFooterProblems } from '@shared/rules/form-footer-rules';
import { formConfigProblems, type FormProblem } from '@shared/rules/form-rules';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { apiClient } from '@web/lib/api-client';
import { useNotify } from '@web/lib/toasts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import useSWR from 'swr';
import { CustomFieldsEditor } from './custom-fields-editor';
import { formErrorMessage, serverProblems } from './form-errors';
import { ProcessServiceTab } from './process-service-tab';
import { ProcessPagesEditor } from './process-pages-editor';
import { FooterEditor } from './form-footer';
import { ADMIN_TABS, AdminTabPanel, LayoutPreview, SAVED_FORM_TABS, type AdminTab } from './form-admin-tabs';
import { ShareBar } from './share-dialog';
import { TranslationsEditor } from './translations-editor';

const useStyles = makeStyles({
  form: { display: 'grid', gap: '16px', maxWidth: '720px', marginTop: '16px' },
  bar: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  panel: { display: 'grid', gap: '12px' },
});

type Tab = 'options' | 'fields' | 'disclaimer' | 'layout' | 'translations' | 'processService' | AdminTab;
const TABS: readonly Tab[] = ['options', 'fields', 'disclaimer', 'layout', 'translations', 'processService'];
/** Tabs whose label lives in another namespace (their own feature's). */
const TAB_LABELS: Partial<Record<Tab, string>> = { processService: 'flows:processService.tab' };

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l !== '');

function toState(form: Form | undefined): FormInputParsed {
  const base = FormInputSchema.parse({ name: '', url: '', securityLevel: SERVER_READABLE_LEVELS[0] });
  if (!form) return base;
  const { name, url, active, securityLevel, captcha, onlyAuthenticated, mandatoryRecipients, optionalRecipients, senderEmail, disclaimerEnabled, disclaimerText, layout, translations, customFields, admin, processPages } = form;
  return { name, url, active, securityLevel, captcha, onlyAuthenticated, mandatoryRecipients, optionalRecipients, senderEmail, disclaimerEnabled, disclaimerText, layout, translations, customFields, admin, processPages };
}

/** `/forms/{formUuid}` (or `/forms/new`): the configuration with the tabs of SPEC §2. */
export function FormEditPage() {
  const { formUuid = 'new' } = useParams();
  const { t } = useTranslation();
  const isNew = formUuid === 'new';
  const { data, error } = useSWR(isNew ? null : ['forms/one', formUuid], () => getForm(apiClient, formUuid), { revalidateOnFocus: false, shouldRetryOnError: false });
  if (error) {
    const message = formErrorMessage(error);
    return <Alert type="error" title={t(message.key, message.values)} />;
  }
  if (!isNew && !data) return <Spinner label={t('common:loading')} />;
  return <FormEditor key={data?.formUuid ?? 'new'} form={data} />;
}

function FormEditor({ form }: { form: Form | undefined }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const [state, setState] = useState<FormInputParsed>(() => toState(form));
  const [tab, setTab] = useState<Tab>('options');
  const [problems, setProblems] = useState<FormProblem[]>([]);
  const [failure, setFailure] = useState<{ key: string; values: Record<string, unknown> } | null>(null);
  const [pending, setPending] = useState(false);
  const [savedAt, setSavedAt] = useState(0);
  // The form as last saved: share and open-in-tab wait while the page differs from it (SPEC §2).
  const [saved, setSaved] = useState<Form | undefined>(form);
  const dirty = JSON.stringify(state) !== JSON.stringify(toState(saved));
  const set = (changes: Partial<FormInputParsed>) => setState((s) => ({ ...s, ...changes }));
  const problemAt = (field: string) => {
    const found = problems.find((p) => p.field === field || p.field.startsWith(`${field}.`));
    if (found?.placeholder) return t('formAdmin:problems.unknownPlaceholderNamed', { placeholder: found.placeholder });
    return found ? t([`forms:problems.${found.reason}`, `formAdmin:problems.${found.reason}`]) : undefined;
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    const local = [...formConfigProblems(state), ...processPageProblems(state.processPages, state.customFields), ...conditionProblems(state.processPages, state.customFields), ...formAdminProblems(state.admin, state.customFields, state.translations, state.processPages, state.securityLevel, state.active), ...formFooterProblems(state.layout.footer)];
    setProblems(local);
    setFailure(null);
    if (local.length > 0) {
      setFailure({ key: 'forms:public.fixFields', values: {} });
      return;
    }
    setPending(true);
    try {
      const stored = form ? await updateForm(apiClient, form.formUuid, state) : await createForm(apiClient, state);
      notify('success', t('forms:edit.saved'));
      setSavedAt(Date.now());
      setSaved(stored);
      // What the server stored (addresses lower-cased, names trimmed): the page is clean again.
      setState(toState(stored));
      if (!form) void navigate(FORM_WEB_LINKS.edit(stored.formUuid), { replace: true });
    } catch (err) {
      setProblems(serverProblems(err));
      setFailure(formErrorMessage(err, 'forms:edit.saveFailed'));
    } finally {
      setPending(false);
    }
  }

  async function remove() {
    if (!form) return;
    await deleteForm(apiClient, form.formUuid);
    notify('success', t('forms:edit.deleted'));
    void navigate(FORM_WEB_LINKS.admin);
  }

  return (
    <>
      <RouterLink to={FORM_WEB_LINKS.admin}>{t('forms:edit.back')}</RouterLink>
      <PageHeading focusOnMount>{form ? t('forms:edit.title', { name: form.name }) : t('forms:edit.newTitle')}</PageHeading>
      {form ? (
        <Link href={form.link} target="_blank" rel="noopener noreferrer">
          {t('forms:edit.publicLink')}: {form.link}
        </Link>
      ) : null}
      {saved && form ? <ShareBar form={saved} dirty={dirty} /> : null}
      <form className={styles.form} onSubmit={(event) => void save(event)} noValidate>
        <TabList selectedValue={tab} onTabSelect={(_e, d) => setTab(d.value as Tab)}>
          {TABS.map((name) => (
            <Tab key={name} value={name}>
              {t(TAB_LABELS[name] ?? `forms:edit.tabs.${name}`)}
            </Tab>
          ))}
          {ADMIN_TABS.filter((name) => form || !SAVED_FORM_TABS.includes(name)).map((name) => (
            <Tab key={name} value={name}>
              {t(`formAdmin:tabs.${name}`)}
            </Tab>
          ))}
        </TabList>
        {failure ? <Alert type="error" title={t(failure.key, failure.values)} /> : null}
        {tab === 'options' ? (
          <div className={styles.panel} role="tabpanel" aria-label={t('forms:edit.tabs.options')}>
            <Field label={t('forms:options.name')} required validationMessage={problemAt('name')}>
              <Input value={state.name} onChange={(_e, d) => set({ name: d.value })} />
            </Field>
            <Field label={t('forms:options.url')} hint={t('forms:options.urlHint')} required validationMessage={problemAt('url')}>
              <Input value={state.url} onChange={(_e, d) => set({ url: d.value })} />
            </Field>
            <Switch label={t('forms:options.active')} checked={state.active} onChange={(_e, d) => set({ active: d.checked })} />
            <Field
              label={t('forms:options.securityLevel')}
              hint={isE2eLevel(state.securityLevel) ? t('forms:e2e.levelHint') : undefined}
              validationMessage={problemAt('securityLevel') ?? (failure?.key === 'forms:errors.recipientWithoutPassphrase' ? t(failure.key, failure.values) : undefined)}
            >
              <Select value={String(state.securityLevel)} onChange={(_e, d) => set({ securityLevel: Number(d.value) as SecurityLevel })}>
                {SECURITY_LEVEL_ORDER.map((level) => (
                  <option key={level} value={level}>
                    {t(`forms:levels.${securityLevelInfo(level).textKey}`)}
                  </option>
                ))}
              </Select>
            </Field>
            <Switch label={t('forms:options.captcha')} checked={state.captcha} onChange={(_e, d) => set({ captcha: d.checked })} />
            <Switch label={t('forms:options.onlyAuthenticated')} checked={state.onlyAuthenticated} onChange={(_e, d) => set({ onlyAuthenticated: d.checked })} />
            <Field label={t('forms:options.mandatoryRecipients')} hint={t('forms:options.recipientsHint')} validationMessage={problemAt('mandatoryRecipients')}>
              <Textarea value={state.mandatoryRecipients.join('\n')} onChange={(_e, d) => set({ mandatoryRecipients: lines(d.value) })} rows={3} />
            </Field>
            <Field label={t('forms:options.optionalRecipients')} hint={t('forms:options.recipientsHint')} validationMessage={problemAt('optionalRecipients')}>
              <Textarea value={state.optionalRecipients.join('\n')} onChange={(_e, d) => set({ optionalRecipients: lines(d.value) })} rows={3} />
            </Field>
            <Field label={t('forms:options.senderEmail')} validationMessage={problemAt('senderEmail')}>
              <Input type="email" value={state.senderEmail ?? ''} onChange={(_e, d) => set({ senderEmail: d.value.trim() === '' ? null : d.value.trim() })} />
            </Field>
          </div>
        ) : null}
        {tab === 'fields' ? (
          <div className={styles.panel} role="tabpanel" aria-label={t('forms:edit.tabs.fields')}>
            <ProcessPagesEditor pages={state.processPages} fields={state.customFields} problems={problems} onChange={(processPages, customFields) => set({ processPages, customFields })} />
            <CustomFieldsEditor fields={state.customFields} problems={problems} onChange={(customFields) => set({ customFields })} newField={() => CustomFieldInputSchema.parse({ name: '', type: 'text', textAreaSize: 1 })} pages={state.processPages} />
          </div>
        ) : null}
        {tab === 'disclaimer' ? (
          <div className={styles.panel} role="tabpanel" aria-label={t('forms:edit.tabs.disclaimer')}>
            <Checkbox label={t('forms:disclaimer.enabled')} checked={state.disclaimerEnabled} onChange={(_e, d) => set({ disclaimerEnabled: d.checked === true })} />
            <Field label={t('forms:disclaimer.text')} validationMessage={problemAt('disclaimerText')}>
              <Textarea value={state.disclaimerText} onChange={(_e, d) => set({ disclaimerText: d.value })} rows={6} />
            </Field>
          </div>
        ) : null}
        {tab === 'layout' ? (
          <div className={styles.panel} role="tabpanel" aria-label={t('forms:edit.tabs.layout')}>
            {(['description', 'successTitle', 'successMessage', 'redirectUrl'] as const).map((key) => (
              <Field key={key} label={t(`forms:layout.${key}`)} validationMessage={problemAt(`layout.${key}`)}>
                <Input value={state.layout[key]} onChange={(_e, d) => set({ layout: { ...state.layout, [key]: d.value } })} />
              </Field>
            ))}
            <FooterEditor footer={state.layout.footer} problemAt={problemAt} onChange={(footer) => set({ layout: { ...state.layout, footer } })} />
          </div>
        ) : null}
        {tab === 'processService' ? <ProcessServiceTab formUuid={form?.formUuid} /> : null}
        {tab === 'translations' ? (
          <div className={styles.panel} role="tabpanel" aria-label={t('forms:edit.tabs.translations')}>
            <TranslationsEditor form={state} problem={problemAt('translations')} onChange={(translations) => set({ translations })} />
          </div>
        ) : null}
        <AdminTabPanel tab={tab} form={form} state={state} set={set} problems={problems} savedAt={savedAt} />
        <div className={styles.bar}>
          {/* The process service tab saves with its own button (its settings are not part of the form): one Save there. */}
          {tab === 'processService' ? null : (
            <Button type="submit" appearance="primary" disabled={pending}>
              {t('forms:edit.save')}
            </Button>
          )}
          {form ? <Button onClick={() => void remove()}>{t('forms:edit.delete')}</Button> : null}
        </div>
      </form>
      {tab === 'layout' ? <LayoutPreview form={form} state={state} /> : null}
    </>
  );
}
