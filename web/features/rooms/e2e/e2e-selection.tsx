import { Button } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { SelectionFrame } from '../room-selection';

/**
 * A Secure room's selection toolbar (issue 32 §2): the count and Download as ZIP of the chosen
 * files and folders, built and decrypted in the browser (e2e-zip.ts with `only`). Move and delete
 * of a selection are not offered in Secure rooms yet (each row's menu does them one by one).
 */
export function E2eSelectionBar({ count, mayDownload, onZip, onClear }: { count: number; mayDownload: boolean; onZip: () => void; onClear: () => void }) {
  const { t } = useTranslation();
  if (count === 0) return null;
  return (
    <SelectionFrame count={count} onClear={onClear}>
      {mayDownload ? (
        <Button icon={<ArrowDownloadRegular />} onClick={onZip}>
          {t('rooms:files.zip')}
        </Button>
      ) : null}
    </SelectionFrame>
  );
}
