import { useTranslation } from 'react-i18next';
import { usePreviewStyles } from './preview-styles';

/** Plain text as it is (React escapes it). */
export function TextView({ text, name }: { text: string; name: string }) {
  const { t } = useTranslation();
  const styles = usePreviewStyles();
  return (
    <pre className={styles.text} tabIndex={0} aria-label={t('rooms:preview.textLabel', { name })}>
      {text}
    </pre>
  );
}
