import type { RoomFolderLinkKind } from '@shared/contract/room-folder-links';
import { useTranslation } from 'react-i18next';
import { createRoomFolderLink, revokeRoomFolderLink, useRoomFolderLinks } from './folder-link-api';
import { LinkDialog } from './link-dialog';

/** Which folder and which kind of link the dialog makes ("Share folder by link" or "Create upload link"). */
export interface FolderLinkRequest {
  roomUuid: string;
  folder: { uuid: string; name: string };
  kind: RoomFolderLinkKind;
}

/**
 * The link dialog of a plain room's folder (OWNER, EDITOR; issue 32 §2, server/README "Public links
 * to room folders"): a `folder` link (list and download, with a download limit) or a `drop` link
 * (upload only, no limit); the table lists the folder's links of both kinds. Secure rooms have no
 * such entry (the server answers 409 `encryptedRoom`).
 */
export function FolderLinkDialog({ request, onClose }: { request: FolderLinkRequest | null; onClose: () => void }) {
  const { t } = useTranslation();
  const links = useRoomFolderLinks(request ? { roomUuid: request.roomUuid, folderUuid: request.folder.uuid } : null);
  const name = request?.folder.name ?? '';
  const drop = request?.kind === 'drop';
  return (
    <LinkDialog
      open={request !== null}
      onClose={onClose}
      name={name}
      text={{
        title: drop ? t('roomLinks:dropTitle', { name }) : t('roomLinks:folderTitle', { name }),
        intro: drop ? t('roomLinks:dropIntro') : t('roomLinks:folderIntro'),
        listTitle: t('roomLinks:folderListTitle'),
        empty: t('roomLinks:folderEmpty'),
      }}
      withLimit={!drop}
      links={links}
      create={(options) => {
        if (!request) return Promise.reject(new Error('no folder'));
        return createRoomFolderLink(request.roomUuid, request.folder.uuid, { kind: request.kind, ...options });
      }}
      revoke={async (link) => {
        if (request) await revokeRoomFolderLink(request.roomUuid, request.folder.uuid, link.uuid);
      }}
    />
  );
}
