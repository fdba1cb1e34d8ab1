import { Body1, Button, Caption1, makeStyles, ProgressBar, Subtitle2, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular, LockOpenRegular } from '@fluentui/react-icons';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import type { DeliveryDetail } from '@shared/contract/deliveries';
import { downloadE2eFile, openE2eDelivery, type E2eDownloadState, type OpenedE2eDelivery } from '@shared/transfer/e2e';
import { Alert } from '@web/components/alert';
import { RouterLink } from '@web/components/router-link';
import { apiClient } from '@web/lib/api-client';
import { cryptoApi } from '@web/lib/crypto';
import { ROUTES } from '@web/lib/routes';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from './delivery-format';

const useStyles = makeStyles({
  list: { listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: '12px' },
  file: { display: 'grid', gap: '4px' },
  row: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
  body: { whiteSpace: 'pre-wrap', margin: '0 0 16px', padding: '12px', backgroundColor: tokens.colorNeutralBackground2, borderRadius: tokens.borderRadiusMedium },
  section: { margin: '16px 0' },
});

export const isE2eDelivery = (delivery: Pick<DeliveryDetail, 'securityLevel'>) => delivery.securityLevel >= 20;

/** Recipient alerts of SPEC §2: create a passphrase first, or wait for the sender's release. */
export function E2eAccessAlerts({ delivery }: { delivery: DeliveryDetail }) {
  const { t } = useTranslation();
  if (delivery.e2eAccess === 'passphraseNeeded') {
    return (
      <Alert type="warning" title={t('deliveries:e2e.passphraseNeededTitle')} action={<RouterLink to={ROUTES.setSecuPass}>{t('deliveries:e2e.createPassphrase')}</RouterLink>}>
        {t('deliveries:e2e.passphraseNeededText')}
      </Alert>
    );
  }
  if (delivery.e2eAccess === 'releasePending') {
    return (
      <Alert type="info" title={t('deliveries:e2e.releasePendingTitle')}>
        {t('deliveries:e2e.releasePendingText')}
      </Alert>
    );
  }
  return null;
}

/** Sender alert of SPEC §2: some recipients wait for a release. */
export function ReleaseRequiredAlert({ delivery }: { delivery: DeliveryDetail }) {
  const { t } = useTranslation();
  const waiting = delivery.recipients.filter((r) => r.releasePending).map((r) => r.email);
  if (waiting.length === 0) return null;
  return (
    <Alert type="warning" title={t('deliveries:e2e.releaseRequiredTitle')} action={<RouterLink to={ROUTES.release}>{t('deliveries:e2e.openRelease')}</RouterLink>}>
      {t('deliveries:e2e.releaseRequiredText', { recipients: waiting.join(', ') })}
    </Alert>
  );
}

type FileState = { state: E2eDownloadState; bytes: number; total: number };

/** Saves a Blob under a name (in-memory fallback download, see shared/transfer/README.md). */
function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Levels 3/4 in a delivery view: unlock (SecuPass dialog) → decrypt the keys and the signed
 * manifest → the verified file list (and the level-4 message) → download with progress
 * (SPEC §4 download states: pending, decrypting key, decrypting file, success, failed).
 */
export function E2eDeliveryPanel({ delivery, onDownloaded }: { delivery: DeliveryDetail; onDownloaded?: () => void }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const unlockedKeys = useUnlockedKeys();
  const [opened, setOpened] = useState<OpenedE2eDelivery | null>(null);
  const [phase, setPhase] = useState<'locked' | 'decryptingKey' | 'open' | 'failed'>('locked');
  const [files, setFiles] = useState<Record<string, FileState>>({});
  const [failure, setFailure] = useState<'download' | 'fileDecryption' | null>(null);
  const openedRef = useRef<OpenedE2eDelivery | null>(null);
  useEffect(
    () => () => {
      void openedRef.current?.close();
    },
    [],
  );

  const readable = delivery.viewer === 'sender' || delivery.e2eAccess === 'ok';
  if (!readable) return null;

  async function open() {
    const keys = await unlockedKeys();
    if (!keys) return;
    setPhase('decryptingKey');
    try {
      const result = await openE2eDelivery({ client: apiClient, deliveryUuid: delivery.deliveryUuid, e2e: { crypto: cryptoApi, keys } });
      openedRef.current = result;
      setOpened(result);
      setPhase('open');
    } catch (error) {
      console.debug('[e2e] opening failed', error);
      setPhase('failed');
    }
  }

  async function download(fileId: string, name: string) {
    if (!opened) return;
    setFailure(null);
    try {
      const blob = await downloadE2eFile({
        delivery: opened,
        fileId,
        crypto: cryptoApi,
        url: deliveryContentUrl(delivery.deliveryUuid, fileId),
        onProgress: (p) => setFiles((prev) => ({ ...prev, [fileId]: { state: p.state, bytes: p.bytes, total: p.totalBytes } })),
      });
      saveBlob(blob, name);
      onDownloaded?.();
    } catch (error) {
      setFailure((error as { kind?: string }).kind === 'fileDecryption' ? 'fileDecryption' : 'download');
    }
  }

  return (
    <section className={styles.section} aria-labelledby="e2e-files">
      <Subtitle2 as="h3" id="e2e-files">
        {t('deliveries:e2e.title')}
      </Subtitle2>
      {phase === 'locked' || phase === 'decryptingKey' ? (
        <p>
          <Button appearance="primary" icon={<LockOpenRegular />} disabled={phase === 'decryptingKey'} onClick={() => void open()}>
            {phase === 'decryptingKey' ? t('deliveries:e2e.state.decryptingKey') : t('deliveries:e2e.unlock')}
          </Button>
        </p>
      ) : null}
      {phase === 'failed' ? <Alert type="error">{t('deliveries:e2e.keyDecryptionFailed')}</Alert> : null}
      {failure ? <Alert type="error">{t(failure === 'fileDecryption' ? 'deliveries:e2e.fileDecryptionFailed' : 'deliveries:messages.downloadError')}</Alert> : null}
      {opened ? (
        <>
          {opened.message ? (
            <section aria-label={t('deliveries:fields.body')}>
              <Subtitle2 as="h4">{opened.message.subject}</Subtitle2>
              <Body1 as="p" className={styles.body}>
                {opened.message.body}
              </Body1>
            </section>
          ) : null}
          <ul className={styles.list}>
            {opened.files.map((file) => {
              const progress = files[file.fileId];
              const busy = progress !== undefined && progress.state !== 'success' && progress.state !== 'failed';
              return (
                <li key={file.fileId} className={styles.file}>
                  <div className={styles.row}>
                    <span>{file.name}</span>
                    <Caption1>{formatSize(file.size, i18n.language)}</Caption1>
                    <Button
                      appearance="primary"
                      icon={<ArrowDownloadRegular />}
                      disabled={busy}
                      aria-label={t('deliveries:actions.downloadFile', { name: file.name })}
                      onClick={() => void download(file.fileId, file.name)}
                    >
                      {t('deliveries:actions.download')}
                    </Button>
                    {progress ? <Caption1 role="status">{t(`deliveries:e2e.state.${progress.state}`)}</Caption1> : null}
                  </div>
                  {busy && progress.total > 0 ? (
                    <ProgressBar value={Math.min(1, progress.bytes / progress.total)} aria-label={t('deliveries:e2e.progress', { name: file.name })} />
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
    </section>
  );
}
