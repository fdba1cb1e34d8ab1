import { Button, makeStyles, Text } from '@fluentui/react-components';
import type { RoomInvitation } from '@shared/contract/room-invitations';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { useNotify } from '@web/lib/toasts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refreshRoomInvitations, revokeRoomInvitation, useRoomInvitations } from './api/room-invitations';
import { useDateFormat } from './room-format';
import { roomErrorText } from './room-errors';

const useStyles = makeStyles({
  confirm: { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' },
});

/**
 * The share dialog's pending invitations of addresses without an account (rooms invitations):
 * address, role, "invitation pending" with its expiry (or expired), and revoke — confirmed in
 * place, as the share dialog asks its other questions, not in a second modal. Shown only when
 * there is at least one.
 */
export function PendingInvitations({ roomUuid, folderUuid, itemName, open }: { roomUuid: string; folderUuid: string | undefined; itemName: string; open: boolean }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const dates = useDateFormat();
  const invitations = useRoomInvitations(roomUuid, folderUuid, open);
  const [asking, setAsking] = useState<RoomInvitation | null>(null);
  const [pending, setPending] = useState(false);
  const rows = invitations.data?.invitations ?? [];
  if (rows.length === 0) return null;

  async function revoke(invitation: RoomInvitation) {
    const values = { address: invitation.email, item: itemName };
    setPending(true);
    try {
      await revokeRoomInvitation(roomUuid, invitation.uuid);
      notify('success', t('rooms:invitations.revoked', values));
      await refreshRoomInvitations();
    } catch (error) {
      const text = roomErrorText(error);
      notify('error', t('rooms:invitations.revokeFailed', values), t(`rooms:${text.key}`, text.values));
    } finally {
      setPending(false);
      setAsking(null);
    }
  }

  const columns: DataTableColumn<RoomInvitation>[] = [
    { id: 'address', header: t('rooms:invitations.columns.address'), cell: (row) => row.email },
    { id: 'role', header: t('rooms:invitations.columns.role'), cell: (row) => t(`rooms:roles.${row.role}`) },
    {
      id: 'state',
      header: t('rooms:invitations.columns.state'),
      cell: (row) => t(row.expired ? 'rooms:invitations.expired' : 'rooms:invitations.pending', { date: dates.format(row.expiresAt) }),
    },
    {
      id: 'revoke',
      header: t('rooms:invitations.columns.revoke'),
      cell: (row) => (
        <Button size="small" onClick={() => setAsking(row)} aria-label={t('rooms:invitations.revokeFor', { address: row.email })}>
          {t('rooms:invitations.revoke')}
        </Button>
      ),
    },
  ];

  return (
    <section aria-label={t('rooms:invitations.title')}>
      <Text as="h3" weight="semibold" size={400}>
        {t('rooms:invitations.title')}
      </Text>
      {asking ? (
        <div className={styles.confirm} role="group" aria-label={t('rooms:invitations.confirm')}>
          <Text as="p">{t('rooms:invitations.confirmText', { address: asking.email, item: itemName })}</Text>
          <Button appearance="primary" disabled={pending} onClick={() => void revoke(asking)}>
            {t('rooms:invitations.confirm')}
          </Button>
          <Button onClick={() => setAsking(null)}>{t('rooms:invitations.cancel')}</Button>
        </div>
      ) : null}
      <DataTable label={t('rooms:invitations.tableLabel', { name: itemName })} columns={columns} rows={rows} rowKey={(row) => row.uuid} />
    </section>
  );
}
