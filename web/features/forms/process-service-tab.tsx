import { Body1, Button, Field, Input, makeStyles, Spinner, Switch } from '@fluentui/react-components';
import { getProcessService, rotateProcessServiceSecret, saveProcessService } from '@shared/api/endpoints/flows';
import type { ProcessService } from '@shared/contract/flows';
import { Alert } from '@web/components/alert';
import { apiClient } from '@web/lib/api-client';
import { useNotify } from '@web/lib/toasts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { serverProblems } from './form-errors';
import { WebhookLog } from './webhook-log';

const useStyles = makeStyles({
  panel: { display: 'grid', gap: '12px' },
  bar: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  secret: { fontFamily: 'monospace' },
});

/**
 * The form's process service (Flows, docs/flows.md): on/off, webhook URL, the shared secret shown
 * once when made. Saved by its own calls, apart from the form's Save (the secret is not part of the form).
 */
export function ProcessServiceTab({ formUuid }: { formUuid: string | undefined }) {
  const { t } = useTranslation();
  const styles = useStyles();
  if (!formUuid) {
    return (
      <div className={styles.panel} role="tabpanel" aria-label={t('flows:processService.tab')}>
        <Body1 as="p">{t('flows:processService.saveFirst')}</Body1>
      </div>
    );
  }
  return <ProcessServiceEditor formUuid={formUuid} />;
}

function ProcessServiceEditor({ formUuid }: { formUuid: string }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const { data, error, mutate } = useSWR(['flows/process-service', formUuid], () => getProcessService(apiClient, formUuid), { revalidateOnFocus: false, shouldRetryOnError: false });
  const [draft, setDraft] = useState<{ enabled: boolean; webhookUrl: string } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [pending, setPending] = useState(false);
  const dates = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }), [i18n.language]);
  if (error) return <Alert type="error" title={t('flows:loadError')} />;
  if (!data) return <Spinner label={t('common:loading')} />;
  const shown = draft ?? { enabled: data.enabled, webhookUrl: data.webhookUrl };

  async function run(action: () => Promise<ProcessService | null>) {
    setPending(true);
    setProblem(null);
    setFailed(false);
    try {
      const saved = await action();
      if (saved) {
        await mutate(saved, { revalidate: false });
        setDraft(null);
        notify('success', t('flows:processService.saved'));
      } else {
        await mutate();
      }
    } catch (err) {
      const found = serverProblems(err).find((p) => p.field === 'webhookUrl');
      if (found) setProblem(t(`flows:processService.problems.${found.reason}`));
      else setFailed(true);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className={styles.panel} role="tabpanel" aria-label={t('flows:processService.tab')}>
      <Body1 as="p">{t('flows:processService.intro')}</Body1>
      {failed ? <Alert type="error" title={t('flows:processService.saveFailed')} /> : null}
      <Switch label={t('flows:processService.enabled')} checked={shown.enabled} onChange={(_e, d) => setDraft({ ...shown, enabled: d.checked })} />
      <Field label={t('flows:processService.webhookUrl')} hint={t('flows:processService.webhookHint')} validationMessage={problem ?? undefined}>
        <Input type="url" value={shown.webhookUrl} onChange={(_e, d) => setDraft({ ...shown, webhookUrl: d.value })} />
      </Field>
      <Field label={t('flows:processService.secret')}>
        <Body1 as="p">
          {data.secretSet && data.secretCreatedAt !== null ? t('flows:processService.secretSet', { date: dates.format(data.secretCreatedAt) }) : t('flows:processService.secretNone')}
        </Body1>
      </Field>
      {secret ? (
        <Field label={t('flows:processService.secretShown')}>
          <Input className={styles.secret} readOnly value={secret} onFocus={(event) => event.currentTarget.select()} />
        </Field>
      ) : null}
      <div className={styles.bar}>
        <Button
          disabled={pending}
          onClick={() =>
            void run(async () => {
              setSecret((await rotateProcessServiceSecret(apiClient, formUuid)).secret);
              return null;
            })
          }
        >
          {t('flows:processService.newSecret')}
        </Button>
        <Button appearance="primary" disabled={pending} onClick={() => void run(() => saveProcessService(apiClient, formUuid, shown))}>
          {t('flows:processService.save')}
        </Button>
      </div>
      {data.secretSet ? <WebhookLog formUuid={formUuid} /> : null}
    </div>
  );
}
