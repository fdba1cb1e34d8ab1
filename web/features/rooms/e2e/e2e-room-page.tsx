import { foldedIncludes, foldForSearch } from '@shared/contract/search-fold';
import { Button, Field, makeStyles, MessageBar, MessageBarBody, SearchBox, Select, Spinner, Tab, TabList, Text } from '@fluentui/react-components';
import { ArrowUploadRegular, BinRecycleRegular, FolderAddRegular, ShareRegular } from '@fluentui/react-icons';
import type { RoomAccessEntry } from '@shared/contract/rooms';
import type { E2eMember } from '@shared/contract/rooms-e2e';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { RoomStorage } from '../storage-quota';
import { RouterLink } from '@web/components/router-link';
import { useAuthState } from '@web/lib/auth';
import { useSecuPassSession } from '@web/lib/crypto';
import { formatSize } from '@web/lib/format-size';
import { ROUTES } from '@web/lib/routes';
import { useNotify } from '@web/lib/toasts';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import useSWR from 'swr';
import { refreshRooms, ROOM_FILES_PAGE_SIZE } from '../api/rooms';
import { HIGHLIGHT_PARAM } from '../api/rooms-search';
import { useE2eFolder } from './e2e-folder-loader';
import { NameDialog, type NameRequest } from '../room-dialogs';
import { RoleBadge } from '../room-format';
import { RoomActivity } from '../room-activity';
import { ShareDialog, type AccessChange, type ShareDialogExtension } from '../share-dialog';
import { SealedActivityName } from './sealed-name';
import {
  declineRoomKey,
  grantRoomKey,
  MemberListNotUpdatedError,
  recordMemberChange,
  listE2eMembers,
  type E2eListedFile,
} from './e2e-room-client';
import { EncryptionActivation, LockedKeysNotice } from './encryption-activation';
import { ApproveMemberDialog, FirstMemberListBar, FirstMemberListDialog, MemberListFlagBadge, useMemberListFlags, type FirstListRequest } from './member-approval';
import { RoomKeyTrustBar, useRoomKeyTrust } from './room-key-trust';
import { MemberCopyCell, MemberCopyMenu, useMemberCopyStates, useRegrantDialog, useRoomChangedKeyDialog } from './e2e-member-copies';
import { relabelE2eFile, relabelE2eFolderIn, renameE2eEntry, signedLabelsOf } from './e2e-file-ops';
import { NO_FOLDER_LABELS, shownLabelsOf } from './e2e-folder-labels';
import { LabelBadges, LabelDialog, LabelFilter, matchesLabels, NO_LABEL_FILTER, type LabelFilterValue, type LabelRequest } from '../room-labels';
import { VersionConflictDialog } from '../version-dialogs';
import { MoveDialog, type MoveItem } from '../move-dialog';
import { e2eMoveNames } from './e2e-move';
import { E2eVersionsDialog } from './e2e-versions-dialog';
import { e2ePreviewSource, type E2ePreviewTarget } from './e2e-preview-source';
import { PreviewDialog } from '../preview-dialog';
import { E2eDeleteButton, useE2eDeleteDialog } from './e2e-delete';
import { E2eCrumbMenu, useE2eRowDetails } from './e2e-details';
import { E2eRowMenu, type E2eRow as Row, type E2eRowActions } from './e2e-row-menu';
import { E2eRetentionButton } from './e2e-retention';
import { RoomRetentionNote } from '../retention-dialog';
import { useE2eZipDownload } from './e2e-zip';
import { E2eSelectionBar } from './e2e-selection';
import { useRoomSelection } from '../room-selection';
import { E2eDropZone } from './e2e-drop';
import { E2eRoomSearch } from './e2e-search';
import { ScanStatus } from '../scan-state';
import { SignedBy } from './signed-by';
import { RoomUploadProgress } from '../upload-progress';
import { roomMay } from '../room-may';
import { useE2eRoomFileActions } from './e2e-room-file-actions';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';
import { SecureRoomLinksNote } from '../links/room-links-section';

const useStyles = makeStyles({
  toolbar: { display: 'flex', gap: '12px', alignItems: 'end', flexWrap: 'wrap', margin: '12px 0 16px' },
  section: { marginTop: '24px' },
  crumbs: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  pager: { display: 'flex', gap: '12px', alignItems: 'center', marginTop: '12px' },
});

/**
 * An end-to-end encrypted room or folder: names decrypted and every file's signed metadata checked
 * in the crypto Worker (a file that fails shows why and cannot be downloaded); search runs here over
 * the decrypted names; uploads encrypt, downloads decrypt to disk like deliveries'. OWNERs see the
 * members' key states and grant (or decline) access to those who activated encryption later.
 */
export function E2eRoomPage() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const { roomUuid = '', folderUuid } = useParams();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { user } = useAuthState();
  const session = useSecuPassSession();
  const unlock = useUnlockedKeys('decrypt');
  // A member's changed key is asked about (the deliveries' dialog) before the loaders below check it.
  const changedKeyDialog = useRoomChangedKeyDialog();
  // The first page shows at once, the rest of the folder loads behind it (e2e-folder-loader.ts).
  const { contents, load, problem, reopen } = useE2eFolder(roomUuid, folderUuid, session?.keys);
  const view = load?.view ?? null;
  const [search, setSearch] = useState('');
  // Classification and status as signed in each file's metadata (issue 31 §1): the dialog and the filter.
  const [labelling, setLabelling] = useState<LabelRequest | null>(null);
  const [labelFilter, setLabelFilter] = useState<LabelFilterValue>(NO_LABEL_FILTER);
  // 'updatedAt': the server's order (newest first); 'name': the decrypted names, sorted here.
  const [sort, setSort] = useState<'updatedAt' | 'name'>('updatedAt');
  // The page of the decrypted, filtered rows shown (as many rows a page as the plain room's table:
  // rendering thousands of rows costs more than decrypting them); back to 1 in another folder.
  const [paging, setPaging] = useState({ folder: folderUuid, page: 1 });
  const [naming, setNaming] = useState<NameRequest | null>(null);
  const [moving, setMoving] = useState<MoveItem | readonly MoveItem[] | null>(null);
  const [versionsOf, setVersionsOf] = useState<E2eListedFile | null>(null);
  const [previewing, setPreviewing] = useState<E2eListedFile | null>(null);
  const [sharing, setSharing] = useState(false);
  const [ownerTab, setOwnerTab] = useState<'members' | 'activity'>('members');
  const fileInput = useRef<HTMLInputElement>(null);
  const role = contents?.folder?.role ?? contents?.room.role;
  const isOwner = roomMay(contents?.room.role, 'manageAccess');
  const members = useSWR(isOwner && session ? ['rooms/e2e-members', roomUuid] : null, () => listE2eMembers(roomUuid));
  // A copy of the room key no OWNER signed for the caller is read only (README section 7).
  // A room without a signed member list: the OWNER confirms the members its first list blesses.
  const [firstList, setFirstList] = useState<FirstListRequest | null>(null);
  const [reviewingFirstList, setReviewingFirstList] = useState(false);
  const keyTrust = useRoomKeyTrust(roomUuid, session?.keys, contents?.room.role, () => void members.mutate(), (listed) =>
    new Promise<boolean>((answer) =>
      setFirstList({
        members: listed,
        answer: (sign) => {
          setFirstList(null);
          answer(sign);
        },
      }),
    ));
  const copyStates = useMemberCopyStates(roomUuid, session?.keys, members.data?.members);
  const regrant = useRegrantDialog(roomUuid, unlock, () => members.mutate());
  // Members the OWNER-signed member list does not hold are flagged; approving shows the key's fingerprint first.
  const listFlags = useMemberListFlags(roomUuid, session?.keys, members.data?.members, members.data);
  const [approving, setApproving] = useState<E2eMember | null>(null);

  const refresh = async () => {
    await refreshRooms();
    await members.mutate();
  };

  // One source per opened file (the dialog starts over when it changes); the page's later renders keep it.
  const previewTarget = useRef<E2ePreviewTarget | null>(null);
  previewTarget.current = { roomUuid, folderUuid: folderUuid ?? null, role, unlock, me: user ? { uuid: user.uuid, email: user.email } : null, onSaved: () => void refresh() };
  const previewSource = useMemo(
    () => (previewing && previewTarget.current ? e2ePreviewSource(previewing, { ...previewTarget.current, unlock: () => previewTarget.current!.unlock(), onSaved: () => previewTarget.current!.onSaved() }) : null),
    [previewing],
  );

  const { upload, download, downloadVersion, newFolder, rename, transfer, busy, conflict, closeConflict } = useE2eRoomFileActions({ roomUuid, folderUuid, view, refresh, setNaming });
  const zip = useE2eZipDownload(roomUuid);

  const decide = async (member: E2eMember, approve: boolean) => {
    const keys = await unlock();
    if (!keys) return;
    try {
      if (approve) await grantRoomKey(roomUuid, keys, member);
      if (approve) track(ANALYTICS_ACTIONS.dataRoomKeysShared);
      else await declineRoomKey(roomUuid, member);
      notify('success', t(approve ? 'rooms:e2e.members.approved' : 'rooms:e2e.members.notApproved', { user: member.user.email }));
    } catch (error) {
      // Granted, only the signed member list failed (e.g. still another OWNER's list after the retries): say that.
      if (error instanceof MemberListNotUpdatedError) notify('warning', t('rooms:e2e.members.listNotUpdated', { user: member.user.email }));
      else notify('error', t('rooms:e2e.members.grantFailed', { user: member.user.email }));
    }
    listFlags.refresh();
    await members.mutate();
  };

  const canWrite = roomMay(role, 'upload') && keyTrust?.ok !== false;
  const details = useE2eRowDetails(roomUuid);
  const remove = useE2eDeleteDialog(roomUuid);
  // The row menus call through this ref (one stable object: the memoised menus skip re-renders).
  const rowActions = useRef<E2eRowActions | null>(null);
  rowActions.current = {
    download: (file) => void download(file),
    zip: (folder) => void zip(folder),
    details: (row) => void (contents && details.open(contents.room, contents.folders, row)),
    versions: setVersionsOf,
    preview: setPreviewing,
    rename: (row) => rename(row),
    move: (row) => setMoving({ kind: row.kind, uuid: row.uuid, name: row.name ?? '', parentUuid: folderUuid ?? null }),
    remove: (row) => remove.ask({ kind: row.kind, uuid: row.uuid, name: row.name }),
    label: (area, row, name) =>
      setLabelling({
        area,
        roomUuid,
        item: { kind: row.kind, uuid: row.uuid, name, ...(row.kind === 'file' ? signedLabelsOf(row.file.metadata) : shownLabelsOf(row.labels)) },
        save: async (labels) => {
          const keys = await unlock();
          if (!keys) throw new Error('locked');
          if (row.kind === 'file') await relabelE2eFile(roomUuid, keys, row.file, labels);
          else await relabelE2eFolderIn(roomUuid, keys, row, labels);
          await refresh();
          // The listing does not carry a Secure folder's labels: open the folder again to read the new record.
          if (row.kind === 'folder') reopen();
        },
      }),
  };
  /**
   * After an invitation or role change in the share dialog: a member who already has keys is
   * granted the room key right away (this browser unwraps and re-wraps, as "Grant access" does);
   * one without keys is told to wait (the missing-key state shows in the dialog and below).
   */
  const afterShare = async (change: AccessChange, entries: RoomAccessEntry[]) => {
    const who = change.user.toLowerCase();
    const before = members.data?.members.find((m) => m.user.email.toLowerCase() === who);
    // A changed role or a removal of a listed member (approved, or waiting for keys): the signed member
    // list follows (an OWNER signs it) before the members reload, so the flags come from the new list.
    if (before && session?.keys) {
      await recordMemberChange(roomUuid, session.keys, { userUuid: before.user.uuid, role: change.role }).catch((error: unknown) => console.debug('[e2e] member list', error));
      listFlags.refresh();
    }
    const fresh = await members.mutate();
    if (change.role === null) return;
    const entry = entries.find((e) => e.user.email.toLowerCase() === who || e.user.username.toLowerCase() === who);
    const member = fresh?.members.find((m) => m.user.uuid === entry?.user.uuid);
    if (!member) return;
    if (member.state === 'noSecuPass') {
      notify('info', t('rooms:e2e.members.waitingActivation', { user: member.user.email }));
      if (session?.keys) {
        await recordMemberChange(roomUuid, session.keys, { added: member }).catch((error: unknown) => console.debug('[e2e] member list', error));
        listFlags.refresh();
      }
    }
    // Added by the OWNER herself in the share dialog and already with keys: the share dialog closes and
    // the approve dialog asks with the key's fingerprint first, as "Grant access" in the members table
    // does (a second dialog over the share dialog closed it). Cancel leaves her waiting there.
    else if (member.state === 'pending') {
      setSharing(false);
      setApproving(member);
    }
  };
  const keyState = (entry: RoomAccessEntry) => {
    const member = members.data?.members.find((m) => m.user.uuid === entry.user.uuid);
    return member ? t(`rooms:e2e.members.states.${member.state}`) : '';
  };
  const shareExtension: ShareDialogExtension = {
    columns: [{ id: 'key', header: t('rooms:e2e.members.key'), cell: keyState }],
    afterChange: afterShare,
    note: t('roomLinks:secureRoomNote'),
  };

  // Sort and search use the names opened so far; the progress line says when more are coming.
  // Memoised: the same row objects from render to render let the memoised row menus skip.
  const rows = useMemo((): Row[] => {
    if (!view) return [];
    const needle = foldForSearch(search.trim());
    const fileRows = view.files.map((f): Row => ({ kind: 'file', uuid: f.uuid, name: f.name, file: f }));
    if (sort === 'name') fileRows.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '', i18n.language, { numeric: true }));
    // A folder's labels are its verified record's (README section 7 "Folder labels"; `none` without one, or when it did not verify).
    const labelled = matchesLabels(labelFilter);
    return [...view.folders.map((f): Row => ({ kind: 'folder', uuid: f.uuid, name: f.name, labels: f.labels })), ...fileRows]
      .filter((r) => !needle || foldedIncludes(r.name ?? '', needle))
      .filter((r) => labelled(r.kind === 'file' ? signedLabelsOf(r.file.metadata) : shownLabelsOf(r.labels)));
  }, [view, search, sort, i18n.language, labelFilter]);
  const pages = Math.max(1, Math.ceil(rows.length / ROOM_FILES_PAGE_SIZE));
  const page = paging.folder === folderUuid ? Math.min(paging.page, pages) : 1;
  const start = (page - 1) * ROOM_FILES_PAGE_SIZE;
  const pageRows = rows.slice(start, start + ROOM_FILES_PAGE_SIZE);
  // Issue 32 §2: rows picked on this page of this folder (another page or folder starts empty).
  const selection = useRoomSelection();
  const { clear: clearSelection } = selection;
  useEffect(() => clearSelection(), [clearSelection, folderUuid, page]);
  const chosen = pageRows.filter((row) => selection.selected.has(row.uuid));
  const toPage = (next: number) => setPaging({ folder: folderUuid, page: next });
  // A search hit's file (?highlight=): marked in the table, its page shown and the row scrolled to
  // once its name is decrypted (it may come with a later page of the progressive open) — once per
  // hit, so the user pages on freely.
  const highlight = searchParams.get(HIGHLIGHT_PARAM);
  const highlightAt = highlight ? rows.findIndex((row) => row.uuid === highlight) : -1;
  const highlightShown = useRef<string | null>(null);
  const scrollToHighlight = useRef(false);
  useEffect(() => {
    const hit = `${folderUuid ?? ''}|${highlight}`;
    if (highlightAt < 0 || highlightShown.current === hit) return;
    highlightShown.current = hit;
    scrollToHighlight.current = true;
    setPaging({ folder: folderUuid, page: Math.floor(highlightAt / ROOM_FILES_PAGE_SIZE) + 1 });
  }, [highlightAt, highlight, folderUuid]);
  useEffect(() => {
    const row = scrollToHighlight.current ? document.querySelector('[data-highlighted="true"]') : null;
    if (!row) return;
    scrollToHighlight.current = false;
    row.scrollIntoView({ block: 'center' });
  });
  const columns: DataTableColumn<Row>[] = [
    {
      id: 'name',
      header: t('rooms:list.columns.name'),
      cell: (row) =>
        row.kind === 'folder' ? (
          <>
            <RouterLink to={ROUTES.secureRoom(roomUuid, row.uuid)}>{row.name ?? t('rooms:e2e.nameBroken')}</RouterLink> <LabelBadges item={shownLabelsOf(row.labels)} />
          </>
        ) : (
          <>
            <Text>{row.name || t('rooms:e2e.nameBroken')}</Text> <ScanStatus state="notScanned" encrypted /> <LabelBadges item={signedLabelsOf(row.file.metadata)} />
          </>
        ),
    },
    { id: 'size', header: t('rooms:e2e.columns.size'), cell: (row) => (row.kind === 'file' ? formatSize(row.file.size, i18n.language) : '') },
    {
      id: 'signed',
      header: t('rooms:e2e.columns.signedBy'),
      // A folder: why its labels did not verify (its badges then show none), else nothing.
      cell: (row) => (row.kind === 'file' ? <SignedBy file={row.file} /> : row.labels.problem ? t('rooms:e2e.folderLabelsProblem', { problem: t(`rooms:e2e.problems.${row.labels.problem}`, { defaultValue: t('rooms:e2e.problems.unknown') }) }) : ''),
    },
    { id: 'actions', header: t('rooms:list.columns.actions'), cell: (row) => <E2eRowMenu row={row} role={role} actions={rowActions} t={t} /> },
  ];
  // The breadcrumb menu's Rename of the open folder (OWNER, EDITOR) or, at the top, of the room
  // (OWNER, as plain rooms); its name opened. No check against the user's other rooms: web/README.
  const hereFolder = folderUuid ? view?.path.at(-1) : undefined;
  const roomName = view?.roomName;
  const renameRoom = (old: string) =>
    setNaming({
      title: t('rooms:rename.roomTitle', { name: old }),
      label: t('rooms:create.nameLabel'),
      submitLabel: t('rooms:rename.submit'),
      initial: old,
      run: async (name) => {
        const keys = await unlock();
        if (!keys) throw new Error('locked');
        await renameE2eEntry(roomUuid, keys, { kind: 'room' }, name);
        await refresh();
      },
      done: (name) => t('rooms:rename.roomDone', { name: old, newName: name }),
      failed: () => t('rooms:rename.roomFailed', { name: old }),
    });
  const renameHere = folderUuid
    ? canWrite && hereFolder?.name != null ? () => rename({ kind: 'folder', uuid: folderUuid, name: hereFolder.name, labels: NO_FOLDER_LABELS }, { parentUuid: contents?.folder?.parentUuid ?? null }) : undefined
    : isOwner && roomName != null ? () => renameRoom(roomName) : undefined;
  const memberColumns: DataTableColumn<E2eMember>[] = [
    { id: 'user', header: t('rooms:e2e.members.user'), cell: (m) => m.user.email },
    { id: 'role', header: t('rooms:list.columns.role'), cell: (m) => <RoleBadge role={m.role} /> },
    { id: 'state', header: t('rooms:e2e.members.state'), cell: (m) => t(`rooms:e2e.members.states.${m.state}`) },
    { id: 'copy', header: t('rooms:e2e.memberCopy.column'), cell: (m) => <MemberCopyCell state={copyStates?.get(m.user.uuid)} /> },
    { id: 'memberList', header: t('rooms:e2e.memberList.column'), cell: (m) => <MemberListFlagBadge flag={listFlags.flags.get(m.user.uuid)} /> },
    {
      id: 'actions',
      header: t('rooms:list.columns.actions'),
      cell: (m) =>
        m.state === 'pending' || m.state === 'notApproved' ? (
          <div className={styles.crumbs}>
            <Button size="small" appearance="primary" onClick={() => setApproving(m)}>
              {t('rooms:e2e.members.grant')}
            </Button>
            {m.state === 'pending' ? (
              <Button size="small" onClick={() => void decide(m, false)}>
                {t('rooms:e2e.members.decline')}
              </Button>
            ) : null}
          </div>
        ) : m.state === 'approved' && m.user.uuid !== user?.uuid ? (
          <MemberCopyMenu member={m} onRegrant={regrant.ask} />
        ) : null,
    },
  ];

  return (
    <>
      <PageHeading focusOnMount>{view?.roomName ?? t('rooms:e2e.title')}</PageHeading>
      <RoomStorage roomUuid={roomUuid} />
      <EncryptionActivation where="room" />
      {folderUuid ? null : <RoomRetentionNote roomUuid={roomUuid} />}
      <nav aria-label={t('rooms:e2e.breadcrumb')} className={styles.crumbs}>
        <RouterLink to={ROUTES.secureRooms}>{t('rooms:e2e.title')}</RouterLink>
        {folderUuid ? <RouterLink to={ROUTES.secureRoom(roomUuid)}>{view?.roomName ?? '…'}</RouterLink> : null}
        {view?.path.slice(0, -1).map((p) => (
          <RouterLink key={p.uuid} to={ROUTES.secureRoom(roomUuid, p.uuid)}>
            {p.name ?? t('rooms:e2e.nameBroken')}
          </RouterLink>
        ))}
        {contents && view ? <E2eCrumbMenu room={contents.room} folder={contents.folder ?? null} hereName={(view.path.at(-1)?.name ?? view.roomName) || t('rooms:e2e.nameBroken')} canWrite={canWrite} isOwner={isOwner} onShare={() => setSharing(true)} onNewFolder={newFolder} onUpload={() => fileInput.current?.click()} {...(renameHere ? { onRename: renameHere } : {})} {...(roomMay(role, 'download') ? { onZip: () => void zip({ uuid: folderUuid ?? null, name: (view.path.at(-1)?.name ?? view.roomName) || t('rooms:e2e.nameBroken') }) } : {})} /> : null}
      </nav>
      <LockedKeysNotice onUnlock={() => void unlock()} />
      <RoomKeyTrustBar trust={keyTrust} />
      <FirstMemberListBar request={firstList} onReview={() => setReviewingFirstList(true)} />
      {problem ? (
        <MessageBar intent={problem === 'notApproved' ? 'error' : 'info'} style={{ marginTop: 12 }}>
          <MessageBarBody>{t(`rooms:e2e.access.${problem}`)}</MessageBarBody>
        </MessageBar>
      ) : null}
      {view ? (
        <>
          <div className={styles.toolbar}>
            <Field label={t('rooms:e2e.search')}>
              <SearchBox value={search} onChange={(_e, data) => (setSearch(data.value), toPage(1))} />
            </Field>
            {isOwner ? (
              <Button icon={<ShareRegular />} onClick={() => setSharing(true)}>
                {t('rooms:e2e.share')}
              </Button>
            ) : null}
            {isOwner && !folderUuid ? <E2eRetentionButton roomUuid={roomUuid} keys={session?.keys} /> : null}
            <Field label={t('rooms:e2e.sort.label')}>
              <Select value={sort} onChange={(_e, data) => (setSort(data.value === 'name' ? 'name' : 'updatedAt'), toPage(1))}>
                <option value="updatedAt">{t('rooms:e2e.sort.updatedAt')}</option>
                <option value="name">{t('rooms:e2e.sort.name')}</option>
              </Select>
            </Field>
            {canWrite ? (
              <>
                <Button icon={<FolderAddRegular />} onClick={newFolder}>
                  {t('rooms:e2e.newFolder')}
                </Button>
                <Button appearance="primary" icon={<ArrowUploadRegular />} disabled={busy} onClick={() => fileInput.current?.click()}>
                  {t('rooms:e2e.upload')}
                </Button>
                <input ref={fileInput} type="file" multiple hidden aria-label={t('rooms:e2e.upload')} onChange={(e) => {
                    void upload([...(e.target.files ?? [])]);
                    e.target.value = '';
                  }} />
              </>
            ) : null}
            {transfer && busy ? <RoomUploadProgress transfer={transfer} /> : null}
            {load && !load.done ? <Spinner size="tiny" role="status" label={t('rooms:e2e.decryptingNames', { loaded: load.loaded, total: load.total })} /> : null}
            {role === 'OWNER' || role === 'EDITOR' ? (
              <Button icon={<BinRecycleRegular />} onClick={() => void navigate(ROUTES.secureRoomTrash(roomUuid))}>
                {t('rooms:trash.open')}
              </Button>
            ) : null}
            {(folderUuid ? canWrite : isOwner) ? <E2eDeleteButton roomUuid={roomUuid} target={folderUuid ? { kind: 'here-folder', uuid: folderUuid, name: view.path.at(-1)?.name ?? null, parentUuid: contents?.folder?.parentUuid ?? null } : { kind: 'room', name: view.roomName }} /> : null}
          </div>
          <E2eRoomSearch roomUuid={roomUuid} roomName={view.roomName ?? t('rooms:e2e.nameBroken')} />
          <LabelFilter value={labelFilter} onChange={setLabelFilter} />
          {canWrite ? <E2eDropZone roomUuid={roomUuid} folderUuid={folderUuid ?? null} view={view} /> : null}
          <E2eSelectionBar
            roomUuid={roomUuid}
            folderUuid={folderUuid ?? null}
            role={role}
            rows={chosen}
            onZip={() => void zip({ uuid: folderUuid ?? null, name: (view.path.at(-1)?.name ?? view.roomName) || t('rooms:e2e.nameBroken'), only: new Set(chosen.map((row) => row.uuid)) })}
            onMove={setMoving}
            onClear={clearSelection}
          />
          <DataTable
            label={t('rooms:e2e.contentsLabel')}
            columns={columns}
            rows={pageRows}
            rowKey={(row) => row.uuid}
            highlighted={(row) => row.uuid === highlight}
            selection={{ ...selection, rowLabel: (row) => t('roomSelect:selectRow', { name: row.name ?? t('rooms:e2e.nameBroken') }), allLabel: t('roomSelect:selectAllRows') }}
            empty={<Text as="p">{t('rooms:e2e.folderEmpty')}</Text>}
          />
          {rows.length > ROOM_FILES_PAGE_SIZE ? (
            <nav className={styles.pager} aria-label={t('rooms:files.paging.label')}>
              <Button disabled={page <= 1} onClick={() => toPage(page - 1)}>
                {t('rooms:files.paging.previous')}
              </Button>
              <Text aria-live="polite">{t('rooms:files.paging.range', { start: start + 1, end: start + pageRows.length, count: rows.length, page, pages })}</Text>
              <Button disabled={page >= pages} onClick={() => toPage(page + 1)}>
                {t('rooms:files.paging.next')}
              </Button>
            </nav>
          ) : null}
        </>
      ) : session && !problem ? (
        <Spinner label={t('common:loading')} />
      ) : null}
      {isOwner && members.data ? (
        // OWNERs only (SPEC §6): the members' key states and the activity (access changes and grants included).
        <div className={styles.section}>
          <TabList selectedValue={ownerTab} onTabSelect={(_e, data) => setOwnerTab(data.value as 'members' | 'activity')}>
            <Tab value="members">{t('rooms:e2e.members.title')}</Tab>
            <Tab value="activity">{t('rooms:activity.title')}</Tab>
          </TabList>
          {ownerTab === 'members' ? (
            <section className={styles.section} aria-labelledby="e2e-members">
              <Text as="h2" id="e2e-members" size={500} weight="semibold">
                {t('rooms:e2e.members.title')}
              </Text>
              {listFlags.listProblem && listFlags.listProblem !== 'room-member-list-missing' ? (
                <MessageBar intent="error">
                  <MessageBarBody>{t(listFlags.listProblem === 'room-member-list-rolled-back' ? 'rooms:e2e.memberList.rolledBack' : 'rooms:e2e.memberList.invalid')}</MessageBarBody>
                </MessageBar>
              ) : null}
              {listFlags.flags.size > 0 ? (
                <MessageBar intent="warning">
                  <MessageBarBody>{t('rooms:e2e.memberList.flagged')}</MessageBarBody>
                </MessageBar>
              ) : null}
              <DataTable label={t('rooms:e2e.members.title')} columns={memberColumns} rows={members.data.members} rowKey={(m) => m.user.uuid} empty={<Text as="p">—</Text>} />
            </section>
          ) : (
            <RoomActivity roomUuid={roomUuid} folderUuid={folderUuid ?? null} expanded itemCell={(entry) => <SealedActivityName roomUuid={roomUuid} entry={entry} />} />
          )}
        </div>
      ) : null}
      {/* Where a plain room's OWNER finds its public links: a Secure room says why it has none. */}
      {isOwner && !folderUuid ? <SecureRoomLinksNote /> : null}
      <ApproveMemberDialog member={approving} onConfirm={(m) => decide(m, true)} onCancel={(m) => notify('info', t('rooms:e2e.approve.notGranted', { user: m.user.email }))} onClose={() => setApproving(null)} />
      <FirstMemberListDialog request={firstList} open={reviewingFirstList} onClose={() => setReviewingFirstList(false)} />
      <NameDialog request={naming} onClose={() => setNaming(null)} />
      {details.panel}
      {remove.dialog}
      {regrant.dialog}
      {changedKeyDialog}
      <VersionConflictDialog request={conflict} onClose={closeConflict} />
      {contents && view ? (
        <MoveDialog room={contents.room} item={moving} onClose={() => setMoving(null)} onMoved={clearSelection} names={e2eMoveNames(roomUuid, view.roomName ?? t('rooms:e2e.nameBroken'), unlock)} />
      ) : null}
      <PreviewDialog source={previewSource} onClose={() => setPreviewing(null)} />
      <LabelDialog request={labelling} onClose={() => setLabelling(null)} />
      <E2eVersionsDialog roomUuid={roomUuid} keys={session?.keys} file={versionsOf} onClose={() => setVersionsOf(null)} onDownload={(v) => void downloadVersion(v)} />
      {isOwner && view ? (
        <ShareDialog
          open={sharing}
          onClose={() => setSharing(false)}
          roomUuid={roomUuid}
          folder={contents?.folder ?? null}
          itemName={(view.path.at(-1)?.name ?? view.roomName) || t('rooms:e2e.nameBroken')}
          extension={shareExtension}
        />
      ) : null}
    </>
  );
}
