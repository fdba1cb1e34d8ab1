import { Alert } from '@web/components/alert';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { CsvView } from './csv-view';
import { ImageView } from './image-view';
import { JsonView } from './json-view';
import { MarkdownView } from './markdown-view';
import { MediaView } from './media-view';
import type { Loaded } from './preview-source';
import { TextView } from './text-view';

// pdf.js is large: its viewer (and pdf.js with it) comes in its own chunk, on the first PDF.
const PdfView = lazy(() => import(/* webpackChunkName: "pdf-view" */ './pdf-view').then((m) => ({ default: m.PdfView })));

/** The viewer of one kind (one module each). */
export function KindView({ loaded, name }: { loaded: Loaded; name: string }) {
  const { t } = useTranslation();
  switch (loaded.kind) {
    case 'image':
      return <ImageView blob={loaded.blob} name={name} />;
    case 'pdf':
      return (
        <Suspense fallback={null}>
          <PdfView bytes={loaded.bytes} name={name} />
        </Suspense>
      );
    case 'audio':
    case 'video':
      return <MediaView kind={loaded.kind} src={loaded.src} name={name} framed={loaded.framed ?? false} />;
    case 'markdown':
      return <MarkdownView text={loaded.text} name={name} />;
    case 'csv':
      return <CsvView text={loaded.text} name={name} />;
    case 'json':
      return <JsonView text={loaded.text} name={name} />;
    case 'text':
      return <TextView text={loaded.text} name={name} />;
    case 'unsupported':
      return <Alert type="info">{t(loaded.office ? 'rooms:preview.officeDownloadOnly' : 'rooms:preview.unsupported', { name })}</Alert>;
  }
}
