import { Button, makeStyles, Subtitle2, Text } from '@fluentui/react-components';
import { listWebhookAttempts, sendHandOffAgain, testWebhook } from '@shared/api/endpoints/flows';
import type { FlowAttempt } from '@shared/contract/flow-attempts';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { apiClient } from '@web/lib/api-client';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

const useStyles = makeStyles({ bar: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' } });

/**
 * The webhook's delivery log on the process-service tab (docs/flows.md "Delivery log"): the last
 * attempts with status, result, duration and the next attempt due, "Send again" for a failed or
 * delivered hand-off and "Send test".
 */
export function WebhookLog({ formUuid }: { formUuid: string }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  const [queued, setQueued] = useState(false);
  // While a hand-off waits for its next attempt the log looks again, so "Send again" shows its outcome.
  const { data, error, mutate } = useSWR(['flows/attempts', formUuid], () => listWebhookAttempts(apiClient, formUuid), {
    revalidateOnFocus: false,
    refreshInterval: (latest) => (latest?.items.some((a) => a.handOffState === 'pending' || a.handOffState === 'waiting') ? 2000 : 0),
  });
  const dates = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }), [i18n.language]);
  const act = async (action: () => Promise<unknown>, again = false) => {
    setPending(true);
    setFailed(false);
    setQueued(false);
    try {
      await action();
      setQueued(again);
    } catch {
      setFailed(true);
    } finally {
      setPending(false);
      void mutate();
    }
  };
  const columns: DataTableColumn<FlowAttempt>[] = [
    { id: 'at', header: t('flows:log.at'), cell: (a) => dates.format(a.at) },
    { id: 'kind', header: t('flows:log.kind'), cell: (a) => (a.test ? t('flows:log.test') : t('flows:log.submission')) },
    { id: 'status', header: t('flows:log.status'), cell: (a) => (a.statusCode === null ? t('flows:log.notReached') : String(a.statusCode)) },
    { id: 'result', header: t('flows:log.result'), cell: (a) => (a.error === null ? t('flows:states.delivered') : t('flows:states.failed')) },
    { id: 'duration', header: t('flows:log.duration'), cell: (a) => t('flows:log.ms', { ms: a.durationMs }) },
    { id: 'next', header: t('flows:log.next'), cell: (a) => (a.nextAttemptAt === null ? '' : dates.format(a.nextAttemptAt)) },
    {
      id: 'again',
      header: t('flows:log.actions'),
      cell: (a) =>
        a.handOffId !== null && (a.handOffState === 'failed' || a.handOffState === 'delivered') ? (
          <Button size="small" disabled={pending} onClick={() => void act(() => sendHandOffAgain(apiClient, formUuid, a.handOffId!), true)}>
            {t('flows:log.sendAgain')}
          </Button>
        ) : null,
    },
  ];
  return (
    <section aria-labelledby="webhook-log-title">
      <div className={styles.bar}>
        <Subtitle2 as="h3" id="webhook-log-title">
          {t('flows:log.title')}
        </Subtitle2>
        <Button disabled={pending} onClick={() => void act(() => testWebhook(apiClient, formUuid))}>
          {t('flows:log.sendTest')}
        </Button>
      </div>
      {failed ? <Alert type="error" title={t('flows:log.failed')} /> : null}
      <Text role="status">{queued ? t('flows:retried') : ''}</Text>
      <DataTable
        label={t('flows:log.title')}
        columns={columns}
        rows={data?.items}
        rowKey={(_a, index) => String(index)}
        loading={!error}
        error={error ? t('flows:log.loadError') : undefined}
        empty={<Text>{t('flows:log.empty')}</Text>}
      />
    </section>
  );
}
