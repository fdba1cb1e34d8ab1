import { Button, Field, makeStyles, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, SearchBox, Spinner, Text } from '@fluentui/react-components';
import { AddRegular, MoreHorizontalRegular } from '@fluentui/react-icons';
import type { Room } from '@shared/contract/rooms';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { ROUTES } from '@web/lib/routes';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '@web/lib/use-debounced-value';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { createRoom, deleteRoom, refreshRooms, renameRoom, useRooms } from './api/rooms';
import { ConfirmDialog, NameDialog, type ConfirmRequest, type NameRequest } from './room-dialogs';
import { RoleBadge, useDateFormat } from './room-format';
import { RoomsSearchForm } from './rooms-search-page';
import { StorageQuotaView } from './storage-quota';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({
  toolbar: { display: 'flex', gap: '12px', alignItems: 'end', flexWrap: 'wrap', marginBottom: '16px' },
  pager: { display: 'flex', gap: '12px', alignItems: 'center', marginTop: '16px', flexWrap: 'wrap' },
  empty: { display: 'grid', gap: '12px', justifyItems: 'start', marginTop: '8px' },
});

/** Rename and delete, for the room's OWNERs (the server checks it too). */
function RoomActions({ room, onName, onConfirm }: { room: Room; onName: (request: NameRequest) => void; onConfirm: (request: ConfirmRequest) => void }) {
  const { t } = useTranslation();
  if (room.role !== 'OWNER') return null;
  const name = room.name;
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" icon={<MoreHorizontalRegular />} aria-label={t('rooms:list.actionsFor', { name })} />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem
            onClick={() =>
              onName({
                title: t('rooms:rename.roomTitle', { name }),
                label: t('rooms:create.nameLabel'),
                submitLabel: t('rooms:rename.submit'),
                initial: name,
                run: async (newName) => {
                  await renameRoom(room.uuid, newName);
                  await refreshRooms();
                },
                done: (newName) => t('rooms:rename.roomDone', { name, newName }),
                failed: () => t('rooms:rename.roomFailed', { name }),
              })
            }
          >
            {t('rooms:rename.action')}
          </MenuItem>
          <MenuItem
            onClick={() =>
              onConfirm({
                title: t('rooms:delete.roomTitle', { name }),
                text: t('rooms:delete.roomText', { name }),
                confirmLabel: t('rooms:delete.confirm'),
                run: async () => {
                  await deleteRoom(room.uuid);
                  await refreshRooms();
                },
                done: t('rooms:delete.roomDone', { name }),
                failed: t('rooms:delete.roomFailed', { name }),
              })
            }
          >
            {t('rooms:delete.action')}
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/**
 * Data rooms home (SPEC §2 "all data rooms"): the rooms where the caller has a role on the room,
 * newest first, search by name, paged by the server's cursor; create (only offered when the room
 * list's `mayCreate.plain` says the server would allow it), rename, delete.
 */
export function RoomsPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const dateFormat = useDateFormat();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS, (value) => value === '');
  // The cursors walked so far: Back pops one, a new search starts at the first page.
  const [cursors, setCursors] = useState<{ q: string; stack: string[] }>({ q: '', stack: [] });
  const stack = cursors.q === query ? cursors.stack : [];
  const cursor = stack.at(-1);
  const rooms = useRooms({ q: query, ...(cursor ? { cursor } : {}) });
  const [naming, setNaming] = useState<NameRequest | null>(null);
  const [confirming, setConfirming] = useState<ConfirmRequest | null>(null);

  const openCreate = () =>
    setNaming({
      title: t('rooms:create.title'),
      label: t('rooms:create.nameLabel'),
      submitLabel: t('rooms:create.submit'),
      initial: '',
      run: async (name) => {
        const room = await createRoom(name);
        track(ANALYTICS_ACTIONS.dataRoomCreated);
        await refreshRooms();
        void navigate(ROUTES.room(room.uuid));
      },
      done: (name) => t('rooms:create.done', { name }),
      failed: (name) => t('rooms:create.failed', { name }),
    });

  const columns: DataTableColumn<Room>[] = [
    { id: 'name', header: t('rooms:list.columns.name'), cell: (room) => <RouterLink to={ROUTES.room(room.uuid)}>{room.name}</RouterLink> },
    { id: 'role', header: t('rooms:list.columns.role'), cell: (room) => <RoleBadge role={room.role} /> },
    { id: 'updated', header: t('rooms:list.columns.updated'), cell: (room) => dateFormat.format(room.updatedAt) },
    { id: 'actions', header: t('rooms:list.columns.actions'), cell: (room) => <RoomActions room={room} onName={setNaming} onConfirm={setConfirming} /> },
  ];
  const nextCursor = rooms.data?.nextCursor ?? null;
  const mayCreate = rooms.data?.mayCreate.plain ?? false;

  return (
    <>
      <PageHeading focusOnMount>{t('rooms:list.title')}</PageHeading>
      <RoomsSearchForm />
      <div className={styles.toolbar}>
        <Field label={t('rooms:list.search')}>
          <SearchBox value={search} onChange={(_e, data) => setSearch(data.value)} style={{ minWidth: 260 }} />
        </Field>
        {/* Only for those the server lets create rooms (SPEC §6 creator role or licence, narrowed by Secure rooms › General). */}
        {mayCreate ? (
          <Button appearance="primary" icon={<AddRegular />} onClick={openCreate}>
            {t('rooms:create.action')}
          </Button>
        ) : null}
        {/* Issue 32 §2: the rooms others shared and the newest files across the rooms. */}
        <RouterLink to={ROUTES.roomsRecent}>{t('roomSelect:recent.nav')}</RouterLink>
        {rooms.isValidating ? <Spinner size="tiny" label={t('common:loading')} /> : null}
      </div>
      <DataTable
        label={t('rooms:list.tableLabel')}
        columns={columns}
        rows={rooms.data?.rooms}
        rowKey={(room) => room.uuid}
        loading={rooms.isLoading}
        {...(rooms.error ? { error: t('rooms:list.loadError') } : {})}
        empty={
          <div className={styles.empty}>
            <Text as="p" weight="semibold">
              {query ? t('rooms:list.noResults', { q: query }) : t('rooms:list.empty')}
            </Text>
            {query ? null : <Text as="p">{mayCreate ? t('rooms:list.emptyHint') : t('rooms:list.emptyHintInvited')}</Text>}
          </div>
        }
      />
      {stack.length > 0 || nextCursor ? (
        <nav className={styles.pager} aria-label={t('rooms:list.paging')}>
          <Button disabled={stack.length === 0} onClick={() => setCursors({ q: query, stack: stack.slice(0, -1) })}>
            {t('rooms:list.previous')}
          </Button>
          <Button disabled={!nextCursor} onClick={() => nextCursor && setCursors({ q: query, stack: [...stack, nextCursor] })}>
            {t('rooms:list.next')}
          </Button>
        </nav>
      ) : null}
      <StorageQuotaView />
      <NameDialog request={naming} onClose={() => setNaming(null)} />
      <ConfirmDialog request={confirming} onClose={() => setConfirming(null)} />
    </>
  );
}
