import { Button, makeStyles, mergeClasses, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, Text, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular, ArrowSortDownRegular, ArrowSortRegular, ArrowSortUpRegular, ArrowUploadRegular, DocumentRegular, MoreHorizontalRegular } from '@fluentui/react-icons';
import { ROOM_PERMISSIONS, type RoomContents, type RoomFile, type RoomFileSort } from '@shared/contract/rooms';
import { DataTable, type DataTableColumn, type DataTableSelection } from '@web/components/data-table';
import { plainDownloadClick } from '@web/lib/plain-download';
import { useTransfer } from '@web/lib/transfer-store';
import { useState, type DragEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteRoomFile, renameRoomFile, roomFileContentUrl, startRoomUpload, type VersionConflictChoice } from './api/room-files';
import { fetchRoomContents, refreshRooms } from './api/rooms';
import { createFolderTree, dropReadFailure, foldersToCreate, placedFromDrop, UnreadableDropError, type PlacedFile } from './folder-drop';
import { UploadFolderButton } from './upload-folder-button';
import { roomErrorText } from './room-errors';
import { scanAllowsContent, ScanStatus } from './scan-state';
import { useNotify } from '@web/lib/toasts';
import type { MoveItem } from './move-dialog';
import type { ConfirmRequest, NameRequest } from './room-dialogs';
import { useDateFormat } from './room-format';
import { LabelBadges, matchesLabels, type LabelFilterValue, type LabelRequest } from './room-labels';
import { VersionConflictDialog, VersionsDialog, type ConflictRequest } from './version-dialogs';
import { formatSize } from '@web/lib/format-size';
import { ShareLinkDialog } from './links/share-link-dialog';
import { RoomUploadProgress } from './upload-progress';
import { PersonName } from './person-name';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({
  section: { marginTop: '24px' },
  head: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap', margin: '0 0 8px' },
  heading: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  hidden: { display: 'none' },
  progress: { maxWidth: '480px', margin: '0 0 12px' },
  fileName: { display: 'inline-flex', gap: '6px', alignItems: 'center' },
  dropZone: { border: `2px dashed transparent`, borderRadius: tokens.borderRadiusMedium, padding: '4px' },
  pager: { display: 'flex', gap: '12px', alignItems: 'center', marginTop: '12px', flexWrap: 'wrap' },
  sortButton: { padding: 0, minWidth: 0, fontWeight: tokens.fontWeightSemibold },
  dragging: { border: `2px dashed ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
});

interface Props {
  contents: RoomContents;
  onName: (request: NameRequest) => void;
  onConfirm: (request: ConfirmRequest) => void;
  onMove: (item: MoveItem) => void;
  onDetails: (file: RoomFile) => void;
  onPreview: (file: RoomFile) => void;
  /** The hidden file input, so the breadcrumb menu's "Upload" opens the same picker. */
  picker: RefObject<HTMLInputElement | null>;
  /** A search hit's file uuid, marked in the table. */
  highlight?: string | null;
  paging: FilesPaging;
  /** Classification and status filter (issue 31 §1): only the matching files of this page show. */
  filter: LabelFilterValue;
  /** Opens the classification or file-status dialog of a file. */
  onLabel: (area: LabelRequest['area'], file: RoomFile) => void;
  /** The rows picked for the selection toolbar (issue 32 §2). */
  selection: Pick<DataTableSelection<RoomFile>, 'selected' | 'onChange'>;
}

/** The page of files shown and how to get another (the server pages and sorts; RoomPage keeps the cursors). */
export interface FilesPaging {
  /** 1-based. */
  page: number;
  pageSize: number;
  sort: RoomFileSort;
  order: 'asc' | 'desc';
  busy: boolean;
  onSort: (sort: RoomFileSort) => void;
  onPrevious: () => void;
  onNext: () => void;
}

/**
 * The complete files of a room or folder (SPEC §2): name, size, uploader, date. OWNER and EDITOR
 * upload (through the transfer engine, resumable, shown in the transfer centre too), rename and
 * delete (after a confirmation); everyone but a PREVIEWER downloads (SPEC §6).
 */
export function RoomFiles({ contents, onName, onConfirm, onMove, onDetails, onPreview, picker: input, highlight, paging, filter, onLabel, selection }: Props) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const dateFormat = useDateFormat();
  const [transferId, setTransferId] = useState<string | undefined>();
  const transfer = useTransfer(transferId);
  const { room, folder } = contents;
  const here = folder ?? room;
  const may = ROOM_PERMISSIONS[here.role];
  const uploading = transfer?.state === 'pending' || transfer?.state === 'running';
  const notify = useNotify();
  const [dragging, setDragging] = useState(false);
  const [conflict, setConflict] = useState<ConflictRequest | null>(null);
  const [versionsOf, setVersionsOf] = useState<RoomFile | null>(null);
  const [linkOf, setLinkOf] = useState<RoomFile | null>(null);
  function upload(files: File[], folderOf?: (string | null)[]) {
    if (files.length === 0) return;
    // A name that is taken asks the person (one dialog at a time: the transfer waits for the answer);
    // "Apply to all remaining conflicts" makes that answer the batch's for its later conflicts.
    let standing: VersionConflictChoice | null = null;
    const onConflict = (name: string, remaining: number) =>
      standing
        ? Promise.resolve(standing)
        : new Promise<VersionConflictChoice>((answer) =>
            setConflict({
              name,
              remaining,
              answer: (choice, forAll) => {
                if (forAll) standing = choice;
                answer(choice);
              },
            }),
          );
    const title = files.length === 1 ? files[0]!.name : t('rooms:files.uploadTitle', { count: files.length, name: here.name });
    const started = startRoomUpload(files, { roomUuid: room.uuid, folderUuid: folder?.uuid ?? null, title, onConflict, ...(folderOf ? { folderOf } : {}) });
    setTransferId(started.id);
    // The transfer centre's watcher toasts the outcome (with the server's reason on a failure).
    void started.done.then(() => refreshRooms());
  }

  /** Dropped or picked files and folders: the folder tree first (existing folders reused), then one transfer. */
  async function uploadPlaced(placed: PlacedFile[]) {
    const paths = foldersToCreate(placed);
    const files = placed.filter((p): p is PlacedFile & { file: File } => p.file !== null);
    if (paths.length === 0) return upload(files.map((p) => p.file));
    let uuidOf: Map<string, string | null>;
    try {
      uuidOf = await createFolderTree(contents, paths, (parent) => fetchRoomContents(room.uuid, parent));
    } catch (error) {
      const text = roomErrorText(error);
      notify('error', t('rooms:drop.folderFailed', { name: (error as { folderName?: string }).folderName ?? here.name }), t(`rooms:${text.key}`, text.values));
      return;
    } finally {
      await refreshRooms();
    }
    if (files.length === 0) notify('success', t('rooms:drop.foldersCreated', { count: paths.length, name: here.name }));
    else upload(files.map((p) => p.file), files.map((p) => uuidOf.get(p.dirs.join('/')) ?? null));
  }

  const drop = {
    onDragOver: (event: DragEvent) => {
      if (!may.upload || uploading || !event.dataTransfer.types.includes('Files')) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!may.upload || uploading) return;
      event.preventDefault();
      setDragging(false);
      void placedFromDrop(event.dataTransfer).then(uploadPlaced, (error: unknown) => {
        // A folder handed over without its contents: refused with its name, never flattened (issue 32 §1).
        if (error instanceof UnreadableDropError) {
          notify('warning', t('rooms:drop.unreadable', { names: error.names.join(', ') }));
          return;
        }
        const failure = dropReadFailure(error);
        notify('error', t(failure.key, failure.values));
      });
    },
  };

  // Issue 32: a member who may not upload (VIEWER, PREVIEWER) is told why a drop does nothing,
  // and the browser does not open the dropped file in place of the page.
  const refusedDrop = {
    onDragOver: (event: DragEvent) => {
      if (!event.dataTransfer.types.includes('Files')) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'none';
    },
    onDrop: (event: DragEvent) => {
      if (!event.dataTransfer.types.includes('Files')) return;
      event.preventDefault();
      notify('warning', t('rooms:drop.refusedNoUpload'));
    },
  };

  const rename = (file: RoomFile): NameRequest => ({
    title: t('rooms:files.renameTitle', { name: file.name }),
    label: t('rooms:files.nameLabel'),
    submitLabel: t('rooms:rename.submit'),
    initial: file.name,
    run: async (name) => {
      await renameRoomFile(file, name);
      await refreshRooms();
    },
    done: (name) => t('rooms:files.renamed', { name: file.name, newName: name }),
    failed: () => t('rooms:files.renameFailed', { name: file.name }),
  });

  const remove = (file: RoomFile): ConfirmRequest => ({
    title: t('rooms:files.deleteTitle', { name: file.name }),
    text: t('rooms:files.deleteText', { name: file.name }),
    confirmLabel: t('rooms:delete.confirm'),
    run: async () => {
      await deleteRoomFile(file);
      await refreshRooms();
    },
    done: t('rooms:files.deleted', { name: file.name }),
    failed: t('rooms:files.deleteFailed', { name: file.name }),
  });

  /** A header that sorts by its column (again: the other way round); `aria-sort` tells the state. */
  const sortable = (sort: RoomFileSort, label: string): Pick<DataTableColumn<RoomFile>, 'header' | 'sort'> => {
    const active = paging.sort === sort;
    const Icon = !active ? ArrowSortRegular : paging.order === 'asc' ? ArrowSortUpRegular : ArrowSortDownRegular;
    return {
      sort: active ? (paging.order === 'asc' ? 'ascending' : 'descending') : 'none',
      header: (
        <Button appearance="transparent" size="small" className={styles.sortButton} icon={<Icon />} iconPosition="after" onClick={() => paging.onSort(sort)}>
          {label}
        </Button>
      ),
    };
  };

  const pages = Math.max(1, Math.ceil(contents.totalFiles / paging.pageSize));
  const start = (paging.page - 1) * paging.pageSize + 1;

  const columns: DataTableColumn<RoomFile>[] = [
    {
      id: 'name',
      ...sortable('name', t('rooms:files.columns.name')),
      cell: (file) => (
        <span className={styles.fileName}>
          <DocumentRegular aria-hidden="true" />
          {file.name}
          <ScanStatus state={file.scanState} encrypted={room.encrypted} />
          <LabelBadges item={file} />
        </span>
      ),
    },
    { id: 'size', ...sortable('size', t('rooms:files.columns.size')), cell: (file) => formatSize(file.size, i18n.language) },
    { id: 'uploadedBy', header: t('rooms:files.columns.uploadedBy'), cell: (file) => <PersonName email={file.uploadedBy} name={file.uploadedByName} /> },
    { id: 'date', ...sortable('updatedAt', t('rooms:files.columns.modified')), cell: (file) => dateFormat.format(file.updatedAt) },
    {
      id: 'actions',
      header: t('rooms:files.columns.actions'),
      cell: (file) => {
        // No download or preview of a file the server would refuse (still scanning or blocked).
        const served = scanAllowsContent(file.scanState);
        const allowed = { ...ROOM_PERMISSIONS[file.role], download: ROOM_PERMISSIONS[file.role].download && served, preview: ROOM_PERMISSIONS[file.role].preview && served };
        return (
          <span className={styles.fileName}>
            {allowed.download ? (
              <Button
                as="a"
                size="small"
                icon={<ArrowDownloadRegular />}
                href={roomFileContentUrl(room.uuid, file.uuid)}
                download={file.name}
                // Through the transfer centre (progress, cancel, retry); the link stays for "save link as".
                onClick={(event) => {
                  track(ANALYTICS_ACTIONS.fileDownloaded);
                  plainDownloadClick({ url: roomFileContentUrl(room.uuid, file.uuid), name: file.name, size: file.size })(event);
                }}
                aria-label={t('rooms:files.downloadFile', { name: file.name })}
              >
                {t('rooms:files.download')}
              </Button>
            ) : null}
            <Menu>
              <MenuTrigger disableButtonEnhancement>
                <Button size="small" icon={<MoreHorizontalRegular />} aria-label={t('rooms:files.actionsFor', { name: file.name })} />
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  {/* A public link hands out the bytes: the edit right (OWNER, EDITOR), plain rooms only (this table's). */}
                  {allowed.edit ? <MenuItem onClick={() => setLinkOf(file)}>{t('roomLinks:action')}</MenuItem> : null}
                  {allowed.preview ? <MenuItem onClick={() => onPreview(file)}>{t('rooms:preview.action')}</MenuItem> : null}
                  <MenuItem onClick={() => onDetails(file)}>{t('rooms:details.action')}</MenuItem>
                  {allowed.edit ? <MenuItem onClick={() => onLabel('classification', file)}>{t('roomComments:classification.action')}</MenuItem> : null}
                  {allowed.edit ? <MenuItem onClick={() => onLabel('status', file)}>{t('roomComments:status.action')}</MenuItem> : null}
                  {allowed.edit ? <MenuItem onClick={() => setVersionsOf(file)}>{t('rooms:versions.action')}</MenuItem> : null}
                  {allowed.edit ? <MenuItem onClick={() => onName(rename(file))}>{t('rooms:rename.action')}</MenuItem> : null}
                  {allowed.edit ? (
                    <MenuItem onClick={() => onMove({ kind: 'file', uuid: file.uuid, name: file.name, parentUuid: file.folderUuid })}>{t('rooms:move.action')}</MenuItem>
                  ) : null}
                  {allowed.delete ? <MenuItem onClick={() => onConfirm(remove(file))}>{t('rooms:delete.action')}</MenuItem> : null}
                </MenuList>
              </MenuPopover>
            </Menu>
          </span>
        );
      },
    },
  ];

  return (
    <section
      className={mergeClasses(styles.section, may.upload && styles.dropZone, dragging && styles.dragging)}
      aria-labelledby="room-files-heading"
      data-testid="room-drop-zone"
      {...(may.upload ? drop : refusedDrop)}
    >
      <div className={styles.head}>
        <h2 id="room-files-heading" className={styles.heading}>
          {t('rooms:files.title')}
        </h2>
        {may.upload ? (
          <>
            <Button icon={<ArrowUploadRegular />} disabled={uploading} onClick={() => input.current?.click()}>
              {t('rooms:files.upload')}
            </Button>
            <input
              ref={input}
              type="file"
              multiple
              className={styles.hidden}
              data-testid="room-file-input"
              aria-label={t('rooms:files.upload')}
              onChange={(event) => {
                upload([...(event.target.files ?? [])]);
                event.target.value = '';
              }}
            />
            <UploadFolderButton disabled={uploading} testId="room-folder-input" onPlaced={(placed) => void uploadPlaced(placed)} />
            <Text size={200}>{t('rooms:drop.hint')}</Text>
          </>
        ) : null}
      </div>
      {transfer && uploading ? (
        <div className={styles.progress}>
          <RoomUploadProgress transfer={transfer} />
        </div>
      ) : null}
      <DataTable
        labelledBy="room-files-heading"
        columns={columns}
        rows={contents.files.filter(matchesLabels(filter))}
        rowKey={(file) => file.uuid}
        highlighted={(file) => file.uuid === highlight}
        selection={{ ...selection, rowLabel: (file) => t('roomSelect:selectRow', { name: file.name }), allLabel: t('roomSelect:selectAllFiles') }}
        empty={<Text as="p">{contents.files.length > 0 ? t('roomComments:filter.noMatch') : may.upload ? t('rooms:files.emptyEditor') : t('rooms:files.empty')}</Text>}
      />
      {contents.totalFiles > paging.pageSize || paging.page > 1 ? (
        <nav className={styles.pager} aria-label={t('rooms:files.paging.label')}>
          <Button disabled={paging.page <= 1 || paging.busy} onClick={paging.onPrevious}>
            {t('rooms:files.paging.previous')}
          </Button>
          <Text aria-live="polite">
            {t('rooms:files.paging.range', { start, end: start + contents.files.length - 1, count: contents.totalFiles, page: paging.page, pages })}
          </Text>
          <Button disabled={!contents.nextCursor || paging.busy} onClick={paging.onNext}>
            {t('rooms:files.paging.next')}
          </Button>
        </nav>
      ) : null}
      <VersionConflictDialog request={conflict} onClose={() => setConflict(null)} />
      <VersionsDialog file={versionsOf} onClose={() => setVersionsOf(null)} />
      <ShareLinkDialog file={linkOf} onClose={() => setLinkOf(null)} />
    </section>
  );
}
