import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { MailInboxArrowDownRegular } from '@fluentui/react-icons';
import type { RoomRequest } from '@shared/contract/room-requests';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { useNotify } from '@web/lib/toasts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PersonName } from '../person-name';
import { useDateFormat } from '../room-format';
import { revokeRoomRequest, useRoomRequests } from './api';

const useStyles = makeStyles({
  section: { marginTop: '24px' },
  head: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap', margin: '0 0 8px' },
  heading: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
});

/** The room's file requests for its OWNERs (open, used, expired, revoked), loaded when asked for; an open one can be revoked. */
export function RoomRequestsSection({ roomUuid, roomName }: { roomUuid: string; roomName: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const dateFormat = useDateFormat();
  const [open, setOpen] = useState(false);
  const requests = useRoomRequests(roomUuid, open);

  async function revoke(request: RoomRequest) {
    try {
      await revokeRoomRequest(roomUuid, request.uuid);
      notify('success', t('roomRequests:list.revoked', { email: request.email }));
    } catch {
      notify('error', t('roomRequests:list.revokeFailed', { email: request.email }));
    }
  }

  const columns: DataTableColumn<RoomRequest>[] = [
    { id: 'email', header: t('roomRequests:list.columns.email'), cell: (r) => r.email },
    { id: 'folder', header: t('roomRequests:list.columns.folder'), cell: (r) => r.folderName ?? roomName },
    { id: 'by', header: t('roomRequests:list.columns.by'), cell: (r) => <PersonName email={r.requestedBy} name={r.requestedByName} /> },
    { id: 'state', header: t('roomRequests:list.columns.state'), cell: (r) => (r.state === 'used' ? t('roomRequests:list.usedFiles', { count: r.filesCopied }) : t(`roomRequests:list.states.${r.state}`)) },
    { id: 'expires', header: t('roomRequests:list.columns.expires'), cell: (r) => dateFormat.format(r.expiresAt) },
    {
      id: 'actions',
      header: t('roomRequests:list.columns.actions'),
      cell: (r) =>
        r.state === 'open' ? (
          <Button size="small" onClick={() => void revoke(r)} aria-label={t('roomRequests:list.revokeFor', { email: r.email })}>
            {t('roomRequests:list.revoke')}
          </Button>
        ) : null,
    },
  ];

  return (
    <section className={styles.section} aria-labelledby="room-requests-heading">
      <div className={styles.head}>
        <h2 id="room-requests-heading" className={styles.heading}>
          {t('roomRequests:list.title')}
        </h2>
        <Button icon={<MailInboxArrowDownRegular />} aria-expanded={open} onClick={() => setOpen((was) => !was)}>
          {open ? t('roomRequests:list.hide') : t('roomRequests:list.show')}
        </Button>
      </div>
      {!open ? null : requests.error ? (
        <Alert type="error">{t('roomRequests:list.loadError')}</Alert>
      ) : !requests.data ? (
        <Spinner size="small" label={t('common:loading')} />
      ) : (
        <DataTable
          labelledBy="room-requests-heading"
          columns={columns}
          rows={requests.data.requests}
          rowKey={(r) => r.uuid}
          empty={<Text as="p">{t('roomRequests:list.empty')}</Text>}
        />
      )}
    </section>
  );
}
