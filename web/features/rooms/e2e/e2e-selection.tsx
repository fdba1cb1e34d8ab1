import { Button, Text } from '@fluentui/react-components';
import { ArrowDownloadRegular, DismissRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useSelectionBarStyles } from '../room-selection';

/**
 * A Secure room's selection toolbar (issue 32 §2): the count and Download as ZIP of the chosen
 * files and folders, built and decrypted in the browser (e2e-zip.ts with `only`). Move and delete
 * of a selection are not offered in Secure rooms yet (each row's menu does them one by one).
 */
export function E2eSelectionBar({ count, mayDownload, onZip, onClear }: { count: number; mayDownload: boolean; onZip: () => void; onClear: () => void }) {
  const { t } = useTranslation();
  const styles = useSelectionBarStyles();
  if (count === 0) return null;
  return (
    <div className={styles.bar} role="toolbar" aria-label={t('roomSelect:toolbar')}>
      <Text weight="semibold" aria-live="polite">
        {t('roomSelect:count', { count })}
      </Text>
      {mayDownload ? (
        <Button icon={<ArrowDownloadRegular />} onClick={onZip}>
          {t('rooms:files.zip')}
        </Button>
      ) : null}
      <Button appearance="subtle" icon={<DismissRegular />} onClick={onClear}>
        {t('roomSelect:clear')}
      </Button>
    </div>
  );
}
