import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular, ArrowMoveRegular, DeleteRegular, DismissRegular } from '@fluentui/react-icons';
import { API_BASE } from '@shared/contract/constants';
import { ROOM_OPS_PATHS, ROOM_ZIP_ITEMS_MAX } from '@shared/contract/room-ops';
import { ROOM_PERMISSIONS, type Room, type RoomRole } from '@shared/contract/rooms';
import { plainDownloadClick } from '@web/lib/plain-download';
import type { TFunction } from 'i18next';
import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteFolder, refreshRooms } from './api/rooms';
import { deleteRoomFile } from './api/room-files';
import type { MoveItem } from './move-dialog';
import type { ConfirmRequest } from './room-dialogs';
import { roomErrorText } from './room-errors';

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    gap: '8px',
    flexWrap: 'wrap',
    alignItems: 'center',
    padding: '8px 12px',
    margin: '8px 0',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
});

/** A picked row of a plain room's folder or file table. */
export interface SelectedItem extends MoveItem {
  role: RoomRole;
}

/** The picked rows of one room page (folder and file UUIDs); changing folder starts empty. */
export function useRoomSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const onChange = useCallback(
    (keys: string[], pick: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        for (const key of keys) if (pick) next.add(key);
        else next.delete(key);
        return next;
      }),
    [],
  );
  const clear = useCallback(() => setSelected(new Set()), []);
  return { selected, onChange, clear };
}

/**
 * The toolbar of a selection (issue 32 §2): how many are picked, and what the caller's role allows
 * on every picked item (ROOM_PERMISSIONS) — Download as ZIP (the server's ZIP of those items, up to
 * ROOM_ZIP_ITEMS_MAX), Move (one target for all), Delete (one confirmation naming the count; the
 * items go to the room's trash; the ones that fail are named with their reason).
 */
export function SelectionBar({ room, items, onClear, onMove, onConfirm }: {
  room: Room;
  items: SelectedItem[];
  onClear: () => void;
  onMove: (items: MoveItem[]) => void;
  onConfirm: (request: ConfirmRequest) => void;
}) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  const every = (right: 'download' | 'edit' | 'delete') => items.every((item) => ROOM_PERMISSIONS[item.role][right]);
  const count = items.length;
  const zipUrl = `${API_BASE}${ROOM_OPS_PATHS.roomZip(room.uuid)}?items=${items.map((i) => i.uuid).join(',')}`;
  const zipName = `${room.name}.zip`;

  return (
    <SelectionFrame count={count} onClear={onClear}>
      {every('download') && count <= ROOM_ZIP_ITEMS_MAX ? (
        <Button as="a" icon={<ArrowDownloadRegular />} href={zipUrl} download={zipName} onClick={plainDownloadClick({ url: zipUrl, name: zipName })}>
          {t('rooms:files.zip')}
        </Button>
      ) : null}
      {every('download') && count > ROOM_ZIP_ITEMS_MAX ? <Text>{t('roomSelect:zipTooMany', { max: ROOM_ZIP_ITEMS_MAX })}</Text> : null}
      {every('edit') ? (
        <Button icon={<ArrowMoveRegular />} onClick={() => onMove(items.map(({ kind, uuid, name, parentUuid }) => ({ kind, uuid, name, parentUuid })))}>
          {t('rooms:move.action')}
        </Button>
      ) : null}
      {every('delete') ? (
        <Button icon={<DeleteRegular />} onClick={() => onConfirm(selectionDeleteRequest(t, room.uuid, items, onClear))}>
          {t('rooms:delete.action')}
        </Button>
      ) : null}
    </SelectionFrame>
  );
}

/**
 * The one confirmation of deleting a selection (plain and Secure rooms: the same calls, the server
 * needs no name): each item in turn to the room's trash, the ones that fail named with their reason,
 * the selection cleared after. `name` is the shown one (a Secure room's decrypted name).
 */
export function selectionDeleteRequest(t: TFunction, roomUuid: string, items: readonly Pick<MoveItem, 'kind' | 'uuid' | 'name'>[], onClear: () => void): ConfirmRequest {
  const count = items.length;
  return {
    title: t('roomSelect:delete.title', { count }),
    text: t('roomSelect:delete.text', { count }),
    confirmLabel: t('rooms:delete.confirm'),
    run: async () => {
      const failed: string[] = [];
      for (const item of items) {
        try {
          if (item.kind === 'file') await deleteRoomFile({ roomUuid, uuid: item.uuid });
          else await deleteFolder(roomUuid, item.uuid);
        } catch (error) {
          const text = roomErrorText(error);
          failed.push(t('roomSelect:failedItem', { name: item.name, reason: t(`rooms:${text.key}`, text.values) }));
        }
      }
      onClear();
      await refreshRooms();
      return failed.length > 0 ? { title: t('roomSelect:delete.failed', { count: failed.length, total: count }), detail: failed.join(' ') } : undefined;
    },
    done: t('roomSelect:delete.done', { count }),
    failed: t('roomSelect:delete.failed', { count, total: count }),
  };
}

/** The toolbar around a selection's actions: how many are picked, the actions, Clear selection (plain and Secure rooms). */
export function SelectionFrame({ count, onClear, children }: { count: number; onClear: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <div className={styles.bar} role="toolbar" aria-label={t('roomSelect:toolbar')}>
      <Text weight="semibold" aria-live="polite">
        {t('roomSelect:count', { count })}
      </Text>
      {children}
      <Button appearance="subtle" icon={<DismissRegular />} onClick={onClear}>
        {t('roomSelect:clearSelection')}
      </Button>
    </div>
  );
}
