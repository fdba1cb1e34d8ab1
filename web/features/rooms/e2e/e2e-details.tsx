import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { MoreHorizontalRegular } from '@fluentui/react-icons';
import { call } from '@shared/api/call';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import type { Room, RoomFolder } from '@shared/contract/rooms';
import { apiClient } from '@web/lib/api-client';
import { useSecuPassSession } from '@web/lib/crypto';
import { useNotify } from '@web/lib/toasts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DetailsPanel, type DetailsItem, type DetailsNames } from '../details-panel';
import { roomErrorText } from '../room-errors';
import { e2eCommentCodec } from './e2e-comments';
import { useE2eDeleteDialog } from './e2e-delete';
import type { E2eListedFile } from './e2e-room-client';
import { SealedActivityName } from './sealed-name';

/** The plain details sidebar with the E2E names source: decrypted name, signed size, type, version and date, activity names opened, comments sealed. */
function useE2eDetails(roomUuid: string) {
  const [open, setOpen] = useState<{ item: DetailsItem; names: DetailsNames } | null>(null);
  const itemCell: DetailsNames['itemCell'] = (entry) => <SealedActivityName roomUuid={roomUuid} entry={entry} />;
  const keys = useSecuPassSession()?.keys;
  // Comments sealed and signed in the browser (e2e-comments.ts); without unlocked keys no Comments tab.
  const comments = useMemo(() => (keys ? e2eCommentCodec(roomUuid, keys) : undefined), [roomUuid, keys]);
  return {
    show: (item: DetailsItem, name: string, file?: E2eListedFile) =>
      setOpen({
        item,
        names: {
          name,
          itemCell,
          ...(comments ? { comments } : {}),
          // Size, type, version and date as signed (README section 7), not the server's row.
          ...(file?.metadata
            ? { size: file.metadata.size, signed: { version: file.metadata.version, createdAt: file.metadata.createdAt }, ...(file.metadata.mimeType ? { mimeType: file.metadata.mimeType } : {}) }
            : {}),
        },
      }),
    panel: <DetailsPanel item={open?.item ?? null} names={open?.names} onClose={() => setOpen(null)} />,
  };
}

/**
 * The plain breadcrumb's context menu for an E2E room or folder (the `…` after the last step,
 * "Actions for “<here>”", names decrypted): Share (OWNER), New folder and Upload files (OWNER,
 * EDITOR — the page's own dialogs and picker), Download as ZIP (not a PREVIEWER: e2e-zip.ts), Details (everyone: the plain sidebar with the E2E
 * names), Rename and Delete (the room: OWNER; a folder: OWNER, EDITOR).
 */
export function E2eCrumbMenu(props: {
  room: Room;
  folder: RoomFolder | null;
  hereName: string;
  canWrite: boolean;
  isOwner: boolean;
  onShare: () => void;
  onNewFolder: () => void;
  onUpload: () => void;
  /** Rename of the open folder (OWNER, EDITOR: the page's rename of a row) or of the room (OWNER). */
  onRename?: () => void;
  /** The open folder's or the room's ZIP (everyone who may download: not a PREVIEWER). */
  onZip?: () => void;
}) {
  const { room, folder, hereName, canWrite, isOwner } = props;
  const { t } = useTranslation();
  const details = useE2eDetails(room.uuid);
  const remove = useE2eDeleteDialog(room.uuid);
  const mayDelete = folder ? canWrite : isOwner;
  return (
    <>
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button size="small" appearance="subtle" icon={<MoreHorizontalRegular />} aria-label={t('rooms:crumbMenu.label', { name: hereName })} />
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            {isOwner ? <MenuItem onClick={props.onShare}>{t('rooms:share.action')}</MenuItem> : null}
            {canWrite ? <MenuItem onClick={props.onNewFolder}>{t('rooms:folder.createAction')}</MenuItem> : null}
            {canWrite ? <MenuItem onClick={props.onUpload}>{t('rooms:files.upload')}</MenuItem> : null}
            {props.onZip ? <MenuItem onClick={props.onZip}>{t('rooms:files.zip')}</MenuItem> : null}
            <MenuItem onClick={() => details.show(folder ? { kind: 'folder', room, folder } : { kind: 'room', room }, hereName)}>{t('rooms:details.action')}</MenuItem>
            {props.onRename ? <MenuItem onClick={props.onRename}>{t('rooms:rename.action')}</MenuItem> : null}
            {mayDelete ? (
              <MenuItem onClick={() => remove.ask(folder ? { kind: 'here-folder', uuid: folder.uuid, name: hereName, parentUuid: folder.parentUuid } : { kind: 'room', name: hereName })}>
                {t('rooms:delete.action')}
              </MenuItem>
            ) : null}
          </MenuList>
        </MenuPopover>
      </Menu>
      {details.panel}
      {remove.dialog}
    </>
  );
}

/**
 * "Details" in a row's menu of the E2E list: the plain sidebar (Access, Activity for OWNERs, Details)
 * with the decrypted name; a folder's record comes with the listing, a file's is asked for (`GET
 * …/files/{file}`: dates, uploader, role) and its size and type are the signed metadata's. One
 * sidebar for the page: `open(room, folders, row)`, and `panel` mounted once.
 */
export function useE2eRowDetails(roomUuid: string) {
  const { t } = useTranslation();
  const notify = useNotify();
  const details = useE2eDetails(roomUuid);
  const open = async (room: Room, folders: readonly RoomFolder[], row: { kind: 'folder' | 'file'; uuid: string; name: string | null; file?: E2eListedFile }) => {
    const name = row.name || t('rooms:e2e.nameBroken');
    try {
      if (row.kind === 'folder') {
        const folder = folders.find((f) => f.uuid === row.uuid);
        if (folder) details.show({ kind: 'folder', room, folder }, name);
      } else {
        const file = await call(apiClient, E.file, { params: { roomUuid: room.uuid, fileUuid: row.uuid } });
        details.show({ kind: 'file', room, file }, name, row.file);
      }
    } catch (error) {
      const text = roomErrorText(error);
      notify('error', t('rooms:e2ePage.details.failed', { name }), t(`rooms:${text.key}`, text.values));
    }
  };
  return { open, panel: details.panel };
}
