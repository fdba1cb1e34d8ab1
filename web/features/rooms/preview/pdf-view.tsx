import { Spinner } from '@fluentui/react-components';
import { Alert } from '@web/components/alert';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePreviewStyles } from './preview-styles';
import type { RangedBytes } from './ranged-bytes';

/** Pages drawn at most (a longer PDF says so): each page is a canvas in memory. */
export const PDF_PREVIEW_PAGES = 50;

/**
 * A PDF drawn page by page onto canvases with pdf.js (not the browser's viewer: the app's CSP has
 * object-src 'none'). pdf.js and its worker are loaded only here, on the first PDF (their own
 * chunks); the worker is a module Worker from our origin (worker-src 'self'); eval is off.
 * pdf.js reads the file by range through a `PDFDataRangeTransport` (`bytes.read`: the preview
 * route's 206 in a plain room, records decrypted and authenticated one by one in a Secure room),
 * with streaming and pre-fetching off as pdf.js's docs ask for range loading: it fetches the
 * trailer, the cross-reference table and the objects of the pages it draws, not the whole file.
 * A range that fails (or does not authenticate) ends the preview with its error: pdf.js itself has
 * no error path for a range transport and would wait.
 */
export function PdfView({ bytes, name }: { bytes: RangedBytes; name: string }) {
  const { t } = useTranslation();
  const styles = usePreviewStyles();
  const holder = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ kind: 'loading' } | { kind: 'shown'; pages: number; total: number } | { kind: 'failed' }>({ kind: 'loading' });

  useEffect(() => {
    let cancelled = false;
    const target = holder.current;
    let destroy: (() => Promise<void>) | undefined;
    let refuse: (error: unknown) => void = () => undefined;
    const refused = new Promise<never>((_resolve, reject) => {
      refuse = reject;
    });
    refused.catch(() => undefined);
    const guarded = <T,>(step: Promise<T>) => Promise.race([step, refused]);
    void (async () => {
      const pdfjs = await import(/* webpackChunkName: "pdfjs" */ 'pdfjs-dist');
      pdfjs.GlobalWorkerOptions.workerPort ??= new Worker(new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url), { type: 'module', name: 'kuvert-pdf' });
      class Ranges extends pdfjs.PDFDataRangeTransport {
        override requestDataRange(begin: number, end: number) {
          bytes.read(begin, end).then((chunk) => {
            if (!cancelled) this.onDataRange(begin, chunk);
          }, refuse);
        }
      }
      const task = pdfjs.getDocument({
        range: new Ranges(bytes.size, null),
        ...(bytes.chunkBytes ? { rangeChunkSize: bytes.chunkBytes } : {}),
        disableStream: true,
        disableAutoFetch: true,
        isEvalSupported: false,
      });
      destroy = () => task.destroy();
      const doc = await guarded(task.promise);
      const pages = Math.min(doc.numPages, PDF_PREVIEW_PAGES);
      for (let n = 1; n <= pages && !cancelled; n++) {
        const page = await guarded(doc.getPage(n));
        const viewport = page.getViewport({ scale: 1.5 });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.className = styles.page;
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', t('rooms:preview.pdfPage', { page: n, total: doc.numPages, name }));
        await guarded(page.render({ canvas, viewport }).promise);
        if (!cancelled) target?.append(canvas);
      }
      if (!cancelled) setState({ kind: 'shown', pages, total: doc.numPages });
    })().catch(() => {
      if (!cancelled) setState({ kind: 'failed' });
      void destroy?.().catch(() => undefined);
    });
    return () => {
      cancelled = true;
      target?.replaceChildren();
      void destroy?.().catch(() => undefined);
    };
  }, [bytes, name, styles.page, t]);

  return (
    <>
      {state.kind === 'loading' ? <Spinner label={t('common:loading')} /> : null}
      {state.kind === 'failed' ? <Alert type="error">{t('rooms:preview.failed', { name })}</Alert> : null}
      {state.kind === 'shown' && state.pages < state.total ? <Alert type="info">{t('rooms:preview.pdfFirstPages', { shown: state.pages, total: state.total })}</Alert> : null}
      <div ref={holder} className={styles.frame} tabIndex={0} role="region" aria-label={name} />
    </>
  );
}
