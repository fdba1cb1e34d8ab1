import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, makeStyles, tokens } from '@fluentui/react-components';
import { CameraRegular, ImageRegular } from '@fluentui/react-icons';
import { judgeScannedCode, verificationQrText, type ScanVerdict } from '@web/lib/contact-verification';
import { displayFingerprint } from '@web/lib/fingerprint';
import { cameraProblem, decodeQrImage, scanQrWithCamera, type CameraProblem } from '@web/lib/qr-scan';
import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))', gap: '16px', margin: '12px 0' },
  fingerprint: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-word', margin: '4px 0' },
  qr: { width: '180px', height: '180px', imageRendering: 'pixelated' },
  scanActions: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center' },
  video: { display: 'block', width: '100%', maxWidth: '320px', margin: '8px 0', background: tokens.colorNeutralBackground3 },
  hidden: { display: 'none' },
});

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
 * one's own, each also as a QR code, to compare in person or by phone; "They match" — or scanning
 * the contact's own code (camera or image file) when it is this contact's very key — marks the
 * contact's key verified in the user's pin list (every device sees it).
 */
/** What the scan section says after a scan or a camera failure (a match closes the dialog instead). */
type ScanNote = Exclude<ScanVerdict, 'match'> | 'noCode' | CameraProblem;

/**
 * Scanning the contact's own code (the "Your key" code their Kuvert shows): with the camera or from
 * an image file. `onMatch` runs only for this contact's very key; any other code changes nothing.
 */
function ScanTheirCode({ expected, onMatch }: { expected: { userUuid: string; usage: 'encryption' | 'signing'; fingerprint: string }; onMatch: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const videoRef = useRef<HTMLVideoElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const stopRef = useRef<(() => void) | null>(null);
  const [camera, setCamera] = useState(false);
  const [note, setNote] = useState<ScanNote | null>(null);
  useEffect(() => () => stopRef.current?.(), []);
  const judge = (text: string | null) => {
    if (text === null) return setNote('noCode');
    const verdict = judgeScannedCode(text, expected);
    if (verdict === 'match') {
      setNote(null);
      onMatch();
    } else setNote(verdict);
  };
  const stopCamera = () => {
    stopRef.current?.();
    stopRef.current = null;
    setCamera(false);
  };
  return (
    <section aria-label={t('deliveries:verify.scan.title')}>
      <strong>{t('deliveries:verify.scan.title')}</strong>
      <p>{t('deliveries:verify.scan.text')}</p>
      <div className={styles.scanActions}>
        {camera ? (
          <Button icon={<CameraRegular />} onClick={stopCamera}>
            {t('deliveries:verify.scan.stopCamera')}
          </Button>
        ) : (
          <Button
            icon={<CameraRegular />}
            onClick={() => {
              setNote(null);
              setCamera(true);
              const video = videoRef.current;
              if (!video) return;
              scanQrWithCamera(video, (text) => {
                stopRef.current = null;
                setCamera(false);
                judge(text);
              })
                .then((stop) => {
                  stopRef.current = stop;
                })
                .catch((error: unknown) => {
                  setCamera(false);
                  setNote(cameraProblem(error));
                });
            }}
          >
            {t('deliveries:verify.scan.camera')}
          </Button>
        )}
        <Button icon={<ImageRegular />} onClick={() => fileRef.current?.click()}>
          {t('deliveries:verify.scan.image')}
        </Button>
        <input
          ref={fileRef}
          className={styles.hidden}
          type="file"
          accept="image/*"
          aria-label={t('deliveries:verify.scan.image')}
          data-testid="verify-scan-file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (!file) return;
            setNote(null);
            stopCamera();
            void decodeQrImage(file).then(judge);
          }}
        />
      </div>
      <video ref={videoRef} className={camera ? styles.video : styles.hidden} aria-label={t('deliveries:verify.scan.cameraView')} data-testid="verify-scan-video" muted playsInline />
      {note ? (
        <p role="alert" data-testid="verify-scan-note">
          {t(`deliveries:verify.scan.${note}`)}
        </p>
      ) : null}
    </section>
  );
}

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
  // "They match" and a scanned code that matches take the same path.
  const confirm = () => {
    setBusy(true);
    setFailed(false);
    onVerified()
      .then(() => setOpen(false))
      .catch(() => setFailed(true))
      .finally(() => setBusy(false));
  };
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
            <ScanTheirCode expected={contact} onMatch={confirm} />
            {failed ? <p role="alert">{t('deliveries:verify.failed')}</p> : null}
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance="secondary">{t('common:actions.cancel')}</Button>
            </DialogTrigger>
            <Button
              appearance="primary"
              disabled={busy}
              onClick={confirm}
            >
              {t('deliveries:verify.confirm')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
