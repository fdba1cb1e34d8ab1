import { makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { ShieldDismissRegular, ShieldErrorRegular, ShieldQuestionRegular } from '@fluentui/react-icons';
import type { RoomScanState } from '@shared/contract/rooms';
import { useTranslation } from 'react-i18next';

/**
 * The server's rule (server/rooms/plain/scan.ts `refuseUnlessScanned`, used by the download, the version
 * download and the preview): a content still `scanning`, or blocked (`virusDetected`, `error`), is
 * refused with 403 FileNotAllowedException; `clean` and `notScanned` are served.
 */
export const scanAllowsContent = (state: RoomScanState): boolean => state === 'clean' || state === 'notScanned';

const useStyles = makeStyles({
  status: { display: 'inline-flex', gap: '4px', alignItems: 'center', fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground2 },
  blocked: { color: tokens.colorPaletteRedForeground1 },
});

/**
 * SPEC §3 scan state of a room file as icon and text: checking, blocked (virus / check failed),
 * and — only where it says something, in an end-to-end encrypted room — not scanned. A clean file
 * (and a plain file with scanning off) shows nothing.
 */
export function ScanStatus({ state, encrypted = false }: { state: RoomScanState; encrypted?: boolean }) {
  const { t } = useTranslation();
  const styles = useStyles();
  if (state === 'clean' || (state === 'notScanned' && !encrypted)) return null;
  const text = t(`rooms:scan.${state}`);
  if (state === 'scanning') {
    return (
      <span className={styles.status} data-scan-state={state}>
        <Spinner size="extra-tiny" aria-hidden="true" />
        {text}
      </span>
    );
  }
  const Icon = state === 'virusDetected' ? ShieldDismissRegular : state === 'error' ? ShieldErrorRegular : ShieldQuestionRegular;
  return (
    <span className={state === 'notScanned' ? styles.status : `${styles.status} ${styles.blocked}`} data-scan-state={state} {...(state === 'notScanned' ? {} : { title: t('rooms:scan.blockedHint') })}>
      <Icon aria-hidden="true" />
      {text}
    </span>
  );
}
