import { Button, makeStyles, Menu, MenuItem, MenuItemLink, MenuList, MenuPopover, MenuTrigger, Spinner, Text, tokens } from '@fluentui/react-components';
import { BinRecycleRegular, DeleteRegular, FolderAddRegular, FolderArrowUpRegular, FolderLinkRegular, FolderRegular, MoreHorizontalRegular, PeopleRegular, RenameRegular } from '@fluentui/react-icons';
import { isApiError } from '@shared/api/api-error';
import { API_BASE } from '@shared/contract/constants';
import { ROOM_OPS_PATHS } from '@shared/contract/room-ops';
import { ROOM_PERMISSIONS, type RoomContents, type RoomFile, type RoomFileSort, type RoomFolder } from '@shared/contract/rooms';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { plainDownloadClick } from '@web/lib/plain-download';
import { ROUTES } from '@web/lib/routes';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { HIGHLIGHT_PARAM } from './api/rooms-search';
import { RoomSearch } from './room-search';
import { createFolder, deleteFolder, deleteRoom, refreshRooms, renameFolder, renameRoom, ROOM_FILES_PAGE_SIZE, useRoomContents } from './api/rooms';
import { DetailsPanel, type DetailsItem } from './details-panel';
import { MoveDialog, type MoveItem } from './move-dialog';
import { PreviewDialog } from './preview-dialog';
import { plainPreviewSource } from './preview/plain-source';
import { ConfirmDialog, NameDialog, type ConfirmRequest, type NameRequest } from './room-dialogs';
import { RoomActivity } from './room-activity';
import { RoomFiles, type FilesPaging } from './room-files';
import { SelectionBar, useRoomSelection, type SelectedItem } from './room-selection';
import { RoomStorage } from './storage-quota';
import { LabelBadges, LabelDialog, LabelFilter, matchesLabels, NO_LABEL_FILTER, type LabelFilterValue, type LabelRequest } from './room-labels';
import { RoleBadge, useDateFormat } from './room-format';
import { ShareDialog } from './share-dialog';
import { RequestFilesDialog } from './requests/request-dialog';
import { RetentionButton, RoomRetentionNote } from './retention-dialog';
import { RoomRequestsSection } from './requests/requests-section';
import { FolderLinkDialog, type FolderLinkRequest } from './links/folder-link-dialog';
import { RoomLinksSection } from './links/room-links-section';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({
  // The context menu of "here" stands right after the last step (outside the list of steps).
  crumbs: { marginBottom: '8px', display: 'flex', flexWrap: 'wrap', gap: '4px', alignItems: 'center' },
  crumbList: { display: 'flex', flexWrap: 'wrap', gap: '4px', listStyle: 'none', margin: 0, padding: 0, alignItems: 'center' },
  separator: { color: tokens.colorNeutralForeground3, padding: '0 2px' },
  toolbar: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center', margin: '0 0 16px' },
  section: { marginTop: '24px' },
  sectionHeading: { margin: '0 0 8px', fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  folderName: { display: 'inline-flex', gap: '6px', alignItems: 'center' },
});

/** Data rooms › room › folders above › here; every step but the last is a link. */
function Breadcrumb({ contents, menu }: { contents: RoomContents; menu: ReactNode }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const { room, folder, path } = contents;
  // `path` runs from the room down to the folder's parent; its first step may be the room itself.
  const folders = path.filter((step) => step.uuid !== room.uuid);
  const steps = [
    { key: 'home', label: t('rooms:list.title'), to: ROUTES.datarooms },
    { key: room.uuid, label: room.name, to: ROUTES.room(room.uuid) },
    ...folders.map((step) => ({ key: step.uuid, label: step.name, to: ROUTES.room(room.uuid, step.uuid) })),
    ...(folder ? [{ key: folder.uuid, label: folder.name, to: ROUTES.room(room.uuid, folder.uuid) }] : []),
  ];
  return (
    <nav aria-label={t('rooms:room.breadcrumb')} className={styles.crumbs}>
      <ol className={styles.crumbList}>
        {steps.map((step, index) => (
          <li key={step.key}>
            {index > 0 ? (
              <span aria-hidden="true" className={styles.separator}>
                ›{' '}
              </span>
            ) : null}
            {index === steps.length - 1 ? <span aria-current="page">{step.label}</span> : <RouterLink to={step.to}>{step.label}</RouterLink>}
          </li>
        ))}
      </ol>
      {menu}
    </nav>
  );
}

/**
 * A data room's top level or one of its folders (SPEC §2): breadcrumb, the sub-folders, and what
 * the caller's role there allows (SPEC §6): OWNER and EDITOR create, rename and delete folders;
 * only an OWNER renames or deletes the room and shares; VIEWER and PREVIEWER only look.
 */
export function RoomPage() {
  const { roomUuid = '', folderUuid } = useParams();
  // A room opened (not each of its folders).
  useEffect(() => {
    if (roomUuid) track(ANALYTICS_ACTIONS.dataRoomSelected);
  }, [roomUuid]);
  // Another room or folder starts on its first page again.
  return <RoomLoader key={`${roomUuid}/${folderUuid ?? ''}`} roomUuid={roomUuid} folderUuid={folderUuid} />;
}

function RoomLoader({ roomUuid, folderUuid }: { roomUuid: string; folderUuid: string | undefined }) {
  const { t } = useTranslation();
  const [order, setOrder] = useState<{ sort: RoomFileSort; order: 'asc' | 'desc' }>({ sort: 'name', order: 'asc' });
  // The cursors of the pages shown so far: the last is this page's, dropping it goes back one page.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const contents = useRoomContents(roomUuid, folderUuid, { ...order, pageSize: ROOM_FILES_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  if (contents.error) {
    const missing = isApiError(contents.error) && (contents.error.status === 404 || contents.error.status === 400);
    return (
      <>
        <PageHeading focusOnMount>{t('rooms:room.title')}</PageHeading>
        <Alert type="error">{missing ? t('rooms:room.notFound') : t('rooms:room.loadError')}</Alert>
        <p>
          <RouterLink to={ROUTES.datarooms}>{t('rooms:room.backToRooms')}</RouterLink>
        </p>
      </>
    );
  }
  if (!contents.data) return <Spinner label={t('common:loading')} />;
  const data = contents.data;
  // A Secure room opened here by its address (issue 32): its names are sealed and the plain actions
  // cannot serve it; it opens under Secure rooms.
  if (data.room.encrypted) {
    return (
      <>
        <PageHeading focusOnMount>{t('rooms:room.title')}</PageHeading>
        <Alert type="info">{t('rooms:room.secureRoomHere')}</Alert>
        <p>
          <RouterLink to={ROUTES.secureRoom(roomUuid, folderUuid)}>{t('rooms:room.openSecureRoom')}</RouterLink>
        </p>
      </>
    );
  }
  const paging: FilesPaging = {
    page: cursors.length + 1,
    pageSize: ROOM_FILES_PAGE_SIZE,
    ...order,
    busy: contents.isLoading || contents.isValidating,
    onSort: (sort) => {
      // The same column again turns the order round; a cursor belongs to one order, so back to page 1.
      setOrder((current) => ({ sort, order: current.sort === sort && current.order === 'asc' ? 'desc' : 'asc' }));
      setCursors([]);
    },
    onPrevious: () => setCursors((current) => current.slice(0, -1)),
    onNext: () => {
      if (data.nextCursor) setCursors((current) => [...current, data.nextCursor!]);
    },
  };
  return <RoomView contents={data} paging={paging} />;
}

function RoomView({ contents, paging }: { contents: RoomContents; paging: FilesPaging }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const dateFormat = useDateFormat();
  const [naming, setNaming] = useState<NameRequest | null>(null);
  const [confirming, setConfirming] = useState<ConfirmRequest | null>(null);
  const [sharing, setSharing] = useState(false);
  const [moving, setMoving] = useState<MoveItem | MoveItem[] | null>(null);
  const [details, setDetails] = useState<DetailsItem | null>(null);
  const [previewing, setPreviewing] = useState<RoomFile | null>(null);
  const previewSource = useMemo(() => (previewing ? plainPreviewSource(previewing, () => void refreshRooms()) : null), [previewing]);
  const [requesting, setRequesting] = useState(false);
  const [labelFilter, setLabelFilter] = useState<LabelFilterValue>(NO_LABEL_FILTER);
  const [labeling, setLabeling] = useState<LabelRequest | null>(null);
  const [folderLink, setFolderLink] = useState<FolderLinkRequest | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const { room, folder } = contents;
  // Issue 32 §2: rows picked in the folder and file tables (of the page shown; another page starts empty).
  const selection = useRoomSelection();
  const { clear: clearSelection } = selection;
  useEffect(() => clearSelection(), [clearSelection, paging.page]);
  const selectedItems: SelectedItem[] = [
    ...contents.folders.filter((f) => selection.selected.has(f.uuid)).map((f) => ({ kind: 'folder' as const, uuid: f.uuid, name: f.name, parentUuid: f.parentUuid, role: f.role })),
    ...contents.files.filter((f) => selection.selected.has(f.uuid)).map((f) => ({ kind: 'file' as const, uuid: f.uuid, name: f.name, parentUuid: f.folderUuid, role: f.role })),
  ];
  const here = folder ?? room;
  const zipUrl = `${API_BASE}${folder ? ROOM_OPS_PATHS.folderZip(room.uuid, folder.uuid) : ROOM_OPS_PATHS.roomZip(room.uuid)}`;
  const role = here.role;
  const may = ROOM_PERMISSIONS[role];
  const parentTo = folder ? ROUTES.room(room.uuid, folder.parentUuid ?? undefined) : ROUTES.datarooms;
  // A search hit's item: marked in its table and scrolled to.
  const highlight = useSearchParams()[0].get(HIGHLIGHT_PARAM);
  useEffect(() => {
    if (highlight) document.querySelector('[data-highlighted="true"]')?.scrollIntoView({ block: 'center' });
  }, [highlight]);

  const newFolder = () =>
    setNaming({
      title: t('rooms:folder.createTitle', { name: here.name }),
      label: t('rooms:folder.nameLabel'),
      submitLabel: t('rooms:folder.create'),
      initial: '',
      run: async (name) => {
        await createFolder(room.uuid, name, folder?.uuid ?? null);
        await refreshRooms();
      },
      done: (name) => t('rooms:folder.created', { name }),
      failed: (name) => t('rooms:folder.createFailed', { name }),
    });

  const renameFolderRequest = (item: RoomFolder): NameRequest => ({
    title: t('rooms:rename.folderTitle', { name: item.name }),
    label: t('rooms:folder.nameLabel'),
    submitLabel: t('rooms:rename.submit'),
    initial: item.name,
    run: async (name) => {
      await renameFolder(room.uuid, item.uuid, name);
      await refreshRooms();
    },
    done: (name) => t('rooms:rename.folderDone', { name: item.name, newName: name }),
    failed: () => t('rooms:rename.folderFailed', { name: item.name }),
  });

  const deleteFolderRequest = (item: RoomFolder, leave: boolean): ConfirmRequest => ({
    title: t('rooms:delete.folderTitle', { name: item.name }),
    text: t('rooms:delete.folderText', { name: item.name }),
    confirmLabel: t('rooms:delete.confirm'),
    run: async () => {
      await deleteFolder(room.uuid, item.uuid);
      if (leave) await navigate(parentTo);
      await refreshRooms();
    },
    done: t('rooms:delete.folderDone', { name: item.name }),
    failed: t('rooms:delete.folderFailed', { name: item.name }),
  });

  const renameHere = () =>
    folder
      ? setNaming(renameFolderRequest(folder))
      : setNaming({
          title: t('rooms:rename.roomTitle', { name: room.name }),
          label: t('rooms:create.nameLabel'),
          submitLabel: t('rooms:rename.submit'),
          initial: room.name,
          run: async (name) => {
            await renameRoom(room.uuid, name);
            await refreshRooms();
          },
          done: (name) => t('rooms:rename.roomDone', { name: room.name, newName: name }),
          failed: () => t('rooms:rename.roomFailed', { name: room.name }),
        });

  const deleteHere = () =>
    folder
      ? setConfirming(deleteFolderRequest(folder, true))
      : setConfirming({
          title: t('rooms:delete.roomTitle', { name: room.name }),
          text: t('rooms:delete.roomText', { name: room.name }),
          confirmLabel: t('rooms:delete.confirm'),
          run: async () => {
            await deleteRoom(room.uuid);
            await navigate(ROUTES.datarooms);
            await refreshRooms();
          },
          done: t('rooms:delete.roomDone', { name: room.name }),
          failed: t('rooms:delete.roomFailed', { name: room.name }),
        });

  // Renaming or deleting the room itself is the OWNER's; a folder's is the EDITOR's too.
  const mayChangeHere = folder ? may.edit : role === 'OWNER';

  const columns: DataTableColumn<RoomFolder>[] = [
    {
      id: 'name',
      header: t('rooms:room.columns.name'),
      cell: (item) => (
        <span className={styles.folderName}>
          <FolderRegular aria-hidden="true" />
          <RouterLink to={ROUTES.room(room.uuid, item.uuid)}>{item.name}</RouterLink>
          <LabelBadges item={item} />
        </span>
      ),
    },
    { id: 'role', header: t('rooms:room.columns.role'), cell: (item) => <RoleBadge role={item.role} /> },
    { id: 'created', header: t('rooms:room.columns.created'), cell: (item) => dateFormat.format(item.createdAt) },
    {
      id: 'actions',
      header: t('rooms:room.columns.actions'),
      cell: (item) => (
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <Button size="small" icon={<MoreHorizontalRegular />} aria-label={t('rooms:room.actionsFor', { name: item.name })} />
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              <MenuItem onClick={() => setDetails({ kind: 'folder', room, folder: item })}>{t('rooms:details.action')}</MenuItem>
              {ROOM_PERMISSIONS[item.role].edit ? (
                <MenuItem onClick={() => setLabeling({ area: 'classification', roomUuid: room.uuid, item: { kind: 'folder', ...item } })}>{t('roomComments:classification.action')}</MenuItem>
              ) : null}
              {ROOM_PERMISSIONS[item.role].edit ? (
                <MenuItem onClick={() => setLabeling({ area: 'status', roomUuid: room.uuid, item: { kind: 'folder', ...item } })}>{t('roomComments:status.action')}</MenuItem>
              ) : null}
              {/* Public folder and drop links: the edit right, plain rooms only (the server cannot read or seal a Secure room's files). */}
              {ROOM_PERMISSIONS[item.role].edit && !room.encrypted ? (
                <MenuItem onClick={() => setFolderLink({ roomUuid: room.uuid, folder: item, kind: 'folder' })}>{t('roomLinks:folderAction')}</MenuItem>
              ) : null}
              {ROOM_PERMISSIONS[item.role].edit && !room.encrypted ? (
                <MenuItem onClick={() => setFolderLink({ roomUuid: room.uuid, folder: item, kind: 'drop' })}>{t('roomLinks:dropAction')}</MenuItem>
              ) : null}
              {ROOM_PERMISSIONS[item.role].edit ? <MenuItem onClick={() => setNaming(renameFolderRequest(item))}>{t('rooms:rename.action')}</MenuItem> : null}
              {ROOM_PERMISSIONS[item.role].edit ? (
                <MenuItem onClick={() => setMoving({ kind: 'folder', uuid: item.uuid, name: item.name, parentUuid: item.parentUuid })}>{t('rooms:move.action')}</MenuItem>
              ) : null}
              {ROOM_PERMISSIONS[item.role].delete ? <MenuItem onClick={() => setConfirming(deleteFolderRequest(item, false))}>{t('rooms:delete.action')}</MenuItem> : null}
            </MenuList>
          </MenuPopover>
        </Menu>
      ),
    },
  ];

  return (
    <>
      <Breadcrumb
        contents={contents}
        menu={
          <Menu>
            <MenuTrigger disableButtonEnhancement>
              <Button size="small" appearance="subtle" icon={<MoreHorizontalRegular />} aria-label={t('rooms:crumbMenu.label', { name: here.name })} />
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {may.manageAccess ? <MenuItem onClick={() => setSharing(true)}>{t('rooms:share.action')}</MenuItem> : null}
                {may.edit ? <MenuItem onClick={newFolder}>{t('rooms:folder.createAction')}</MenuItem> : null}
                {may.upload ? <MenuItem onClick={() => picker.current?.click()}>{t('rooms:files.upload')}</MenuItem> : null}
                {/* Data-room requests: plain rooms only (the server cannot put files into an E2E room). */}
                {may.upload && !room.encrypted ? <MenuItem onClick={() => setRequesting(true)}>{t('roomRequests:request.action')}</MenuItem> : null}
                {may.download ? (
                  // Through the transfer centre (bytes so far: a streamed ZIP has no size); the link stays for "save link as".
                  <MenuItemLink href={zipUrl} download={`${here.name}.zip`} onClick={plainDownloadClick({ url: zipUrl, name: `${here.name}.zip` })}>
                    {t('rooms:files.zip')}
                  </MenuItemLink>
                ) : null}
                <MenuItem onClick={() => setDetails(folder ? { kind: 'folder', room, folder } : { kind: 'room', room })}>{t('rooms:details.action')}</MenuItem>
                {mayChangeHere ? <MenuItem onClick={renameHere}>{t('rooms:rename.action')}</MenuItem> : null}
                {mayChangeHere && may.delete ? <MenuItem onClick={deleteHere}>{t('rooms:delete.action')}</MenuItem> : null}
              </MenuList>
            </MenuPopover>
          </Menu>
        }
      />
      <PageHeading focusOnMount>{here.name}</PageHeading>
      <Text as="p">
        {t('rooms:room.yourRole')} <RoleBadge role={role} />
      </Text>
      {folder ? null : <RoomRetentionNote roomUuid={room.uuid} />}
      <RoomStorage roomUuid={room.uuid} />
      <div className={styles.toolbar} role="toolbar" aria-label={t('rooms:room.toolbar')}>
        {may.edit ? (
          <Button appearance="primary" icon={<FolderAddRegular />} onClick={newFolder}>
            {t('rooms:folder.createAction')}
          </Button>
        ) : null}
        {may.manageAccess ? (
          <Button icon={<PeopleRegular />} onClick={() => setSharing(true)}>
            {t('rooms:share.action')}
          </Button>
        ) : null}
        {folder && may.edit && !room.encrypted ? (
          <>
            <Button icon={<FolderLinkRegular />} onClick={() => setFolderLink({ roomUuid: room.uuid, folder, kind: 'folder' })}>
              {t('roomLinks:folderAction')}
            </Button>
            <Button icon={<FolderArrowUpRegular />} onClick={() => setFolderLink({ roomUuid: room.uuid, folder, kind: 'drop' })}>
              {t('roomLinks:dropAction')}
            </Button>
          </>
        ) : null}
        {mayChangeHere ? (
          <Button icon={<RenameRegular />} onClick={renameHere}>
            {folder ? t('rooms:rename.folderAction') : t('rooms:rename.roomAction')}
          </Button>
        ) : null}
        {mayChangeHere && may.delete ? (
          <Button icon={<DeleteRegular />} onClick={deleteHere}>
            {folder ? t('rooms:delete.folderAction') : t('rooms:delete.roomAction')}
          </Button>
        ) : null}
        {/* The room's OWNER sets its retention policy (issue 31 §2), at the room's level. */}
        {!folder && room.role === 'OWNER' ? <RetentionButton roomUuid={room.uuid} /> : null}
        {/* Who may delete here may undo it (issue 32 §1): the room's trash. */}
        {may.delete || ROOM_PERMISSIONS[room.role].delete ? (
          <Button icon={<BinRecycleRegular />} onClick={() => void navigate(ROUTES.roomTrash(room.uuid))}>
            {t('rooms:trash.open')}
          </Button>
        ) : null}
      </div>
      <LabelFilter value={labelFilter} onChange={setLabelFilter} />
      <RoomSearch roomUuid={room.uuid} roomName={room.name} />
      <SelectionBar room={room} items={selectedItems} onClear={selection.clear} onMove={setMoving} onConfirm={setConfirming} />
      {/* The server sends the sub-folders with the first page of files only. */}
      {paging.page === 1 ? (
      <section className={styles.section} aria-labelledby="room-folders-heading">
        <h2 id="room-folders-heading" className={styles.sectionHeading}>
          {t('rooms:room.folders')}
        </h2>
        <DataTable
          labelledBy="room-folders-heading"
          columns={columns}
          rows={contents.folders.filter(matchesLabels(labelFilter))}
          rowKey={(item) => item.uuid}
          highlighted={(item) => item.uuid === highlight}
          selection={{ ...selection, rowLabel: (item) => t('roomSelect:selectRow', { name: item.name }), allLabel: t('roomSelect:selectAllFolders') }}
          empty={<Text as="p">{contents.folders.length > 0 ? t('roomComments:filter.noMatch') : may.edit ? t('rooms:room.noFoldersEditor') : t('rooms:room.noFolders')}</Text>}
        />
      </section>
      ) : null}
      <RoomFiles contents={contents} selection={selection} onName={setNaming} onConfirm={setConfirming} onMove={setMoving}
        onDetails={(file) => setDetails({ kind: 'file', room, file })}
        onPreview={setPreviewing}
        picker={picker}
        highlight={highlight}
        paging={paging}
        filter={labelFilter}
        onLabel={(area, file) => setLabeling({ area, roomUuid: room.uuid, item: { kind: 'file', ...file } })}
      />
      {may.activity ? <RoomActivity key={here.uuid} roomUuid={room.uuid} folderUuid={folder?.uuid ?? null} /> : null}
      {may.manageAccess && !room.encrypted ? <RoomRequestsSection roomUuid={room.uuid} roomName={room.name} /> : null}
      {/* Every public link of the room (issue 32): its OWNER's, at the room's level (the list is room-wide). */}
      {!folder && room.role === 'OWNER' ? <RoomLinksSection roomUuid={room.uuid} roomName={room.name} /> : null}
      <NameDialog request={naming} onClose={() => setNaming(null)} />
      <ConfirmDialog request={confirming} onClose={() => setConfirming(null)} />
      {/* A moved selection leaves the view: its ids leave the selection too. */}
      <MoveDialog room={room} item={moving} onClose={() => setMoving(null)} onMoved={Array.isArray(moving) ? clearSelection : undefined} />
      <LabelDialog request={labeling} onClose={() => setLabeling(null)} />
      <DetailsPanel item={details} onClose={() => setDetails(null)} />
      <PreviewDialog source={previewSource} onClose={() => setPreviewing(null)} />
      <FolderLinkDialog request={folderLink} onClose={() => setFolderLink(null)} />
      {may.upload && !room.encrypted ? (
        <RequestFilesDialog open={requesting} onClose={() => setRequesting(false)} roomUuid={room.uuid} folderUuid={folder?.uuid ?? null} placeName={folder ? `${room.name} / ${folder.name}` : room.name} />
      ) : null}
      {may.manageAccess ? <ShareDialog open={sharing} onClose={() => setSharing(false)} roomUuid={room.uuid} folder={folder} itemName={here.name} /> : null}
    </>
  );
}
