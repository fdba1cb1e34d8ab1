import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { API_BASE } from '@shared/contract/constants';
import { ROOM_OPS_PATHS } from '@shared/contract/room-ops';
import type { RoomFile } from '@shared/contract/rooms';
import { Alert } from '@web/components/alert';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  surface: { maxWidth: 'min(960px, 95vw)', width: '100%' },
  image: { maxWidth: '100%', maxHeight: '70vh', display: 'block', margin: '0 auto' },
  text: {
    maxHeight: '70vh',
    overflow: 'auto',
    margin: 0,
    padding: '8px',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    backgroundColor: tokens.colorNeutralBackground3,
    fontFamily: tokens.fontFamilyMonospace,
  },
  pdf: { width: '100%', height: '70vh', border: 'none' },
});

type Shown =
  | { kind: 'loading' }
  | { kind: 'image' | 'pdf'; url: string }
  | { kind: 'text'; text: string }
  | { kind: 'unsupported' }
  | { kind: 'failed' };

/**
 * Fetches GET …/preview (every role, PREVIEWER too; the session cookie authorises it) and shows
 * the bytes in the page: an image, a text file, a PDF in the browser's viewer. The server answers
 * 415 for every other type; the bytes stay in a blob URL that is revoked on close.
 */
async function loadPreview(file: RoomFile, signal: AbortSignal): Promise<Shown> {
  const response = await fetch(`${API_BASE}${ROOM_OPS_PATHS.preview(file.roomUuid, file.uuid)}`, { credentials: 'include', signal });
  if (response.status === 415) return { kind: 'unsupported' };
  if (!response.ok) return { kind: 'failed' };
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('text/')) return { kind: 'text', text: await response.text() };
  const blob = await response.blob();
  if (type.startsWith('image/')) return { kind: 'image', url: URL.createObjectURL(blob) };
  if (type === 'application/pdf') return { kind: 'pdf', url: URL.createObjectURL(new Blob([blob], { type: 'application/pdf' })) };
  return { kind: 'unsupported' };
}

export function PreviewDialog({ file, onClose }: { file: RoomFile | null; onClose: () => void }) {
  return file ? <PreviewSurface key={file.uuid} file={file} onClose={onClose} /> : null;
}

function PreviewSurface({ file, onClose }: { file: RoomFile; onClose: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    let url: string | undefined;
    loadPreview(file, controller.signal).then(
      (result) => {
        if ('url' in result) url = result.url;
        setShown(result);
      },
      () => {
        if (!controller.signal.aborted) setShown({ kind: 'failed' });
      },
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [file]);

  return (
    <Dialog open onOpenChange={(_e, data) => (data.open ? undefined : onClose())}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{t('rooms:preview.title', { name: file.name })}</DialogTitle>
          <DialogContent>
            {shown.kind === 'loading' ? <Spinner label={t('common:loading')} /> : null}
            {shown.kind === 'image' ? <img className={styles.image} src={shown.url} alt={file.name} /> : null}
            {shown.kind === 'text' ? (
              <pre className={styles.text} tabIndex={0} aria-label={t('rooms:preview.textLabel', { name: file.name })}>
                {shown.text}
              </pre>
            ) : null}
            {shown.kind === 'pdf' ? (
              // The browser's PDF viewer; where it has none (e.g. headless Chromium) the fallback text shows.
              <object className={styles.pdf} data={shown.url} type="application/pdf" aria-label={file.name}>
                <Text as="p">{t('rooms:preview.pdfUnavailable')}</Text>
              </object>
            ) : null}
            {shown.kind === 'unsupported' ? <Alert type="info">{t('rooms:preview.unsupported', { name: file.name })}</Alert> : null}
            {shown.kind === 'failed' ? <Alert type="error">{t('rooms:preview.failed', { name: file.name })}</Alert> : null}
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance="primary">{t('rooms:preview.close')}</Button>
            </DialogTrigger>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
