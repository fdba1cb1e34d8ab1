import { Badge, Button, Caption1, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular, LockOpenRegular } from '@fluentui/react-icons';
import type { DeliveryDetail } from '@shared/contract/deliveries';
import { isE2eLevel } from '@shared/contract/security-levels';
import { ContactKeyChangedError } from '@shared/crypto/errors';
import { markContactVerified, openE2eDelivery, type OpenedE2eDelivery } from '@shared/transfer/e2e';
import { Alert } from '@web/components/alert';
import { MessageBody } from '@web/components/message-body';
import { useChangedKeyConfirm } from '@web/components/changed-key-dialog';
import { VerifyContactButton } from '@web/components/verify-contact-dialog';
import { RouterLink } from '@web/components/router-link';
import { TransferProgressBar } from '@web/components/transfer-centre';
import { apiClient } from '@web/lib/api-client';
import { cryptoApi, useSecuPassSession } from '@web/lib/crypto';
import { startE2eDownload } from '@web/lib/e2e-download';
import { ROUTES } from '@web/lib/routes';
import { isActive, useTransfers, type Transfer } from '@web/lib/transfer-store';
import { displayFingerprint } from '@web/lib/fingerprint';
import { useNotify } from '@web/lib/toasts';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { formatSize } from './delivery-format';
import { rememberE2eSubject } from './e2e-subjects';
import { FormValuesSection } from './form-values';

const useStyles = makeStyles({
  list: { listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: '12px' },
  file: { display: 'grid', gap: '4px' },
  row: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
  subject: { display: 'block', margin: '8px 0', overflowWrap: 'anywhere', unicodeBidi: 'plaintext' },
  section: { margin: '16px 0' },
  alertText: { display: 'block', marginBottom: '8px' },
  signer: { display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '4px 12px', margin: '0 0 12px' },
  fingerprint: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-word' },
});

export const isE2eDelivery = (delivery: Pick<DeliveryDetail, 'securityLevel'>) => isE2eLevel(delivery.securityLevel);

/** Recipient alerts of SPEC §2: create a passphrase first, or wait for the sender's release. */
export function E2eAccessAlerts({ delivery }: { delivery: DeliveryDetail }) {
  const { t } = useTranslation();
  const location = useLocation();
  if (delivery.e2eAccess === 'passphraseNeeded') {
    // Create it (invitation variant), then the approval-pending screen, which leads back here.
    const create = `${ROUTES.createSecuPass}?continue=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
    return (
      <Alert type="warning" title={t('deliveries:e2e.passphraseNeededTitle')} action={<RouterLink to={create}>{t('deliveries:e2e.createPassphrase')}</RouterLink>}>
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

/**
 * Levels 3/4 in a delivery view: unlock (SecuPass dialog) → decrypt the keys and the signed
 * manifest → the verified file list (and the level-4 message) → download with progress
 * (SPEC §4 download states). Each download is a transfer of kind `download` in the transfer
 * centre (web/lib/e2e-download.ts), so it goes on when the user leaves this view; the key handles
 * are released once this view is gone and no download of it still runs.
 */
export function E2eDeliveryPanel({ delivery, onDownloaded }: { delivery: DeliveryDetail; onDownloaded?: () => void }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const unlockedKeys = useUnlockedKeys('decrypt');
  const [opened, setOpened] = useState<OpenedE2eDelivery | null>(null);
  const [phase, setPhase] = useState<'locked' | 'decryptingKey' | 'open' | 'failed' | 'keyChanged'>('locked');
  const [keyChange, setKeyChange] = useState<ContactKeyChangedError['change'] | null>(null);
  // The sender's signing key differs from the pinned one: the same comparison dialog as the sender's side.
  const { confirmChangedKey, dialog: changedKeyDialog } = useChangedKeyConfirm(t('deliveries:changedKey.confirmOpen'));
  // fileId → the transfer downloading it (the latest one).
  const [transferIds, setTransferIds] = useState<Record<string, string>>({});
  // fileId → the save dialog came back without a file (closed, or none in this browser).
  const [noFileChosen, setNoFileChosen] = useState<Record<string, boolean>>({});
  const transfers = useTransfers();
  const openedRef = useRef<OpenedE2eDelivery | null>(null);
  const running = useRef(new Set<Promise<unknown>>());
  const unmounted = useRef(false);
  useEffect(
    () => () => {
      unmounted.current = true;
      // Running downloads still need the file keys; the last one to finish releases them.
      if (running.current.size === 0) void openedRef.current?.close();
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
      const result = await openE2eDelivery({ client: apiClient, deliveryUuid: delivery.deliveryUuid, e2e: { crypto: cryptoApi, keys, confirmChangedKey } });
      openedRef.current = result;
      if (result.message) rememberE2eSubject(delivery.deliveryUuid, result.message.subject);
      setOpened(result);
      setPhase('open');
    } catch (error) {
      console.debug('[e2e] opening failed', error);
      if (error instanceof ContactKeyChangedError && error.change) {
        setKeyChange(error.change);
        setPhase('keyChanged');
      } else setPhase('failed');
    }
  }

  async function download(fileId: string, avoidPicker = false) {
    if (!opened) return;
    setNoFileChosen((prev) => ({ ...prev, [fileId]: false }));
    const started = await startE2eDownload({ delivery: opened, fileId, onSuccess: onDownloaded, avoidPicker });
    if (started === 'noFileChosen') {
      setNoFileChosen((prev) => ({ ...prev, [fileId]: true }));
      return;
    }
    if (!started) return;
    setTransferIds((prev) => ({ ...prev, [fileId]: started.id }));
    const done = started.done.finally(() => {
      running.current.delete(done);
      if (unmounted.current && running.current.size === 0) void openedRef.current?.close();
    });
    running.current.add(done);
  }

  return (
    <section className={styles.section} aria-labelledby="e2e-files">
      <Subtitle2 as="h3" id="e2e-files">
        {t('deliveries:e2e.title')}
      </Subtitle2>
      {changedKeyDialog}
      {phase === 'locked' || phase === 'decryptingKey' || phase === 'keyChanged' ? (
        <p>
          <Button appearance="primary" icon={<LockOpenRegular />} disabled={phase === 'decryptingKey'} onClick={() => void open()}>
            {phase === 'decryptingKey' ? t('deliveries:e2e.state.decryptingKey') : t('deliveries:e2e.unlock')}
          </Button>
        </p>
      ) : null}
      {phase === 'failed' ? <Alert type="error">{t('deliveries:e2e.keyDecryptionFailed')}</Alert> : null}
      {phase === 'keyChanged' && keyChange ? (
        <Alert type="error" title={t('deliveries:e2e.senderKeyChangedTitle')}>
          {t('deliveries:e2e.senderKeyChangedText', { email: keyChange.email })}
          <dl className={styles.signer}>
            <dt>{t('deliveries:changedKey.old')}</dt>
            <dd className={styles.fingerprint} data-testid="reader-key-old">
              {displayFingerprint(keyChange.pinnedFingerprint)}
            </dd>
            <dt>{t('deliveries:changedKey.new')}</dt>
            <dd className={styles.fingerprint} data-testid="reader-key-new">
              {displayFingerprint(keyChange.presentedFingerprint)}
            </dd>
          </dl>
        </Alert>
      ) : null}
      {opened ? (
        <>
          <SignerDetails
            opened={opened}
            serverSenderEmail={delivery.sender.email}
            fromForm={delivery.fromForm}
            onVerified={() => {
              const next = { ...opened, signer: { ...opened.signer, verified: true } };
              openedRef.current = next;
              setOpened(next);
            }}
          />
          {opened.message ? (
            <section aria-label={t('deliveries:fields.body')}>
              <Subtitle2 as="h4" className={styles.subject} dir="auto">
                {opened.message.subject}
              </Subtitle2>
              <MessageBody>{opened.message.body}</MessageBody>
            </section>
          ) : null}
          <FormValuesSection opened={opened} deliveryUuid={delivery.deliveryUuid} />
          <ul className={styles.list}>
            {opened.files.map((file) => {
              const transfer = transfers.find((x) => x.id === transferIds[file.fileId]);
              const busy = transfer !== undefined && isActive(transfer);
              const item = transfer?.items[0];
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
                      onClick={() => void download(file.fileId)}
                    >
                      {t('deliveries:actions.download')}
                    </Button>
                    {transfer && !noFileChosen[file.fileId] ? <Caption1 role="status">{t(`deliveries:e2e.state.${panelState(transfer)}`)}</Caption1> : null}
                  </div>
                  {busy && item && item.totalBytes > 0 ? (
                    <TransferProgressBar value={Math.min(1, item.bytesDone / item.totalBytes)} aria-label={t('deliveries:e2e.progress', { name: file.name })} />
                  ) : null}
                  {transfer?.state === 'failed' && transfer.failure ? <Alert type="error">{t(transfer.failure.key, transfer.failure.values)}</Alert> : null}
                  {noFileChosen[file.fileId] ? (
                    <Alert type="info">
                      <span className={styles.alertText}>{t('deliveries:e2e.noFileChosen', { name: file.name })}</span>
                      <Button size="small" icon={<ArrowDownloadRegular />} onClick={() => void download(file.fileId, true)}>
                        {t('deliveries:e2e.browserDownload')}
                      </Button>
                    </Alert>
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

/**
 * The address of a level 3/4 form submission's own account (server forms/e2e.ts:
 * `<local>+form-<12 hex>@<domain>`). The server's `fromForm` alone does not turn the "Not yet
 * verified" mark off: the signed address must have that shape too, so a server cannot pass a
 * person's delivery off as a form's.
 */
const FORM_SUBMITTER_ADDRESS = /\+form-[0-9a-f]{12}@[^@]+$/i;

/**
 * Who signed the delivery, as verified: the signed address (manifest v2), the key's fingerprint,
 * whether the key is retired; a warning when the server names the sender differently. A web
 * form's submission (issue 33 §2) is signed by a key made in the visitor's browser for that one
 * submission: it names the form and says why that key cannot be verified like a person's.
 */
function SignerDetails({ opened, serverSenderEmail, fromForm, onVerified }: { opened: OpenedE2eDelivery; serverSenderEmail: string; fromForm: { name: string } | undefined; onVerified: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const session = useSecuPassSession();
  const { signer } = opened;
  const serverEmail = opened.identityMismatch?.serverEmail ?? (serverSenderEmail.toLowerCase() !== signer.email.toLowerCase() ? serverSenderEmail : undefined);
  if (fromForm && !signer.own && FORM_SUBMITTER_ADDRESS.test(signer.email) && serverEmail === undefined) {
    return (
      <dl className={styles.signer} aria-label={t('deliveries:e2e.signerTitle')}>
        <dt>{t('deliveries:e2e.signedBy')}</dt>
        <dd data-testid="e2e-signer">
          {t('deliveries:e2e.formSigner', { name: fromForm.name })}{' '}
          <Badge appearance="outline" color="informative" data-testid="signer-verification">
            {t('deliveries:e2e.formSignerBadge')}
          </Badge>
          <Caption1 as="p" className={styles.alertText}>
            {t('deliveries:e2e.formSignerNote')}
          </Caption1>
        </dd>
        <dt>{t('deliveries:e2e.signerFingerprint')}</dt>
        <dd className={styles.fingerprint}>{displayFingerprint(signer.fingerprint)}</dd>
      </dl>
    );
  }
  return (
    <>
      {serverEmail !== undefined && signer.signedIdentity ? (
        <Alert type="warning" title={t('deliveries:e2e.identityMismatchTitle')}>
          {t('deliveries:e2e.identityMismatchText', { signedEmail: signer.email, serverEmail })}
        </Alert>
      ) : null}
      <dl className={styles.signer} aria-label={t('deliveries:e2e.signerTitle')}>
        <dt>{t('deliveries:e2e.signedBy')}</dt>
        <dd data-testid="e2e-signer">
          {signer.email}{' '}
          {signer.own ? null : signer.verified ? (
            <Badge appearance="filled" color="success" data-testid="signer-verification">
              {t('deliveries:verify.verified')}
            </Badge>
          ) : (
            <Badge appearance="outline" color="warning" data-testid="signer-verification">
              {t('deliveries:verify.notVerified')}
            </Badge>
          )}
        </dd>
        <dt>{t('deliveries:e2e.signerFingerprint')}</dt>
        <dd className={styles.fingerprint}>
          {displayFingerprint(signer.fingerprint)}
          {signer.keyRetired ? <Caption1> {t('deliveries:e2e.signerKeyRetired')}</Caption1> : null}
        </dd>
      </dl>
      {!signer.own && !signer.verified && session ? (
        <p>
          <VerifyContactButton
            contact={{ email: signer.email, userUuid: signer.userUuid, usage: 'signing', fingerprint: signer.fingerprint }}
            own={{ usage: 'signing', fingerprint: session.keys.signing.fingerprint, userUuid: session.userUuid }}
            onVerified={async () => {
              const saved = await markContactVerified({
                client: apiClient,
                e2e: { crypto: cryptoApi, keys: session.keys },
                userUuid: signer.userUuid,
                usage: 'signing',
                fingerprint: signer.fingerprint,
              });
              if (!saved) throw new Error('The pin store keeps no verifications');
              notify('success', t('deliveries:verify.done', { email: signer.email }));
              onVerified();
            }}
          />
        </p>
      ) : null}
    </>
  );
}

/** The SPEC §4 download state shown beside a file, from its transfer. */
function panelState(transfer: Transfer): 'pending' | 'decryptingFile' | 'success' | 'failed' | 'cancelled' {
  if (transfer.state === 'running') return transfer.items[0]?.state === 'pending' ? 'pending' : 'decryptingFile';
  // Downloads are never paused (transfer-store `canPause`); the type allows it.
  if (transfer.state === 'paused') return 'pending';
  return transfer.state;
}
