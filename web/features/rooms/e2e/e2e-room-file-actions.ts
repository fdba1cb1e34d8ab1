// The file and folder actions of a Secure room page — upload, download (also of a version), new
// folder, rename — apart from the page's layout, as the plain room page keeps its dialogs and file
// table in files of their own (issue 31 §0).
import { useAuthState } from '@web/lib/auth';
import { useNotify } from '@web/lib/toasts';
import { useTransfer } from '@web/lib/transfer-store';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VersionConflictChoice } from '../api/room-files';
import { refreshRooms } from '../api/rooms';
import type { NameRequest } from '../room-dialogs';
import { NameTakenError } from '../room-errors';
import type { ConflictRequest } from '../version-dialogs';
import { currentNamesOnce, placementFor, renameE2eEntry, takenBy } from './e2e-file-ops';
import { e2eMoveNames } from './e2e-move';
import { createE2eFolder, type E2eFolderView, type E2eListedFile } from './e2e-room-client';
import type { E2eRow as Row } from './e2e-row-menu';
import { startE2eRoomUpload } from './e2e-upload';
import { currentE2eFile, downloadE2eFile, E2eFileGoneError, type E2eVersionRow } from './e2e-versions';

export function useE2eRoomFileActions({
  roomUuid,
  folderUuid,
  view,
  refresh,
  setNaming,
}: {
  roomUuid: string;
  folderUuid: string | undefined;
  /** The open folder's decrypted names (null: not opened yet). */
  view: E2eFolderView | null;
  /** After a change: the room lists and the members again. */
  refresh: () => Promise<void>;
  setNaming: (request: NameRequest) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const { user } = useAuthState();
  const unlock = useUnlockedKeys('decrypt');
  const [transferId, setTransferId] = useState<string | undefined>();
  const [conflict, setConflict] = useState<ConflictRequest | null>(null);
  const transfer = useTransfer(transferId);
  const busy = transfer?.state === 'pending' || transfer?.state === 'running';

  // Through the transfer centre like plain uploads (progress, cancel, retry); the list refreshes when it ends.
  const upload = async (files: File[]) => {
    const keys = await unlock();
    if (files.length === 0 || !keys || !user) return;
    const title = files.length === 1 ? files[0]!.name : t('rooms:files.uploadTitle', { count: files.length, name: view?.path.at(-1)?.name ?? view?.roomName ?? '' });
    const opened = view;
    // A taken name (decrypted; in the open list or among the names the server holds now) asks as in plain rooms: new version, keep both, or skip.
    const current = currentNamesOnce(roomUuid, keys, folderUuid ?? null);
    const placementOf = opened ? (file: File) => placementFor(opened, file, (name) => new Promise<VersionConflictChoice>((answer) => setConflict({ name, answer })), current) : undefined;
    const started = startE2eRoomUpload(files, { roomUuid, folderUuid: folderUuid ?? null, title, keys, me: { uuid: user.uuid, email: user.email }, ...(placementOf ? { placementOf } : {}) });
    setTransferId(started.id);
  };

  // Also after a retry from the transfer centre (the first run's outcome may have been a failure).
  const transferState = transfer?.state;
  useEffect(() => {
    if (transferState === 'success' || transferState === 'failed' || transferState === 'cancelled') void refreshRooms();
  }, [transferState]);

  // The list may still show a version replaced meanwhile (its key no longer opens the content):
  // the file's current key and metadata are fetched first; what cannot be downloaded says so.
  const download = async (row: E2eListedFile) => {
    const keys = await unlock();
    if (!keys || !row.metadata) return;
    try {
      const { file, changed } = await currentE2eFile(roomUuid, folderUuid ?? null, keys, row);
      if (changed) void refreshRooms();
      if (!file.metadata) notify('error', t('rooms:e2e.downloadNotVerified', { name: row.name }));
      else await downloadE2eFile(roomUuid, keys, file);
    } catch (error) {
      const gone = error instanceof E2eFileGoneError;
      // A file key that does not open for this file (the server swapped it) is named with its problem.
      const code = (error as { code?: unknown }).code;
      const problem = typeof code === 'string' ? t(`rooms:e2e.problems.${code}`, { defaultValue: t('rooms:e2e.problems.unknown') }) : undefined;
      notify('error', t(gone ? 'rooms:e2e.downloadGone' : 'rooms:e2e.downloadFailed', { name: row.name }), problem);
      if (gone) void refreshRooms();
    }
  };
  const downloadVersion = async (version: E2eVersionRow) => {
    if (version.current) return download(version.file);
    const keys = await unlock();
    if (!keys) return;
    await downloadE2eFile(roomUuid, keys, version.file, version.uuid).catch(() => notify('error', t('rooms:e2e.downloadFailed', { name: version.file.name })));
  };

  const newFolder = () =>
    setNaming({
      title: t('rooms:folder.createTitle', { name: view?.path.at(-1)?.name ?? view?.roomName ?? '' }),
      label: t('rooms:folder.nameLabel'),
      submitLabel: t('rooms:folder.create'),
      initial: '',
      run: async (name) => {
        const keys = await unlock();
        if (!keys) throw new Error('locked');
        const holder = view ? takenBy(view, name) : null;
        if (holder) throw new NameTakenError(holder);
        await createE2eFolder(roomUuid, keys, name, folderUuid ?? null);
        await refresh();
      },
      done: (name) => t('rooms:folder.created', { name }),
      failed: (name) => t('rooms:folder.createFailed', { name }),
    });

  // `here`: the open folder itself (breadcrumb menu), whose siblings are its parent's, decrypted there.
  const rename = (row: Row, here?: { parentUuid: string | null }) => {
    const old = row.name ?? '';
    setNaming({
      title: t(row.kind === 'folder' ? 'rooms:rename.folderTitle' : 'rooms:files.renameTitle', { name: old }),
      label: t('rooms:folder.nameLabel'),
      submitLabel: t('rooms:rename.submit'),
      initial: old,
      run: async (name) => {
        const keys = await unlock();
        if (!keys) throw new Error('locked');
        const changed = name.trim().toLowerCase() !== old.toLowerCase();
        if (changed && here) {
          const clash = await e2eMoveNames(roomUuid, view?.roomName ?? '', unlock).clash(here.parentUuid, { kind: 'folder', uuid: row.uuid, name, parentUuid: here.parentUuid });
          if (clash) throw new NameTakenError(clash.key === 'errors.folderExists' ? 'folder' : 'file');
        } else if (changed && view) {
          const holder = takenBy(view, name);
          if (holder) throw new NameTakenError(holder);
        }
        await renameE2eEntry(roomUuid, keys, row.kind === 'folder' ? { kind: 'folder', uuid: row.uuid } : { kind: 'file', file: row.file }, name);
        await refresh();
      },
      done: (name) => t(row.kind === 'folder' ? 'rooms:rename.folderDone' : 'rooms:files.renamed', { name: old, newName: name }),
      failed: () => t(row.kind === 'folder' ? 'rooms:rename.folderFailed' : 'rooms:files.renameFailed', { name: old }),
    });
  };

  return { upload, download, downloadVersion, newFolder, rename, transfer, busy, conflict, closeConflict: () => setConflict(null) };
}
