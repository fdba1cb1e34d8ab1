import { makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { call } from '@shared/api/call';
import { ROOM_E2E_ENDPOINTS as X } from '@shared/contract/endpoints/rooms-e2e';
import type { KeyHandle, UnlockedKeys } from '@shared/crypto/service';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { cryptoApi } from '@web/lib/crypto';
import { useNotify } from '@web/lib/toasts';
import { useTransfer } from '@web/lib/transfer-store';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { numberedName, type VersionConflictChoice } from '../api/room-files';
import { refreshRooms } from '../api/rooms';
import { dropReadFailure, foldersToCreate, placedFromDrop, UnreadableDropError, type PlacedFile } from '../folder-drop';
import { UploadFolderButton } from '../upload-folder-button';
import { checkedRoomName, roomErrorText } from '../room-errors';
import { VersionConflictDialog, type ConflictRequest } from '../version-dialogs';
import { currentNamesOnce, placementFor } from './e2e-file-ops';
import { listE2eNames } from './e2e-names';
import { writableRoomKeyOf, type E2eFolderView } from './e2e-room-client';
import { startE2eRoomUpload } from './e2e-upload';
import { RoomUploadProgress } from '../upload-progress';

const useStyles = makeStyles({
  zone: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap', padding: '12px', margin: '0 0 12px', border: `2px dashed ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium },
  dragging: { border: `2px dashed ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
});

/** A folder's decrypted children by lower-case name: sub-folders (uuid) and file names. */
interface Children {
  folders: Map<string, string>;
  files: Set<string>;
}

/** The folder tree failed at `folderName` (its name is taken by a file there, or the server refused). */
class FolderTreeError extends Error {
  constructor(
    readonly folderName: string,
    readonly reason: unknown,
  ) {
    super(`Folder ${folderName} could not be created`);
  }
}

/**
 * Creates a dropped folder tree below `targetUuid` in an E2E room, parents first, each name sealed
 * in the Worker. The server cannot compare sealed names, so the browser does what the server does
 * for plain rooms: a folder of the same decrypted name (case-insensitive) is reused, a file of that
 * name stops the tree. Answers each path's folder uuid ('' = the target) and the file names each
 * reused folder already holds (the uploads into it keep both).
 */
async function createE2eFolderTree(roomUuid: string, roomKey: KeyHandle, targetUuid: string | null, paths: readonly string[][]) {
  const uuidOf = new Map<string, string | null>([['', targetUuid]]);
  const children = new Map<string | null, Children>();
  const childrenOf = async (parent: string | null): Promise<Children> => {
    let known = children.get(parent);
    if (!known) {
      const items = await listE2eNames(roomUuid, roomKey, parent);
      known = { folders: new Map(), files: new Set() };
      for (const item of items) {
        if (item.name === null) continue;
        if (item.kind === 'folder') known.folders.set(item.name.toLowerCase(), item.uuid);
        else known.files.add(item.name.toLowerCase());
      }
      children.set(parent, known);
    }
    return known;
  };
  for (const path of paths) {
    const parent = uuidOf.get(path.slice(0, -1).join('/')) ?? null;
    const name = path.at(-1)!;
    const here = await childrenOf(parent);
    const lower = name.toLowerCase();
    const existing = here.folders.get(lower);
    if (existing) {
      uuidOf.set(path.join('/'), existing);
      continue;
    }
    if (here.files.has(lower)) throw new FolderTreeError(name, 'fileExists');
    const uuid = crypto.randomUUID();
    try {
      const [sealed] = (await cryptoApi.encryptRoomNames({ roomKey, roomId: roomUuid, items: [{ kind: 'folder', itemId: uuid, name: checkedRoomName(name) }] })).sealed;
      await call(apiClient, X.createFolder, { params: { roomUuid }, body: { uuid, name: sealed ?? '', parentUuid: parent } });
    } catch (error) {
      throw new FolderTreeError(name, error);
    }
    here.folders.set(lower, uuid);
    // A new folder is empty: nothing to fetch for its children.
    children.set(uuid, { folders: new Map(), files: new Set() });
    uuidOf.set(path.join('/'), uuid);
  }
  return { uuidOf, filesIn: (folder: string | null) => children.get(folder)?.files ?? new Set<string>() };
}

/**
 * Drag-and-drop of files and folder trees into an E2E room or folder, and "Upload folder" (a folder
 * picker) — the plain room's folder-drop.ts walks the drop; the folders are created with sealed
 * names here, then every file goes up through the one E2E upload (`startE2eRoomUpload`, one
 * transfer of the transfer centre, each file into its folder). A name taken in the open folder asks
 * as the Upload button does (new version, keep both, skip); in a reused sub-folder both are kept.
 */
export function E2eDropZone({ roomUuid, folderUuid, view }: { roomUuid: string; folderUuid: string | null; view: E2eFolderView }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const { user } = useAuthState();
  const unlock = useUnlockedKeys('decrypt');
  const [dragging, setDragging] = useState(false);
  const [transferId, setTransferId] = useState<string | undefined>();
  const [conflict, setConflict] = useState<ConflictRequest | null>(null);
  const transfer = useTransfer(transferId);
  const busy = transfer?.state === 'pending' || transfer?.state === 'running';
  const hereName = view.path.at(-1)?.name ?? view.roomName ?? '';

  async function uploadPlaced(placed: PlacedFile[]) {
    const keys: UnlockedKeys | null = await unlock();
    if (!keys || !user || placed.length === 0) return;
    const paths = foldersToCreate(placed);
    const files = placed.filter((p): p is PlacedFile & { file: File } => p.file !== null);
    let tree: Awaited<ReturnType<typeof createE2eFolderTree>>;
    try {
      tree = await createE2eFolderTree(roomUuid, await writableRoomKeyOf(roomUuid, keys), folderUuid, paths);
    } catch (error) {
      const failed = error instanceof FolderTreeError ? error : null;
      const text = failed?.reason === 'fileExists' ? { key: 'errors.fileExists' } : roomErrorText(failed?.reason ?? error);
      notify('error', t('rooms:drop.folderFailed', { name: failed?.folderName ?? hereName }), t(`rooms:${text.key}`, 'values' in text ? text.values : undefined));
      return;
    } finally {
      await refreshRooms();
    }
    if (files.length === 0) {
      notify('success', t('rooms:drop.foldersCreated', { count: paths.length, name: hereName }));
      return;
    }
    const folderOf = files.map((p) => tree.uuidOf.get(p.dirs.join('/')) ?? null);
    const current = currentNamesOnce(roomUuid, keys, folderUuid);
    const placementOf = async (file: File, index: number) => {
      if (files[index]!.dirs.length === 0) return placementFor(view, file, (name) => new Promise<VersionConflictChoice>((answer) => setConflict({ name, answer })), current);
      const taken = tree.filesIn(folderOf[index] ?? null);
      if (!taken.has(file.name.toLowerCase())) return {};
      for (let n = 1; ; n++) if (!taken.has(numberedName(file.name, n).toLowerCase())) return { name: numberedName(file.name, n) };
    };
    const title = files.length === 1 ? files[0]!.file.name : t('rooms:files.uploadTitle', { count: files.length, name: hereName });
    const started = startE2eRoomUpload(
      files.map((p) => p.file),
      { roomUuid, folderUuid, title, keys, me: { uuid: user.uuid, email: user.email }, placementOf, folderOf },
    );
    setTransferId(started.id);
    void started.done.then(() => refreshRooms());
  }

  const drop = {
    onDragOver: (event: DragEvent) => {
      if (busy || !event.dataTransfer.types.includes('Files')) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (busy) return;
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

  return (
    <div className={mergeClasses(styles.zone, dragging && styles.dragging)} data-testid="e2e-drop-zone" {...drop}>
      <UploadFolderButton disabled={busy} testId="e2e-folder-input" onPlaced={(placed) => void uploadPlaced(placed)} />
      <Text size={200}>{t('rooms:drop.hint')}</Text>
      {transfer && busy ? <RoomUploadProgress transfer={transfer} /> : null}
      <VersionConflictDialog request={conflict} onClose={() => setConflict(null)} />
    </div>
  );
}
