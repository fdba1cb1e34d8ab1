import { Text } from '@fluentui/react-components';
import { TransferProgressBar } from '@web/components/transfer-centre';
import { isWaitingForServer, type Transfer } from '@web/lib/transfer-store';
import { useTranslation } from 'react-i18next';

/**
 * A room upload's bar and line under the room's toolbar (plain and E2E rooms). While a file waits
 * for the server (the engine pauses after its retry window and goes on by itself, shared/transfer
 * README "Retry, pause, resume") the line says so; the bar stays where it was.
 */
export function RoomUploadProgress({ transfer }: { transfer: Transfer }) {
  const { t } = useTranslation();
  const values = { name: transfer.title, percent: transfer.percent };
  return (
    <>
      <TransferProgressBar value={transfer.percent} max={100} aria-label={t('rooms:files.progress', { name: transfer.title })} />
      <Text size={200}>{isWaitingForServer(transfer) ? t('rooms:files.progressWaiting', values) : t('rooms:files.progressText', values)}</Text>
    </>
  );
}
