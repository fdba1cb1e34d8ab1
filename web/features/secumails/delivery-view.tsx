import {
  Badge,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStaticStyles,
  makeStyles,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import type { ActivityEntry, DeliveryDetail, ReviewState } from '@shared/contract/deliveries';
import { Alert } from '@web/components/alert';
import { ContactKeyBadge } from '@web/components/contact-key-badge';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { MessageBody } from '@web/components/message-body';
import { mediaQueryBelow } from '@shared/theme/constants';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { partnerHost } from '@web/lib/partner-host';
import { formatSize, isExpired, TIME_STATE_COLOR, timeStateKey } from './delivery-format';
import { SubjectText } from './e2e-subjects';
import { isE2eDelivery } from './e2e-panel';
import { ScanStateBadge } from './scan-outcome';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/** Print view: only the delivery, no chrome and no buttons. */
const usePrintStyles = makeStaticStyles('@media print { header, nav, [data-no-print] { display: none !important; } }');

const useStyles = makeStyles({
  subject: { margin: '0 0 12px', overflowWrap: 'anywhere', unicodeBidi: 'plaintext' },
  // Term and value side by side; on a phone the value goes under its term.
  meta: {
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    gap: '4px 16px',
    margin: '0 0 16px',
    [mediaQueryBelow('sm')]: { gridTemplateColumns: 'minmax(0, 1fr)', gap: '0' },
  },
  term: { fontWeight: tokens.fontWeightSemibold, [mediaQueryBelow('sm')]: { marginTop: '8px' } },
  dd: { margin: 0, overflowWrap: 'anywhere' },
  section: { margin: '16px 0' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: '8px', margin: '0 0 16px' },
  list: { listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: '8px' },
  file: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
  fileName: { overflowWrap: 'anywhere', minWidth: 0 },
});

/** The review alert (SPEC §4) of each state that holds the attachments back. */
const REVIEW_ALERT: Partial<Record<ReviewState, { type: 'info' | 'error'; key: string }>> = {
  inProgress: { type: 'info', key: 'deliveries:alerts.reviewInProgress' },
  blockedVirus: { type: 'error', key: 'deliveries:alerts.blockedVirus' },
  blockedMime: { type: 'error', key: 'deliveries:alerts.blockedMime' },
  blockedReviewerFailed: { type: 'error', key: 'deliveries:alerts.blockedScanFailed' },
  blockedOther: { type: 'error', key: 'deliveries:messages.downloadBlocked' },
};

const useDateFormat = () => {
  const { i18n } = useTranslation();
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
};

/** One delivery (SPEC §2): meta data, message, files with download links; actions above. */
export function DeliveryView({
  delivery,
  token,
  actions,
  onDownload,
  children,
}: {
  delivery: DeliveryDetail;
  token?: string | null;
  actions?: ReactNode;
  onDownload?: (fileName: string) => void;
  children?: ReactNode;
}) {
  usePrintStyles();
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const dateFormat = useDateFormat();
  const expired = isExpired(delivery.timeState) || delivery.status === 'deleted';
  const mainRecipients = delivery.recipients.filter((r) => r.kind === 'recipient').map((r) => r.email);
  const additional = delivery.recipients.filter((r) => r.kind === 'additional').map((r) => r.email);
  const review = REVIEW_ALERT[delivery.reviewState];

  return (
    <article aria-labelledby="delivery-subject">
      <h2 id="delivery-subject" className={styles.subject} dir="auto">
        <SubjectText delivery={delivery} />
      </h2>
      {expired ? <Alert type="warning" title={t('deliveries:alerts.expiredTitle')}>{t('deliveries:alerts.expiredText')}</Alert> : null}
      {delivery.timeState === 'expiringSoon' && delivery.expiresAt ? (
        <Alert type="info">{t('deliveries:alerts.expiringSoon', { date: dateFormat.format(delivery.expiresAt) })}</Alert>
      ) : null}
      {review ? (
        <Alert type={review.type}>
          {t(review.key)}
        </Alert>
      ) : null}
      {actions ? (
        <div className={styles.actions} data-no-print>
          {actions}
        </div>
      ) : null}
      <dl className={styles.meta}>
        <dt className={styles.term}>{t('deliveries:fields.sender')}</dt>
        <dd className={styles.dd}>
          {delivery.fromForm ? t('deliveries:e2e.formSigner', { name: delivery.fromForm.name }) : delivery.sender.name ? `${delivery.sender.name} <${delivery.sender.email}>` : delivery.sender.email}
        </dd>
        <dt className={styles.term}>{t('deliveries:fields.recipients')}</dt>
        <dd className={styles.dd}>{mainRecipients.join(', ') || '—'}</dd>
        {additional.length > 0 ? (
          <>
            <dt className={styles.term}>{t('deliveries:fields.additionalRecipients')}</dt>
            <dd className={styles.dd}>{additional.join(', ')}</dd>
          </>
        ) : null}
        <dt className={styles.term}>{t('deliveries:fields.sentAt')}</dt>
        <dd className={styles.dd}>{delivery.sentAt ? dateFormat.format(delivery.sentAt) : '—'}</dd>
        <dt className={styles.term}>{t('deliveries:fields.expiresAt')}</dt>
        <dd className={styles.dd}>
          {delivery.expiresAt ? dateFormat.format(delivery.expiresAt) : t('deliveries:timeState.permanent')}{' '}
          <Badge appearance="tint" color={TIME_STATE_COLOR[delivery.timeState]}>
            {t(timeStateKey(delivery.timeState))}
          </Badge>
        </dd>
      </dl>
      {delivery.body ? (
        <section className={styles.section} aria-label={t('deliveries:fields.body')}>
          <MessageBody>{delivery.body}</MessageBody>
        </section>
      ) : null}
      {/* Levels 3/4: the server's file list (ciphertext sizes, unsigned names) is not shown; the E2E panel lists the signed one. */}
      {/* A message-only delivery has no file section at all (not "0 files"). */}
      {isE2eDelivery(delivery) || delivery.files.length === 0 ? null : (
        <section className={styles.section} aria-labelledby="delivery-files">
          <Subtitle2 as="h3" id="delivery-files">
            {t('deliveries:fields.filesTitle', { count: delivery.files.length })}
          </Subtitle2>
          <ul className={styles.list}>
            {delivery.files.map((file) => (
              <li key={file.fileId} className={styles.file}>
                <span className={styles.fileName}>{file.name}</span>
                <Caption1>{formatSize(file.size, i18n.language)}</Caption1>
                <ScanStateBadge file={file} />
                {/* E2E files are downloaded decrypted through the E2E panel, never as ciphertext. */}
                {expired || file.status !== 'committed' || file.encrypted ? null : review ? (
                  // Being checked or blocked: the button stays, disabled, so the reason (the alert above) is clear.
                  <Button data-no-print appearance="primary" icon={<ArrowDownloadRegular />} disabled aria-label={t('deliveries:actions.downloadFile', { name: file.name })}>
                    {t('deliveries:actions.download')}
                  </Button>
                ) : (
                  <Button
                    as="a"
                    data-no-print
                    appearance="primary"
                    icon={<ArrowDownloadRegular />}
                    href={deliveryContentUrl(delivery.deliveryUuid, file.fileId, token)}
                    download={file.name}
                    aria-label={t('deliveries:actions.downloadFile', { name: file.name })}
                    onClick={() => onDownload?.(file.name)}
                  >
                    {t('deliveries:actions.download')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {children}
    </article>
  );
}

/** Review states the server writes into a `reviewBlocked` entry's detail (`<state>: <reason>`). */
const BLOCKED_STATES = new Set(['blockedVirus', 'blockedMime', 'blockedReviewerFailed', 'blockedOther']);

/**
 * The detail column: file names and addresses as they are; the server's codes in it (`releaseNeeded`
 * of an invitation, the review state of `reviewBlocked`) become texts — never a raw code.
 */
export function activityDetail(entry: ActivityEntry, t: TFunction): string {
  const detail = entry.detail;
  if (detail === null || detail === '') return '—';
  if (entry.kind === 'notified' && detail === 'releaseNeeded') return t('deliveries:activity.details.releaseNeeded');
  if (entry.kind === 'reviewBlocked') {
    const split = detail.indexOf(': ');
    const state = split < 0 ? detail : detail.slice(0, split);
    if (BLOCKED_STATES.has(state)) {
      const stateText = t(`deliveries:reviewState.${state}`);
      return split < 0 ? stateText : t('deliveries:activity.details.reviewBlocked', { state: stateText, reason: detail.slice(split + 2) });
    }
  }
  return detail;
}

/** Activity log (oldest first). */
export function ActivityLog({ entries }: { entries: readonly ActivityEntry[] }) {
  useEffect(() => track(ANALYTICS_ACTIONS.activityLogOpened), []);
  const { t } = useTranslation();
  const dateFormat = useDateFormat();
  const columns: DataTableColumn<ActivityEntry>[] = [
    { id: 'at', header: t('deliveries:activity.at'), cell: (entry) => dateFormat.format(entry.at) },
    { id: 'event', header: t('deliveries:activity.event'), cell: (entry) => t(`deliveries:activity.kind.${entry.kind}`) },
    { id: 'actor', header: t('deliveries:activity.actor'), cell: (entry) => entry.actor ?? '—' },
    { id: 'detail', header: t('deliveries:activity.detail'), cell: (entry) => activityDetail(entry, t) },
  ];
  return (
    <section aria-labelledby="delivery-activity" style={{ margin: '16px 0' }}>
      <Subtitle2 as="h3" id="delivery-activity">
        {t('deliveries:activity.title')}
      </Subtitle2>
      <DataTable
        labelledBy="delivery-activity"
        size="small"
        columns={columns}
        rows={entries}
        rowKey={(entry, index) => `${entry.at}-${index}`}
      />
    </section>
  );
}

/** Per-recipient state for the sender: downloaded (with date) or not yet; a partner server's part. */
export function RecipientStates({ delivery }: { delivery: DeliveryDetail }) {
  const { t } = useTranslation();
  const dateFormat = useDateFormat();
  const columns: DataTableColumn<DeliveryDetail['recipients'][number]>[] = [
    { id: 'email', header: t('deliveries:recipients.email'), cell: (recipient) => recipient.email },
    {
      id: 'downloaded',
      header: t('deliveries:recipients.downloaded'),
      cell: (recipient) =>
        recipient.downloadedAt ? t('deliveries:recipients.downloadedAt', { date: dateFormat.format(recipient.downloadedAt) }) : t('deliveries:recipients.notYet'),
    },
    { id: 'notified', header: t('deliveries:recipients.notified'), cell: (recipient) => (recipient.notifiedAt ? dateFormat.format(recipient.notifiedAt) : '—') },
  ];
  // Addresses a trust-network partner serves: its own server delivers and mails them (issue 30 §2).
  if (delivery.recipients.some((r) => r.partnerServer)) {
    columns.push({
      id: 'partnerServer',
      header: t('deliveries:recipients.partnerServer'),
      cell: (r) => (r.partnerServer ? t(`deliveries:recipients.partner.${r.partnerServer.state}`, { server: partnerHost(r.partnerServer.url) }) : '—'),
    });
  }
  // Levels 3/4: whether the key this browser's user pinned for each registered recipient is verified (issue 12 §4).
  if (delivery.recipients.some((r) => r.userUuid)) {
    columns.push({ id: 'key', header: t('deliveries:recipients.key'), cell: (r) => (r.userUuid ? <ContactKeyBadge userUuid={r.userUuid} offerUnlock verify={{ email: r.email }} /> : '—') });
  }
  return (
    <section aria-labelledby="delivery-recipient-states" style={{ margin: '16px 0' }}>
      <Subtitle2 as="h3" id="delivery-recipient-states">
        {t('deliveries:recipients.title')}
      </Subtitle2>
      <DataTable labelledBy="delivery-recipient-states" size="small" columns={columns} rows={delivery.recipients} rowKey={(recipient) => recipient.shareUuid} />
    </section>
  );
}

/**
 * Delete with a confirmation dialog; `forEveryone` for the sender. `onConfirm` deletes; `onDeleted`
 * (e.g. leaving the page) runs only after the dialog was closed through `open`: a Fluent dialog
 * unmounted while open can leave the page aria-hidden.
 */
export function DeleteDeliveryButton({ forEveryone, onConfirm, onDeleted }: { forEveryone: boolean; onConfirm: () => Promise<void>; onDeleted: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [deleted, setDeleted] = useState(false);
  const announced = useRef(false);
  // Once, after the commit that closed the dialog.
  useEffect(() => {
    if (!deleted || open || announced.current) return;
    announced.current = true;
    onDeleted();
  }, [deleted, open, onDeleted]);
  const label = forEveryone ? t('deliveries:actions.deleteForEveryone') : t('deliveries:actions.delete');
  return (
    <Dialog open={open} onOpenChange={(_, data) => setOpen(data.open)}>
      <Button onClick={() => setOpen(true)}>{label}</Button>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('deliveries:delete.title')}</DialogTitle>
          <DialogContent>
            {failed ? <Alert type="error">{t('deliveries:messages.deleteFailed')}</Alert> : null}
            {forEveryone ? t('deliveries:delete.textForEveryone') : t('deliveries:delete.text')}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={() => setOpen(false)}>
              {t('common:actions.cancel')}
            </Button>
            <Button
              appearance="primary"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                setFailed(false);
                onConfirm()
                  .then(() => {
                    setOpen(false);
                    setDeleted(true);
                  })
                  .catch(() => setFailed(true))
                  .finally(() => setBusy(false));
              }}
            >
              {t('deliveries:delete.confirm')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
