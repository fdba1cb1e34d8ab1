import { Badge, makeStyles, Spinner } from '@fluentui/react-components';
import type { DeliveryFile, ReviewState, ScanState } from '@shared/contract/deliveries';
import { Alert } from '@web/components/alert';
import { useTranslation } from 'react-i18next';
import { useDelivery } from './api/delivery';

const useStyles = makeStyles({
  files: { listStyle: 'none', margin: '8px 0 0', padding: 0, display: 'flex', flexDirection: 'column', gap: '4px' },
});

/** Badge colour of a file's SPEC §4 scan state; none for the states that say nothing (not scanned, clean). */
const SCAN_BADGE: Partial<Record<ScanState, 'informative' | 'danger'>> = {
  scanning: 'informative',
  virusDetected: 'danger',
  error: 'danger',
};

/** A file's scan state as a badge, where there is one to tell (scanning, virus found, scan failed). */
export function ScanStateBadge({ file }: { file: Pick<DeliveryFile, 'scanState'> }) {
  const { t } = useTranslation();
  const color = SCAN_BADGE[file.scanState];
  return color ? (
    <Badge appearance="tint" color={color}>
      {t(`deliveries:scanState.${file.scanState}`)}
    </Badge>
  ) : null;
}

/** What the sender is told once the scan decided (SPEC §4 review states). */
const OUTCOME: Partial<Record<ReviewState, { type: 'success' | 'error'; key: string }>> = {
  clean: { type: 'success', key: 'send:scan.clean' },
  blockedVirus: { type: 'error', key: 'send:scan.blockedVirus' },
  blockedMime: { type: 'error', key: 'send:scan.blockedMime' },
  blockedReviewerFailed: { type: 'error', key: 'send:scan.blockedScanFailed' },
  blockedOther: { type: 'error', key: 'send:scan.blockedOther' },
};

/**
 * After a level 1/2 send with a scanner configured: the upload state "scanning for viruses" per
 * file until the server decided, then the outcome. The recipients are mailed only after a clean
 * scan (server/virus-scan/scan-job.ts); useDelivery polls while the review is in progress.
 */
export function ScanOutcome({ deliveryUuid }: { deliveryUuid: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const { data: delivery, error } = useDelivery(deliveryUuid);
  if (error) return <Alert type="warning">{t('send:scan.unknown')}</Alert>;
  const outcome = delivery ? OUTCOME[delivery.reviewState] : undefined;
  const files = delivery ? (
    <ul className={styles.files}>
      {delivery.files.map((file) => (
        <li key={file.fileId}>
          {t('send:transfers.item', { name: file.name, state: t(`deliveries:scanState.${file.scanState}`) })}
        </li>
      ))}
    </ul>
  ) : null;
  if (!outcome) {
    return (
      <Alert type="info" title={t('send:scan.inProgressTitle')}>
        <Spinner size="tiny" label={t('send:scan.inProgress')} />
        {files}
      </Alert>
    );
  }
  return (
    <Alert type={outcome.type} title={outcome.type === 'error' ? t('send:scan.blockedTitle') : undefined}>
      {t(outcome.key)}
      {outcome.type === 'error' ? files : null}
    </Alert>
  );
}
