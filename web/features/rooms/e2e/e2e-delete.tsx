import { Button } from '@fluentui/react-components';
import { DeleteRegular } from '@fluentui/react-icons';
import { call } from '@shared/api/call';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import { apiClient } from '@web/lib/api-client';
import { ROUTES } from '@web/lib/routes';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteFolder, deleteRoom, refreshRooms } from '../api/rooms';
import { ConfirmDialog, type ConfirmRequest } from '../room-dialogs';

/** What an E2E delete removes: a file or folder of the list, the open folder, or the room. */
export type E2eDeleteTarget =
  | { kind: 'file' | 'folder'; uuid: string; name: string | null }
  | { kind: 'here-folder'; uuid: string; name: string | null; parentUuid: string | null }
  | { kind: 'room'; name: string | null };

/**
 * Delete in an E2E room: the plain room calls (DELETE file / folder / room — the server needs no
 * name for them), so deleted E2E items go to the trash like plain ones (an administrator sees them
 * as "Encrypted item" and can restore them). The confirmation and the toasts name the decrypted
 * name; deleting the open folder goes to its parent, deleting the room to Secure rooms. The
 * toolbar's "Delete folder" / "Delete room"; a row's Delete is its menu's item (`useE2eDeleteDialog`).
 */
export function E2eDeleteButton({ roomUuid, target }: { roomUuid: string; target: E2eDeleteTarget & { kind: 'here-folder' | 'room' } }) {
  const { t } = useTranslation();
  const remove = useE2eDeleteDialog(roomUuid);
  return (
    <>
      <Button icon={<DeleteRegular />} onClick={() => remove.ask(target)}>
        {target.kind === 'room' ? t('rooms:delete.roomAction') : t('rooms:delete.folderAction')}
      </Button>
      {remove.dialog}
    </>
  );
}

/** The delete confirmation opened from anywhere (a row's menu item, a button): `ask(target)`, and `dialog` to mount once. */
export function useE2eDeleteDialog(roomUuid: string): { ask: (target: E2eDeleteTarget) => void; dialog: ReactNode } {
  const deleteRequest = useE2eDeleteRequest(roomUuid);
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  return { ask: (target) => setRequest(deleteRequest(target)), dialog: <ConfirmDialog request={request} onClose={() => setRequest(null)} /> };
}

/** The confirmation (and the call behind it) of deleting `target`; also the breadcrumb menu's Delete. */
export function useE2eDeleteRequest(roomUuid: string): (target: E2eDeleteTarget) => ConfirmRequest {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (target) => {
    const name = target.name || t('rooms:e2e.nameBroken');
    switch (target.kind) {
      case 'file':
        return {
          title: t('rooms:files.deleteTitle', { name }),
          text: t('rooms:files.deleteText', { name }),
          confirmLabel: t('rooms:delete.confirm'),
          run: async () => {
            await call(apiClient, E.removeFile, { params: { roomUuid, fileUuid: target.uuid } });
            await refreshRooms();
          },
          done: t('rooms:files.deleted', { name }),
          failed: t('rooms:files.deleteFailed', { name }),
        };
      case 'room':
        return {
          title: t('rooms:delete.roomTitle', { name }),
          text: t('rooms:delete.roomText', { name }),
          confirmLabel: t('rooms:delete.confirm'),
          run: async () => {
            await deleteRoom(roomUuid);
            await navigate(ROUTES.secureRooms);
            await refreshRooms();
          },
          done: t('rooms:delete.roomDone', { name }),
          failed: t('rooms:delete.roomFailed', { name }),
        };
      default:
        return {
          title: t('rooms:delete.folderTitle', { name }),
          text: t('rooms:delete.folderText', { name }),
          confirmLabel: t('rooms:delete.confirm'),
          run: async () => {
            await deleteFolder(roomUuid, target.uuid);
            if (target.kind === 'here-folder') await navigate(ROUTES.secureRoom(roomUuid, target.parentUuid ?? undefined));
            await refreshRooms();
          },
          done: t('rooms:delete.folderDone', { name }),
          failed: t('rooms:delete.folderFailed', { name }),
        };
    }
  };
}
