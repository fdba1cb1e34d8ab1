import { Button } from '@fluentui/react-components';
import { LockOpenRegular } from '@fluentui/react-icons';
import { getReleaseList } from '@shared/api/endpoints/delivery-e2e';
import { releaseToRecipient, type ReleaseItem } from '@shared/transfer/e2e';
import { Alert } from '@web/components/alert';
import { useChangedKeyConfirm } from '@web/components/changed-key-dialog';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { apiClient } from '@web/lib/api-client';
import { cryptoApi } from '@web/lib/crypto';
import { partnerHost } from '@web/lib/partner-host';
import { displayFingerprint } from '@web/lib/fingerprint';
import { ROUTES } from '@web/lib/routes';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useState } from 'react';
import { RevealSubjectButton, SubjectText } from './e2e-subjects';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import useSWR from 'swr';

const RELEASE_KEY = 'deliveries/release';

const encryptionFingerprint = (item: ReleaseItem) => item.recipient.keys.find((k) => k.usage === 'encryption')?.fingerprint ?? '';

/**
 * Release deliveries (SPEC §2, §4): recipients who set a passphrase after the delivery was sent
 * wait here. The sender checks each new key's fingerprint, enters the passphrase, and every key
 * is re-wrapped to the recipients (shared/transfer `releaseToRecipient`); a key that differs
 * from an earlier pinned one needs an explicit confirmation.
 */
export function ReleasePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const unlockedKeys = useUnlockedKeys('release');
  const { data, error, isLoading, mutate } = useSWR(RELEASE_KEY, () => getReleaseList(apiClient), { revalidateOnFocus: false });
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string[]>([]);
  const { confirmChangedKey, dialog: changedKeyDialog } = useChangedKeyConfirm(t('release:changedConfirm'));

  async function releaseAll(items: readonly ReleaseItem[]) {
    const keys = await unlockedKeys();
    if (!keys) return;
    setBusy(true);
    setFailed([]);
    const failures: string[] = [];
    for (const item of items) {
      try {
        await releaseToRecipient({ client: apiClient, item, e2e: { crypto: cryptoApi, keys, confirmChangedKey } });
      } catch (err) {
        console.debug('[release] failed', err);
        failures.push(item.recipient.email);
      }
    }
    setBusy(false);
    await mutate();
    if (failures.length === 0) await navigate(ROUTES.releaseSuccess);
    else setFailed(failures);
  }

  const items = data?.items ?? [];
  const columns: DataTableColumn<ReleaseItem>[] = [
    {
      id: 'delivery',
      header: t('release:delivery'),
      cell: (item) => (
        <>
          <SubjectText delivery={item} /> <RevealSubjectButton delivery={item} />
        </>
      ),
    },
    {
      id: 'recipient',
      header: t('release:recipient'),
      cell: (item) =>
        item.recipient.partnerServer ? (
          <>
            {item.recipient.email} <span data-testid="release-partner-server">{t('release:viaPartner', { server: partnerHost(item.recipient.partnerServer) })}</span>
          </>
        ) : (
          item.recipient.email
        ),
    },
    { id: 'fingerprint', header: t('release:fingerprint'), cell: (item) => <code>{displayFingerprint(encryptionFingerprint(item))}</code> },
  ];
  return (
    <>
      <PageHeading focusOnMount>{t('release:title')}</PageHeading>
      <p>{t('release:intro')}</p>
      {failed.length > 0 ? <Alert type="error">{t('release:failed', { recipients: failed.join(', ') })}</Alert> : null}
      <DataTable
        label={t('release:tableLabel')}
        columns={columns}
        rows={data?.items}
        rowKey={(item) => `${item.deliveryUuid}-${item.recipient.userUuid}`}
        loading={isLoading}
        {...(error ? { error: t('release:loadError') } : {})}
        empty={
          <Alert type="info" title={t('release:emptyTitle')}>
            {t('release:emptyText')}
          </Alert>
        }
      />
      {items.length > 0 ? (
        <>
          <p>{t('release:compareHint')}</p>
          <Button appearance="primary" icon={<LockOpenRegular />} disabled={busy} onClick={() => void releaseAll(items)}>
            {busy ? t('release:releasing') : t('release:submit')}
          </Button>
        </>
      ) : null}
      {changedKeyDialog}
    </>
  );
}

/** Release success (SPEC §2): the recipients were mailed; Continue goes to the inbox. */
export function ReleaseSuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <PageHeading focusOnMount>{t('release:successTitle')}</PageHeading>
      <Alert type="success">{t('release:successText')}</Alert>
      <p>
        <Button appearance="primary" onClick={() => void navigate(ROUTES.inbox)}>
          {t('release:continue')}
        </Button>
      </p>
    </>
  );
}
