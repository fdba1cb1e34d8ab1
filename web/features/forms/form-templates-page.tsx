import { Body1, Button, Card, CardHeader, Field, Input, makeStyles, Text } from '@fluentui/react-components';
import { createFormFromTemplate, listFormTemplates } from '@shared/api/endpoints/form-admin';
import type { FormTemplate } from '@shared/contract/form-templates';
import { FORM_URL_PATTERN, FORM_WEB_LINKS } from '@shared/contract/forms';
import type { FormProblem } from '@shared/rules/form-rules';
import { Alert } from '@web/components/alert';
import { FormDialog } from '@web/components/form-dialog';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { apiClient } from '@web/lib/api-client';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import useSWR from 'swr';
import { formErrorMessage, serverProblems } from './form-errors';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: '12px', marginTop: '12px' },
  card: { display: 'grid', gap: '8px', padding: '12px' },
  dialog: { display: 'grid', gap: '12px' },
});

/** `/forms/templates`: built-in templates and saved forms; "Use" asks a name and URL and opens the new form. */
export function FormTemplatesPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const { data, error } = useSWR('forms/templates', () => listFormTemplates(apiClient), { revalidateOnFocus: false, shouldRetryOnError: false });
  const [chosen, setChosen] = useState<FormTemplate | null>(null);
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [problems, setProblems] = useState<FormProblem[]>([]);
  const [failure, setFailure] = useState<{ key: string; values: Record<string, unknown> } | null>(null);
  const [pending, setPending] = useState(false);
  const title = (template: FormTemplate) => (template.kind === 'builtIn' ? t(`formAdmin:templates.builtIn.${template.id}`) : template.name);
  const problemAt = (field: string) => {
    const found = problems.find((p) => p.field === field);
    return found ? t([`forms:problems.${found.reason}`, `formAdmin:problems.${found.reason}`]) : undefined;
  };

  async function create(event: FormEvent) {
    event.preventDefault();
    if (!chosen) return;
    const local: FormProblem[] = [];
    if (name.trim() === '') local.push({ field: 'name', reason: 'required' });
    if (url.trim() === '') local.push({ field: 'url', reason: 'required' });
    else if (!FORM_URL_PATTERN.test(url)) local.push({ field: 'url', reason: 'invalidUrl' });
    setProblems(local);
    setFailure(null);
    if (local.length > 0) return;
    setPending(true);
    try {
      const made = await createFormFromTemplate(apiClient, { template: chosen.id, name, url });
      void navigate(FORM_WEB_LINKS.edit(made.formUuid));
    } catch (err) {
      setProblems(serverProblems(err));
      setFailure(formErrorMessage(err, 'forms:edit.saveFailed'));
    } finally {
      setPending(false);
    }
  }

  const section = (kind: FormTemplate['kind']) => {
    const items = data?.items.filter((i) => i.kind === kind) ?? [];
    return (
      <section aria-labelledby={`templates-${kind}`}>
        <Text as="h2" size={500} weight="semibold" id={`templates-${kind}`}>
          {t(kind === 'builtIn' ? 'formAdmin:templates.builtInTitle' : 'formAdmin:templates.form')}
        </Text>
        {items.length === 0 ? <Body1 as="p">{t('formAdmin:templates.none')}</Body1> : null}
        <div className={styles.grid}>
          {items.map((template) => (
            <Card key={template.id} className={styles.card}>
              <CardHeader header={<Text weight="semibold">{title(template)}</Text>} description={<Text size={200}>{template.fieldNames.join(', ')}</Text>} />
              <Button
                appearance="primary"
                aria-label={t('formAdmin:templates.useNamed', { name: title(template) })}
                onClick={() => {
                  setChosen(template);
                  setName('');
                  setUrl('');
                  setProblems([]);
                  setFailure(null);
                }}
              >
                {t('formAdmin:templates.use')}
              </Button>
            </Card>
          ))}
        </div>
      </section>
    );
  };

  return (
    <>
      <RouterLink to={FORM_WEB_LINKS.admin}>{t('forms:edit.back')}</RouterLink>
      <PageHeading focusOnMount>{t('formAdmin:templates.title')}</PageHeading>
      {error ? <Alert type="error" title={t('formAdmin:templates.loadError')} /> : null}
      {data ? (
        <>
          {section('builtIn')}
          {section('form')}
        </>
      ) : null}
      <FormDialog
        open={chosen !== null}
        onClose={() => setChosen(null)}
        title={chosen ? t('formAdmin:templates.dialogTitle', { name: title(chosen) }) : ''}
        onSubmit={create}
        submitLabel={t('formAdmin:templates.create')}
        submitDisabled={pending}
        contentClassName={styles.dialog}
      >
        {failure ? <Alert type="error" title={t(failure.key, failure.values)} /> : null}
        <Field label={t('forms:options.name')} required validationMessage={problemAt('name')}>
          <Input value={name} onChange={(_e, d) => setName(d.value)} />
        </Field>
        <Field label={t('forms:options.url')} hint={t('forms:options.urlHint')} required validationMessage={problemAt('url')}>
          <Input value={url} onChange={(_e, d) => setUrl(d.value)} />
        </Field>
      </FormDialog>
    </>
  );
}
