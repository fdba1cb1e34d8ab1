import { Button, makeStyles, Text } from '@fluentui/react-components';
import type { TrustConnection } from '@shared/contract/trust-networks';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { ADMIN_BASE } from '@web/lib/routes';
import { useNotify } from '@web/lib/toasts';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteTrustConnection, loadTrustConnections, testTrustConnection } from './api/trust-networks';
import { TrustStatus } from './trust-status';
import { ConfirmDialog, type ConfirmRequest } from './user-dialogs';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px' },
  intro: { margin: 0, maxWidth: '720px' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
});

export const TRUST_BASE = `${ADMIN_BASE}/trust-networks`;

/** Administration › Secure mails › Trust networks (SPEC §2): the connections with status and server address; edit, test, delete with confirmation. */
export function TrustNetworksPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const [connections, setConnections] = useState<TrustConnection[] | undefined>();
  const [failed, setFailed] = useState(false);
  const [testing, setTesting] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<ConfirmRequest | null>(null);

  const load = useCallback(async () => {
    try {
      setConnections(await loadTrustConnections());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => void load(), [load]);

  const replace = (next: TrustConnection) => setConnections((current) => current?.map((c) => (c.connectionId === next.connectionId ? next : c)));

  async function test(connection: TrustConnection) {
    setTesting(connection.connectionId);
    try {
      const next = await testTrustConnection(connection.connectionId);
      replace(next);
      notify(next.status === 'established' ? 'success' : 'error', next.status === 'established' ? t('admin:trust.tested') : t('admin:trust.testFailed', { step: t(`admin:trust.steps.${next.lastTest?.step ?? 'answer'}`) }));
    } catch {
      notify('error', t('admin:trust.testError'));
    } finally {
      setTesting(null);
    }
  }

  /** Delete behind a confirmation that names the partner and what follows (its keys refused from then on). */
  const askDelete = (connection: TrustConnection) =>
    setConfirming({
      title: t('admin:trust.confirmTitle'),
      intro: t('admin:trust.confirmText', { url: connection.partnerUrl }),
      consequences: [],
      confirmLabel: t('admin:trust.delete'),
      run: async () => {
        await deleteTrustConnection(connection.connectionId);
        setConnections((current) => current?.filter((c) => c.connectionId !== connection.connectionId));
      },
      done: t('admin:trust.deleted', { url: connection.partnerUrl }),
      failed: t('admin:trust.deleteFailed'),
    });

  const columns: DataTableColumn<TrustConnection>[] = [
    { id: 'partnerUrl', header: t('admin:trust.columns.partnerUrl'), cell: (c) => c.partnerUrl },
    { id: 'domains', header: t('admin:trust.columns.domains'), cell: (c) => c.partnerDomains.join(', ') },
    { id: 'status', header: t('admin:trust.columns.status'), cell: (c) => <TrustStatus connection={c} /> },
    {
      id: 'actions',
      header: t('admin:trust.columns.actions'),
      cell: (c) => (
        <div className={styles.actions}>
          <Button size="small" aria-label={t('admin:trust.editLabel', { url: c.partnerUrl })} onClick={() => void navigate(`${TRUST_BASE}/edit/${c.connectionId}`)}>
            {t('admin:trust.edit')}
          </Button>
          <Button size="small" aria-label={t('admin:trust.testLabel', { url: c.partnerUrl })} disabled={c.partnerPublicKey === null || testing !== null} onClick={() => void test(c)}>
            {testing === c.connectionId ? t('admin:trust.testing') : t('admin:trust.test')}
          </Button>
          <Button size="small" aria-label={t('admin:trust.deleteLabel', { url: c.partnerUrl })} onClick={() => askDelete(c)}>
            {t('admin:trust.delete')}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <div className={styles.page}>
      <PageHeading focusOnMount>{t('admin:trust.title')}</PageHeading>
      <Text as="p" className={styles.intro}>
        {t('admin:trust.intro')}
      </Text>
      <RouterLink to={`${TRUST_BASE}/create`}>{t('admin:trust.create')}</RouterLink>
      <DataTable
        label={t('admin:trust.tableLabel')}
        columns={columns}
        rows={connections}
        rowKey={(c) => c.connectionId}
        loading={connections === undefined && !failed}
        error={failed ? t('admin:trust.loadFailed') : undefined}
        empty={<Alert type="info">{t('admin:trust.empty')}</Alert>}
      />
      <ConfirmDialog request={confirming} onClose={() => setConfirming(null)} onDone={() => undefined} />
    </div>
  );
}
