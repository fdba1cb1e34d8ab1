import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, makeStyles, tokens } from '@fluentui/react-components';
import { displayFingerprint } from '@web/lib/fingerprint';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))', gap: '16px', margin: '12px 0' },
  fingerprint: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-word', margin: '4px 0' },
  qr: { width: '180px', height: '180px', imageRendering: 'pixelated' },
});

/** What a verification QR code holds: scanned by the contact's phone, compared with what their own Kuvert shows. */
export const verificationQrText = (userUuid: string, usage: 'encryption' | 'signing', fingerprint: string) => `kuvert-key:1:${userUuid}:${usage}:${fingerprint.toLowerCase()}`;

function FingerprintQr({ text, label }: { text: string; label: string }) {
  const styles = useStyles();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 180 })
      .then((value) => current && setUrl(value))
      .catch(() => current && setUrl(null));
    return () => {
      current = false;
    };
  }, [text]);
  return url ? <img className={styles.qr} src={url} alt={label} /> : null;
}

/**
 * Explicit verification of a contact (DESIGN §9 "Contact pins"): the contact's fingerprint and
 * one's own, each also as a QR code, to compare in person or by phone; "They match" marks the
 * contact's key verified in the user's pin list (every device sees it).
 */
export function VerifyContactButton({
  contact,
  own,
  onVerified,
}: {
  contact: { email: string; userUuid: string; usage: 'encryption' | 'signing'; fingerprint: string };
  own: { usage: 'encryption' | 'signing'; fingerprint: string; userUuid?: string };
  /** Marks the key verified; throws when saving failed. */
  onVerified: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  return (
    <Dialog open={open} onOpenChange={(_e, data) => setOpen(data.open)}>
      <DialogTrigger disableButtonEnhancement>
        <Button size="small">{t('deliveries:verify.open')}</Button>
      </DialogTrigger>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('deliveries:verify.title', { email: contact.email })}</DialogTitle>
          <DialogContent>
            <p>{t('deliveries:verify.text', { email: contact.email })}</p>
            <div className={styles.grid}>
              <section aria-label={t('deliveries:verify.theirs', { email: contact.email })}>
                <strong>{t('deliveries:verify.theirs', { email: contact.email })}</strong>
                <p className={styles.fingerprint} data-testid="verify-theirs">
                  {displayFingerprint(contact.fingerprint)}
                </p>
                <FingerprintQr text={verificationQrText(contact.userUuid, contact.usage, contact.fingerprint)} label={t('deliveries:verify.qrTheirs', { email: contact.email })} />
              </section>
              <section aria-label={t('deliveries:verify.yours')}>
                <strong>{t('deliveries:verify.yours')}</strong>
                <p className={styles.fingerprint} data-testid="verify-yours">
                  {displayFingerprint(own.fingerprint)}
                </p>
                <FingerprintQr text={verificationQrText(own.userUuid ?? '', own.usage, own.fingerprint)} label={t('deliveries:verify.qrYours')} />
              </section>
            </div>
            <p>{t('deliveries:verify.howTo')}</p>
            {failed ? <p role="alert">{t('deliveries:verify.failed')}</p> : null}
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance="secondary">{t('common:actions.cancel')}</Button>
            </DialogTrigger>
            <Button
              appearance="primary"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                setFailed(false);
                onVerified()
                  .then(() => setOpen(false))
                  .catch(() => setFailed(true))
                  .finally(() => setBusy(false));
              }}
            >
              {t('deliveries:verify.confirm')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
