import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, tokens } from '@fluentui/react-components';
import type { ChangedContactKey } from '@shared/transfer/e2e';
import { displayFingerprint } from '@web/lib/fingerprint';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  list: { display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '4px 12px', margin: '12px 0' },
  fingerprint: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-word' },
});

/**
 * DESIGN §3 key pinning: a contact's key that differs from the pinned one is used only after the
 * user compared the fingerprints with the contact and confirmed. Returns the `confirmChangedKey`
 * callback of shared/transfer's `e2e` option and the dialog to render; Cancel (or closing) → false.
 * A recipient's encryption key (sending, releasing) and a sender's signing key (reading) get their own wording.
 */
export function useChangedKeyConfirm(confirmLabel: string): { confirmChangedKey: (change: ChangedContactKey) => Promise<boolean>; dialog: ReactNode } {
  const { t } = useTranslation();
  const styles = useStyles();
  const [changed, setChanged] = useState<ChangedContactKey | null>(null);
  const answer = useRef<((ok: boolean) => void) | null>(null);

  const confirmChangedKey = useCallback(
    (change: ChangedContactKey) =>
      new Promise<boolean>((resolve) => {
        answer.current?.(false);
        answer.current = resolve;
        setChanged(change);
      }),
    [],
  );
  const decide = (ok: boolean) => {
    answer.current?.(ok);
    answer.current = null;
    setChanged(null);
  };

  const dialog = (
    <Dialog open={changed !== null} modalType="alert" onOpenChange={(_e, d) => (d.open ? undefined : decide(false))}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t(changed?.usage === 'signing' ? 'deliveries:changedKey.senderTitle' : 'deliveries:changedKey.title')}</DialogTitle>
          <DialogContent>
            <p>{t(changed?.usage === 'signing' ? 'deliveries:changedKey.senderText' : 'deliveries:changedKey.text', { email: changed?.email ?? '' })}</p>
            <dl className={styles.list}>
              <dt>{t('deliveries:changedKey.old')}</dt>
              <dd className={styles.fingerprint} data-testid="changed-key-old">
                {displayFingerprint(changed?.pinnedFingerprint ?? '')}
              </dd>
              <dt>{t('deliveries:changedKey.new')}</dt>
              <dd className={styles.fingerprint} data-testid="changed-key-new">
                {changed?.presentedFingerprintDisplay || displayFingerprint(changed?.presentedFingerprint ?? '')}
              </dd>
            </dl>
            <p>{t('deliveries:changedKey.compare')}</p>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={() => decide(false)}>
              {t('common:actions.cancel')}
            </Button>
            <Button appearance="primary" onClick={() => decide(true)}>
              {confirmLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
  return { confirmChangedKey, dialog };
}
