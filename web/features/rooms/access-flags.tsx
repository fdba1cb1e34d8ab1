import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import type { RoomAccessEntry } from '@shared/contract/rooms';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({ flags: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS } });

/**
 * The SPEC §3 flags of an access entry as badges with text (share dialog, details Access tab).
 * The E2E texts are the members page's; nothing renders when no flag is set.
 */
export function AccessFlags({ entry }: { entry: RoomAccessEntry }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const flags = [
    entry.encryptionNotActivated ? { key: 'encryptionNotActivated', text: t('rooms:e2e.members.states.noSecuPass'), color: 'warning' as const } : null,
    entry.missingFileKey ? { key: 'missingFileKey', text: t('rooms:accessFlags.missingFileKey'), color: 'warning' as const } : null,
    entry.notRegistered ? { key: 'notRegistered', text: t('rooms:accessFlags.notRegistered'), color: 'informative' as const } : null,
  ].filter((f) => f !== null);
  if (flags.length === 0) return null;
  return (
    <span className={styles.flags} data-testid="access-flags">
      {flags.map((f) => (
        <Badge key={f.key} appearance="tint" color={f.color}>
          {f.text}
        </Badge>
      ))}
    </span>
  );
}
