import type { RoomFile } from '@shared/contract/rooms';
import { useTranslation } from 'react-i18next';
import { createRoomFileLink, revokeRoomFileLink, useRoomFileLinks } from './api';
import { LinkDialog } from './link-dialog';

/**
 * "Share link" of a plain room's file (OWNER, EDITOR): the link dialog (link-dialog.tsx) for one
 * file; its URL is the landing page `/room-link#token=…` (name, size, expiry, Download). E2E rooms
 * have no such entry (the server refuses: it cannot decrypt).
 */
export function ShareLinkDialog({ file, onClose }: { file: RoomFile | null; onClose: () => void }) {
  const { t } = useTranslation();
  const links = useRoomFileLinks(file);
  const name = file?.name ?? '';
  return (
    <LinkDialog
      open={file !== null}
      onClose={onClose}
      name={name}
      text={{ title: t('roomLinks:title', { name }), intro: t('roomLinks:intro'), listTitle: t('roomLinks:listTitle'), empty: t('roomLinks:empty') }}
      withLimit
      links={links}
      create={(options) => {
        if (!file) return Promise.reject(new Error('no file'));
        return createRoomFileLink(file.roomUuid, file.uuid, options);
      }}
      revoke={async (link) => {
        if (file) await revokeRoomFileLink(file.roomUuid, file.uuid, link.uuid);
      }}
    />
  );
}
