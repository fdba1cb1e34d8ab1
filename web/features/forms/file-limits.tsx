import { Caption1 } from '@fluentui/react-components';
import { currentLanguage } from '@web/lib/i18n';
import { formatSize } from '@web/lib/format-size';
import { useTranslation } from 'react-i18next';

/**
 * A file field's allowed sizes on the public form page (SPEC §5: a max size per file in kB, the
 * total limited): the field's own limit and the submission's total, the server's upload limit
 * (above it the submit answers TransferQuotaExceededException). 0 for the total: not known (the
 * admin's live preview), only the per-file limit shows.
 */
export function FileLimits({ id, maxFileSizeKb, maxUploadSize }: { id: string; maxFileSizeKb: number | null; maxUploadSize: number }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const perFile = maxFileSizeKb ? formatSize(maxFileSizeKb * 1024, language) : null;
  const total = maxUploadSize > 0 ? formatSize(maxUploadSize, language) : null;
  if (!perFile && !total) return null;
  const text = perFile && total ? t('forms:public.fileLimits', { max: perFile, total }) : perFile ? t('forms:public.fileLimitPerFile', { max: perFile }) : t('forms:public.fileLimitTotal', { total });
  return <Caption1 id={id}>{text}</Caption1>;
}
