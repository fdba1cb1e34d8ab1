import { Button, Caption1, Field, makeStyles, tokens } from '@fluentui/react-components';
import { DeleteRegular, ImageAddRegular } from '@fluentui/react-icons';
import { ApiError } from '@shared/api/api-error';
import { getFormBackground, removeFormBackground, uploadFormBackground } from '@shared/api/endpoints/form-layout';
import { FORM_BACKGROUND_MAX_BYTES, FORM_BACKGROUND_TYPES, FORM_LAYOUT_REASONS } from '@shared/contract/form-layout';
import type { PublicForm } from '@shared/contract/forms';
import { apiClient } from '@web/lib/api-client';
import { formatSize } from '@web/lib/format-size';
import { currentLanguage } from '@web/lib/i18n';
import { useNotify } from '@web/lib/toasts';
import { useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

/**
 * Layout images of a form (shared/contract/form-layout.ts): the Layout tab's background image
 * field (upload, replace, remove, with a preview) and the backdrop of the public page — the
 * background image behind the form's panel and the company logo above it.
 */

const useStyles = makeStyles({
  field: { display: 'grid', gap: '8px' },
  row: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
  thumbnail: { width: '160px', height: '90px', objectFit: 'cover', borderRadius: '4px', border: `1px solid ${tokens.colorNeutralStroke1}` },
  hidden: { display: 'none' },
  backdrop: { backgroundSize: 'cover', backgroundPosition: 'center', backgroundRepeat: 'no-repeat', padding: '24px 12px', borderRadius: '8px', display: 'grid', gap: '16px', alignContent: 'start' },
  /** As wide as the form's card, so only the card's panel covers the image. */
  content: { width: '100%', maxWidth: '640px', margin: '0 auto' },
  page: { minHeight: '100vh', boxSizing: 'border-box', borderRadius: 0 },
  logoBar: { display: 'flex', justifyContent: 'center' },
  logo: { maxHeight: '64px', maxWidth: '240px', objectFit: 'contain', padding: '8px', borderRadius: '8px', backgroundColor: tokens.colorNeutralBackground1 },
});

/** The form's stored background image (shared by the Layout tab's field and its live preview). */
export function useFormBackground(formUuid: string | undefined) {
  return useSWR(formUuid ? ['forms/background', formUuid] : null, () => getFormBackground(apiClient, formUuid!), { revalidateOnFocus: false });
}

function uploadProblemKey(error: unknown): string {
  if (!(error instanceof ApiError)) return 'formAdmin:layoutImages.failed';
  if (error.status === 413) return 'formAdmin:layoutImages.tooLarge';
  const reason = error.error?.metadata?.reason;
  if (reason === FORM_LAYOUT_REASONS.notAnImage || reason === FORM_LAYOUT_REASONS.empty) return 'formAdmin:layoutImages.notAnImage';
  if (reason === FORM_LAYOUT_REASONS.badDimensions) return 'formAdmin:layoutImages.badDimensions';
  return 'formAdmin:layoutImages.failed';
}

/** Layout tab: the background image with its preview, upload/replace and remove (a saved form only: the image belongs to it). */
export function BackgroundImageField({ formUuid }: { formUuid: string | undefined }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const background = useFormBackground(formUuid);
  const image = background.data?.backgroundImage ?? null;

  async function run(action: () => Promise<unknown>, done: string) {
    setBusy(true);
    setProblem(undefined);
    try {
      await background.mutate((await action()) as Awaited<ReturnType<typeof getFormBackground>>, { revalidate: false });
      notify('success', done);
    } catch (error) {
      setProblem(t(uploadProblemKey(error)));
    } finally {
      setBusy(false);
    }
  }

  function picked(file: File | undefined) {
    if (input.current) input.current.value = '';
    if (!file || !formUuid) return;
    // Checked here for a quick answer, and again (type from the bytes) by the server.
    if (file.size > FORM_BACKGROUND_MAX_BYTES) {
      setProblem(t('formAdmin:layoutImages.tooLarge'));
      return;
    }
    void run(() => uploadFormBackground(apiClient, formUuid, file), t('formAdmin:layoutImages.uploaded'));
  }

  return (
    <Field label={t('formAdmin:layoutImages.backgroundImage')} hint={formUuid ? t('formAdmin:layoutImages.backgroundHint') : t('formAdmin:layoutImages.saveFirst')} validationMessage={problem}>
      <div className={styles.field}>
        {image ? (
          <div className={styles.row}>
            <img src={image.url} alt={t('formAdmin:layoutImages.previewAlt')} className={styles.thumbnail} data-testid="form-background-thumbnail" />
            <Caption1>{t('formAdmin:layoutImages.details', { type: image.contentType.replace('image/', '').toUpperCase(), width: image.width, height: image.height, size: formatSize(image.size, currentLanguage()) })}</Caption1>
          </div>
        ) : formUuid ? (
          <Caption1>{t('formAdmin:layoutImages.noBackground')}</Caption1>
        ) : null}
        <div className={styles.row}>
          <input ref={input} type="file" className={styles.hidden} accept={FORM_BACKGROUND_TYPES.join(',')} data-testid="form-background-input" onChange={(e) => picked(e.target.files?.[0])} />
          <Button icon={<ImageAddRegular />} disabled={busy || !formUuid} onClick={() => input.current?.click()}>
            {image ? t('formAdmin:layoutImages.replace') : t('formAdmin:layoutImages.upload')}
          </Button>
          {image && formUuid ? (
            <Button icon={<DeleteRegular />} disabled={busy} onClick={() => void run(() => removeFormBackground(apiClient, formUuid), t('formAdmin:layoutImages.removed'))}>
              {t('formAdmin:layoutImages.remove')}
            </Button>
          ) : null}
        </div>
      </div>
    </Field>
  );
}

type LayoutImages = Pick<PublicForm, 'backgroundImageUrl' | 'logoUrl'>;

/**
 * The public page's backdrop: the background image (decorative: CSS, no text) behind the form,
 * the company logo above it. `page`: the whole window (the public page); else a box (the preview).
 */
export function LayoutBackdrop({ images, page, children }: { images: LayoutImages | undefined; page: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  const styles = useStyles();
  if (!images || (images.backgroundImageUrl === null && images.logoUrl === null)) return <>{children}</>;
  const style = images.backgroundImageUrl ? { backgroundImage: `url("${images.backgroundImageUrl}")` } : undefined;
  return (
    <div className={`${styles.backdrop} ${page ? styles.page : ''}`} style={style} data-testid="form-backdrop">
      {images.logoUrl ? (
        <div className={styles.logoBar}>
          <img src={images.logoUrl} alt={t('formAdmin:layoutImages.companyLogo')} className={styles.logo} data-testid="form-company-logo" />
        </div>
      ) : null}
      <div className={styles.content}>{children}</div>
    </div>
  );
}

/** The least opacity of the form's panel over a background image, whatever the transparency setting: the text stays readable. */
const PANEL_MIN_OPACITY = 70;

/** The panel's background over a background image: the layout's transparency, at most 30 %, with a blur behind it. */
export function panelOverImage(images: LayoutImages | undefined, transparency: number | undefined): CSSProperties | undefined {
  if (!images?.backgroundImageUrl) return undefined;
  const opacity = Math.max(PANEL_MIN_OPACITY, 100 - (transparency ?? 0));
  return { backgroundColor: `color-mix(in srgb, var(--colorNeutralBackground1) ${opacity}%, transparent)`, backdropFilter: 'blur(6px)' };
}
