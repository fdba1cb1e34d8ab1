import { Button, makeStyles, Text } from '@fluentui/react-components';
import { ArrowUndoRegular, DeleteDismissRegular, DocumentRegular, FolderRegular } from '@fluentui/react-icons';
import { isApiError } from '@shared/api/api-error';
import type { RoomTrashEntry } from '@shared/contract/room-files';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { useNotify } from '@web/lib/toasts';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ROUTES } from '@web/lib/routes';
import { purgeTrashItem, restoreTrashItem, useRoomTrash } from './api/room-trash';
import { refreshRooms, useRoomContents } from './api/rooms';
import { ConfirmDialog, type ConfirmRequest } from './room-dialogs';
import { roomErrorText } from './room-errors';
import { useDateFormat } from './room-format';
import { PersonName } from './person-name';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '12px' },
  intro: { margin: 0, maxWidth: '720px' },
  name: { display: 'inline-flex', gap: '6px', alignItems: 'center', overflowWrap: 'anywhere' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
});

/**
 * The names as shown: plain rooms have them as they are; an E2E room decrypts the sealed ones in
 * the browser (null: cannot be decrypted), or has none while the keys are locked.
 */
export type TrashNames = (entries: RoomTrashEntry[]) => Promise<Map<string, string | null>>;

/**
 * A room's trash (issue 32 §1) for its OWNERs and EDITORs: what was deleted where they may delete,
 * newest first; Restore puts it back where it was, "Delete for good" asks first. Plain and Secure
 * rooms share it; `names` decrypts a Secure room's names, `locked` stands in for them until then.
 */
export function RoomTrash({ roomUuid, roomName, roomTo, names, locked }: { roomUuid: string; roomName: string | null; roomTo: string; names?: TrashNames; locked?: ReactNode }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const dates = useDateFormat();
  const trash = useRoomTrash(roomUuid);
  const [shown, setShown] = useState<Map<string, string | null> | null>(null);
  const [confirming, setConfirming] = useState<ConfirmRequest | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const entries = trash.data?.entries;

  useEffect(() => {
    if (!entries || !names) return;
    let cancelled = false;
    names(entries).then(
      (map) => !cancelled && setShown(map),
      () => !cancelled && setShown(new Map()),
    );
    return () => {
      cancelled = true;
    };
  }, [entries, names]);

  const nameOf = (entry: RoomTrashEntry): string => {
    if (!names) return entry.name;
    if (!shown) return '…';
    return shown.get(entry.uuid) ?? t('rooms:e2e.nameBroken');
  };

  async function restore(entry: RoomTrashEntry) {
    const name = nameOf(entry);
    setBusy(entry.uuid);
    try {
      await restoreTrashItem(roomUuid, entry.uuid);
      track(ANALYTICS_ACTIONS.fileRestored);
      notify('success', t('rooms:trash.restored', { name }));
      await Promise.all([trash.mutate(), refreshRooms()]);
    } catch (error) {
      const text = roomErrorText(error);
      notify('error', t('rooms:trash.restoreFailed', { name }), t(`rooms:${text.key}`, text.values));
    } finally {
      setBusy(null);
    }
  }

  const purge = (entry: RoomTrashEntry) => {
    const name = nameOf(entry);
    setConfirming({
      title: t('rooms:trash.purgeTitle', { name }),
      text: t(entry.type === 'folder' ? 'rooms:trash.purgeFolderText' : 'rooms:trash.purgeFileText', { name }),
      confirmLabel: t('rooms:trash.purge'),
      run: async () => {
        await purgeTrashItem(roomUuid, entry.uuid);
        await trash.mutate();
      },
      done: t('rooms:trash.purged', { name }),
      failed: t('rooms:trash.purgeFailed', { name }),
    });
  };

  const columns: DataTableColumn<RoomTrashEntry>[] = [
    {
      id: 'name',
      header: t('rooms:trash.columns.name'),
      cell: (e) => (
        <span className={styles.name}>
          {e.type === 'folder' ? <FolderRegular aria-hidden="true" /> : <DocumentRegular aria-hidden="true" />}
          {nameOf(e)}
        </span>
      ),
    },
    { id: 'type', header: t('rooms:trash.columns.type'), cell: (e) => t(`rooms:trash.types.${e.type}`) },
    { id: 'deletedAt', header: t('rooms:trash.columns.deletedAt'), cell: (e) => dates.format(e.deletedAt) },
    {
      id: 'deletedBy',
      header: t('rooms:trash.columns.deletedBy'),
      cell: (e) => (e.deletedByRetention ? t('rooms:trash.byRetention') : <PersonName name={e.deletedByName} email={e.deletedBy} />),
    },
    {
      id: 'actions',
      header: t('rooms:trash.columns.actions'),
      cell: (e) => (
        <span className={styles.actions}>
          <Button size="small" icon={<ArrowUndoRegular />} disabled={busy === e.uuid} aria-label={t('rooms:trash.restoreLabel', { name: nameOf(e) })} onClick={() => void restore(e)}>
            {t('rooms:trash.restore')}
          </Button>
          <Button size="small" icon={<DeleteDismissRegular />} disabled={busy === e.uuid} aria-label={t('rooms:trash.purgeLabel', { name: nameOf(e) })} onClick={() => purge(e)}>
            {t('rooms:trash.purge')}
          </Button>
        </span>
      ),
    },
  ];

  const denied = isApiError(trash.error) && trash.error.status === 403;
  return (
    <div className={styles.page}>
      <nav aria-label={t('rooms:room.breadcrumb')}>
        <RouterLink to={roomTo}>{roomName ? t('rooms:trash.backTo', { name: roomName }) : t('rooms:trash.back')}</RouterLink>
      </nav>
      <PageHeading focusOnMount>{roomName ? t('rooms:trash.titleOf', { name: roomName }) : t('rooms:trash.title')}</PageHeading>
      <Text as="p" className={styles.intro}>
        {t('rooms:trash.intro')}
      </Text>
      {locked ?? (
        <DataTable
          label={t('rooms:trash.tableLabel')}
          columns={columns}
          rows={entries}
          rowKey={(e) => e.uuid}
          loading={trash.isLoading}
          error={trash.error ? (denied ? t('rooms:errors.forbidden') : t('rooms:trash.loadFailed')) : undefined}
          empty={<Alert type="info">{t('rooms:trash.empty')}</Alert>}
        />
      )}
      <ConfirmDialog request={confirming} onClose={() => setConfirming(null)} />
    </div>
  );
}

/** `/datarooms/:roomUuid/trash`: a plain room's trash (the room's name when the caller sees the room). */
export function RoomTrashPage() {
  const { roomUuid = '' } = useParams();
  const room = useRoomContents(roomUuid, undefined).data?.room;
  return <RoomTrash roomUuid={roomUuid} roomName={room?.name ?? null} roomTo={ROUTES.room(roomUuid)} />;
}
