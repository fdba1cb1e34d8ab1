import { makeStyles, Spinner, Text, Tree, TreeItem, TreeItemLayout, type TreeItemValue } from '@fluentui/react-components';
import { FolderRegular, HomeRegular } from '@fluentui/react-icons';
import type { Room } from '@shared/contract/rooms';
import { FormDialog } from '@web/components/form-dialog';
import { useNotify } from '@web/lib/toasts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { FIRST_FILES_PAGE, moveFolder, refreshRooms, useRoomContents } from './api/rooms';
import { moveRoomFile } from './api/room-files';
import { roomErrorText, type RoomErrorText } from './room-errors';

// The dialog lists folders only (they come with the first page): one file is enough.
const FOLDERS_ONLY = { ...FIRST_FILES_PAGE, pageSize: 1 };

/** What is moved: a file (its folder) or a folder (its parent); null parent = the room's top level. */
export interface MoveItem {
  kind: 'file' | 'folder';
  uuid: string;
  name: string;
  parentUuid: string | null;
}

const ROOT = 'room-top-level';

/**
 * Where the shown names come from when the server's are sealed (an E2E room: decrypted in the
 * crypto Worker), and the sibling check the server cannot make there.
 */
export interface MoveNames {
  /** The room's name as shown (the top level of the tree). */
  roomName: string;
  /** The shown names of these sub-folders, in order; null: a name that does not open. */
  folderNames: (folders: { uuid: string; name: string }[]) => Promise<(string | null)[]>;
  /** Before the move call: the item's name taken in the target (the refusal's text), or null. */
  clash: (targetUuid: string | null, item: MoveItem) => Promise<RoomErrorText | null>;
}

const useStyles = makeStyles({
  tree: { maxHeight: '50vh', overflowY: 'auto', marginTop: '8px' },
});

interface Branch {
  roomUuid: string;
  /** The folders being moved: not offered (not into themselves). */
  excluded: ReadonlySet<string>;
  openItems: ReadonlySet<TreeItemValue>;
  /** Folder names by uuid, for the toast and the hint once a folder is picked. */
  names: Map<string, string>;
  source: MoveNames | undefined;
}

/** The sub-folders of one folder, fetched when its branch opens; the moved folder is left out (not into itself). */
function FolderChildren({ branch, folderUuid }: { branch: Branch; folderUuid: string | undefined }) {
  const { t } = useTranslation();
  const contents = useRoomContents(branch.roomUuid, folderUuid, FOLDERS_ONLY);
  const folders = (contents.data?.folders ?? []).filter((f) => !branch.excluded.has(f.uuid));
  const { source } = branch;
  const opened = useSWR(source && folders.length > 0 ? ['rooms/move-names', branch.roomUuid, folders.map((f) => `${f.uuid}:${f.name}`).join('|')] : null, () =>
    source!.folderNames(folders),
  );
  if (contents.error || opened.error) return <Text role="alert">{t('rooms:move.loadError')}</Text>;
  if (!contents.data || (source && folders.length > 0 && !opened.data)) return <Spinner size="tiny" label={t('common:loading')} />;
  if (folders.length === 0) return null;
  return (
    <Tree>
      {folders.map((folder, i) => {
        const name = source ? (opened.data?.[i] ?? t('rooms:e2e.nameBroken')) : folder.name;
        branch.names.set(folder.uuid, name);
        return (
          <TreeItem key={folder.uuid} itemType="branch" value={folder.uuid}>
            <TreeItemLayout iconBefore={<FolderRegular aria-hidden="true" />}>{name}</TreeItemLayout>
            {branch.openItems.has(folder.uuid) ? <FolderChildren branch={branch} folderUuid={folder.uuid} /> : null}
          </TreeItem>
        );
      })}
    </Tree>
  );
}

/**
 * Move a file or folder to another folder of the same room (SPEC §2 move-to dialog). The picker
 * only shows this room's folders — moving into another room is not supported — and leaves out the
 * folder being moved (and so everything below it). The server's refusal (rights, name taken,
 * another room) is the toast's text; success names the item and the target. `names` (E2E rooms):
 * decrypted names in the tree and the name check made here before the call.
 */
export function MoveDialog({ room, item, onClose, names, onMoved }: { room: Room; item: MoveItem | readonly MoveItem[] | null; onClose: () => void; names?: MoveNames; onMoved?: () => void }) {
  if (item === null) return null;
  // Several items (issue 32 §2 multi-select): one target for all, moved one after the other.
  const items = Array.isArray(item) ? (item as readonly MoveItem[]) : [item as MoveItem];
  if (items.length === 0) return null;
  return <MoveForm key={items.map((i) => i.uuid).join()} room={room} items={items} onClose={onClose} source={names} onMoved={onMoved} />;
}

/** Moves each item; answers the ones that failed with the reason's text. */
async function moveEach(room: Room, items: readonly MoveItem[], target: string | null, source: MoveNames | undefined) {
  const failed: { item: MoveItem; text: RoomErrorText }[] = [];
  for (const item of items) {
    try {
      const clash = source ? await source.clash(target, item) : null;
      if (clash) {
        failed.push({ item, text: clash });
        continue;
      }
      if (item.kind === 'file') await moveRoomFile(room.uuid, item.uuid, target);
      else await moveFolder(room.uuid, item.uuid, target);
    } catch (error) {
      failed.push({ item, text: roomErrorText(error) });
    }
  }
  return failed;
}

function MoveForm({ room, items, onClose, source, onMoved }: { room: Room; items: readonly MoveItem[]; onClose: () => void; source: MoveNames | undefined; onMoved: (() => void) | undefined }) {
  const item = items[0]!;
  const many = items.length > 1;
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const [target, setTarget] = useState<{ uuid: string | null; name: string } | null>(null);
  const [pending, setPending] = useState(false);
  const [openItems, setOpenItems] = useState<Set<TreeItemValue>>(new Set([ROOT]));
  const [names] = useState(() => new Map<string, string>());
  const branch: Branch = { roomUuid: room.uuid, excluded: new Set(items.filter((i) => i.kind === 'folder').map((i) => i.uuid)), openItems, names, source };
  const roomName = source?.roomName ?? room.name;
  const unchanged = target !== null && items.every((i) => i.parentUuid === target.uuid);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!target || unchanged) return;
    setPending(true);
    const values = { name: item.name, target: target.name };
    if (many) {
      try {
        const failed = await moveEach(room, items.filter((i) => i.parentUuid !== target.uuid), target.uuid, source);
        if (failed.length === 0) notify('success', t('roomSelect:move.done', { count: items.length, target: target.name }));
        else {
          const list = failed.map(({ item: f, text }) => t('roomSelect:failedItem', { name: f.name, reason: t(`rooms:${text.key}`, text.values) })).join(' ');
          notify('error', t('roomSelect:move.failed', { count: failed.length, total: items.length, target: target.name }), list);
        }
        // A selection's move ran (the failed ones named): the caller clears its selection.
        onMoved?.();
        await refreshRooms();
        onClose();
      } finally {
        setPending(false);
      }
      return;
    }
    try {
      const clash = source ? await source.clash(target.uuid, item) : null;
      if (clash) {
        notify('error', t('rooms:move.failed', values), t(`rooms:${clash.key}`, clash.values));
        return;
      }
      if (item.kind === 'file') await moveRoomFile(room.uuid, item.uuid, target.uuid);
      else await moveFolder(room.uuid, item.uuid, target.uuid);
      notify('success', t('rooms:move.done', values));
      await refreshRooms();
      onClose();
    } catch (error) {
      const text = roomErrorText(error);
      notify('error', t('rooms:move.failed', values), t(`rooms:${text.key}`, text.values));
      if (text.key === 'errors.forbidden' || text.key === 'errors.notFound') onClose();
    } finally {
      setPending(false);
    }
  }

  return (
    <FormDialog
      open
      onClose={onClose}
      title={many ? t('roomSelect:move.title', { count: items.length }) : item.kind === 'file' ? t('rooms:move.fileTitle', { name: item.name }) : t('rooms:move.folderTitle', { name: item.name })}
      onSubmit={submit}
      submitLabel={t('rooms:move.submit')}
      submitDisabled={pending || !target || unchanged}
    >
      <Text as="p" id="move-target-hint" style={{ margin: 0 }}>
        {target
          ? unchanged
            ? many
              ? t('roomSelect:move.alreadyThere', { target: target.name })
              : t('rooms:move.alreadyThere', { name: item.name, target: target.name })
            : t('rooms:move.target', { target: target.name })
          : t('rooms:move.hint')}
      </Text>
      <Tree
        className={styles.tree}
        aria-label={t('rooms:move.treeLabel', { name: roomName })}
        aria-describedby="move-target-hint"
        selectionMode="single"
        checkedItems={target ? [target.uuid ?? ROOT] : []}
        onCheckedChange={(_e, data) => {
          const value = String(data.value);
          setTarget(value === ROOT ? { uuid: null, name: roomName } : { uuid: value, name: names.get(value) ?? value });
        }}
        openItems={openItems}
        onOpenChange={(_e, data) => setOpenItems(data.openItems)}
      >
        <TreeItem itemType="branch" value={ROOT}>
          <TreeItemLayout iconBefore={<HomeRegular aria-hidden="true" />}>{roomName}</TreeItemLayout>
          <FolderChildren branch={branch} folderUuid={undefined} />
        </TreeItem>
      </Tree>
    </FormDialog>
  );
}
