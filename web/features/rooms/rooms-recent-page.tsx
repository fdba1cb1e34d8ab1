import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { DocumentRegular, LockClosedRegular } from '@fluentui/react-icons';
import { call } from '@shared/api/call';
import { ROOM_ENDPOINTS } from '@shared/contract/endpoints/rooms';
import type { RoomRecent, RoomRecentFile } from '@shared/contract/room-recent';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { formatSize } from '@web/lib/format-size';
import { ROUTES } from '@web/lib/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { HIGHLIGHT_PARAM } from './api/rooms-search';
import { PersonName } from './person-name';
import { RoleBadge, useDateFormat } from './room-format';

const PAGE_SIZE = 25;

const useStyles = makeStyles({
  section: { marginTop: '24px' },
  heading: { margin: '0 0 8px', fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  name: { display: 'inline-flex', gap: '6px', alignItems: 'center' },
  more: { marginTop: '12px' },
});

type SharedRoom = RoomRecent['sharedRooms'][number];
const fetchRecent = (cursor?: string): Promise<RoomRecent> => call(apiClient, ROOM_ENDPOINTS.recent, { query: { pageSize: PAGE_SIZE, ...(cursor ? { cursor } : {}) } });

/**
 * "Shared with me" and recent files (issue 32 §2; server/README GET /rooms/recent): the rooms others
 * shared with the user (a Secure room only as its entry: its name is sealed) and the newest files of
 * the plain rooms the user can see, each opening its folder with the file marked. "Show more" adds
 * the next page of files.
 */
export function RoomsRecentPage() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const dateFormat = useDateFormat();
  const { user } = useAuthState();
  const first = useSWR(user ? ['rooms/recent', user.uuid] : null, () => fetchRecent());
  const [more, setMore] = useState<{ files: RoomRecentFile[]; cursor: string | null; busy: boolean; failed: boolean } | null>(null);
  const files = [...(first.data?.files ?? []), ...(more?.files ?? [])];
  const cursor = more ? more.cursor : (first.data?.nextCursor ?? null);

  async function loadMore() {
    if (!cursor) return;
    setMore((m) => ({ files: m?.files ?? [], cursor, busy: true, failed: false }));
    try {
      const page = await fetchRecent(cursor);
      setMore((m) => ({ files: [...(m?.files ?? []), ...page.files], cursor: page.nextCursor, busy: false, failed: false }));
    } catch {
      setMore((m) => ({ files: m?.files ?? [], cursor, busy: false, failed: true }));
    }
  }

  const roomColumns: DataTableColumn<SharedRoom>[] = [
    {
      id: 'room',
      header: t('roomSelect:recent.columns.room'),
      cell: (room) =>
        room.encrypted ? (
          <span className={styles.name}>
            <LockClosedRegular aria-hidden="true" />
            <RouterLink to={ROUTES.secureRoom(room.uuid)}>{t('roomSelect:recent.secureRoom')}</RouterLink>
          </span>
        ) : (
          <RouterLink to={ROUTES.room(room.uuid)}>{room.name}</RouterLink>
        ),
    },
    { id: 'sharedBy', header: t('roomSelect:recent.columns.sharedBy'), cell: (room) => <PersonName email={room.createdBy} name={room.createdByName} /> },
    { id: 'role', header: t('roomSelect:recent.columns.role'), cell: (room) => <RoleBadge role={room.role} /> },
    { id: 'sharedAt', header: t('roomSelect:recent.columns.sharedAt'), cell: (room) => dateFormat.format(room.sharedAt) },
  ];

  const fileColumns: DataTableColumn<RoomRecentFile>[] = [
    {
      id: 'name',
      header: t('roomSelect:recent.columns.name'),
      cell: (file) => (
        <span className={styles.name}>
          <DocumentRegular aria-hidden="true" />
          <RouterLink to={`${ROUTES.room(file.roomUuid, file.folderUuid ?? undefined)}?${HIGHLIGHT_PARAM}=${file.uuid}`}>{file.name}</RouterLink>
        </span>
      ),
    },
    {
      id: 'where',
      header: t('roomSelect:recent.columns.where'),
      cell: (file) => [file.room.name, ...file.path.map((step) => step.name)].join(' › '),
    },
    { id: 'size', header: t('rooms:files.columns.size'), cell: (file) => formatSize(file.size, i18n.language) },
    { id: 'uploadedBy', header: t('roomSelect:recent.columns.uploadedBy'), cell: (file) => <PersonName email={file.uploadedBy} name={file.uploadedByName} /> },
    { id: 'modified', header: t('roomSelect:recent.columns.modified'), cell: (file) => dateFormat.format(file.updatedAt) },
  ];

  return (
    <>
      <PageHeading focusOnMount>{t('roomSelect:recent.title')}</PageHeading>
      <p>
        <RouterLink to={ROUTES.datarooms}>{t('rooms:room.backToRooms')}</RouterLink>
      </p>
      {first.error ? <Alert type="error">{t('roomSelect:recent.loadError')}</Alert> : null}
      {first.isLoading ? <Spinner label={t('common:loading')} /> : null}
      {first.data ? (
        <>
          <section className={styles.section} aria-labelledby="recent-shared-heading">
            <h2 id="recent-shared-heading" className={styles.heading}>
              {t('roomSelect:recent.sharedHeading')}
            </h2>
            <DataTable labelledBy="recent-shared-heading" columns={roomColumns} rows={first.data.sharedRooms} rowKey={(room) => room.uuid} empty={<Text as="p">{t('roomSelect:recent.noShared')}</Text>} />
          </section>
          <section className={styles.section} aria-labelledby="recent-files-heading">
            <h2 id="recent-files-heading" className={styles.heading}>
              {t('roomSelect:recent.filesHeading')}
            </h2>
            <Text as="p">{t('roomSelect:recent.secureNote')}</Text>
            <DataTable labelledBy="recent-files-heading" columns={fileColumns} rows={files} rowKey={(file) => file.uuid} empty={<Text as="p">{t('roomSelect:recent.noFiles')}</Text>} />
            {more?.failed ? <Alert type="error">{t('roomSelect:recent.loadError')}</Alert> : null}
            {cursor ? (
              <Button className={styles.more} disabled={more?.busy ?? false} onClick={() => void loadMore()}>
                {t('roomSelect:recent.more')}
              </Button>
            ) : null}
          </section>
        </>
      ) : null}
    </>
  );
}
