import { call } from '@shared/api/call';
import { API_BASE } from '@shared/contract/constants';
import { CONTENT_SHA256_HEADER } from '@shared/contract/deliveries';
import { ROOM_FOLDER_LINK_ENDPOINTS as E } from '@shared/contract/endpoints/room-folder-links';
import { ROOM_FOLDER_LINK_PATHS, type CreatedRoomFolderLink, type CreateRoomFolderLinkBody, type RoomFolderLinkInfo, type RoomFolderLinkList } from '@shared/contract/room-folder-links';
import { sha256Hex } from '@shared/crypto/subtle';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR, { mutate } from 'swr';
import { roomLinkTokenHeaders } from './api';

const FOLDER_LINKS_KEY = 'rooms/folder-links';

/** GET …/folders/{folder}/links (OWNER, EDITOR): the folder's folder and drop links; null folder: not asked. */
export const useRoomFolderLinks = (target: { roomUuid: string; folderUuid: string } | null) => {
  const { user } = useAuthState();
  return useSWR(user && target ? [FOLDER_LINKS_KEY, user.uuid, target.roomUuid, target.folderUuid] : null, ([, , roomUuid, folderUuid]): Promise<RoomFolderLinkList> =>
    call(apiClient, E.list, { params: { roomUuid, folderUuid } }),
  );
};

const refreshFolderLinks = () => mutate((key) => Array.isArray(key) && key[0] === FOLDER_LINKS_KEY);

export async function createRoomFolderLink(roomUuid: string, folderUuid: string, body: CreateRoomFolderLinkBody): Promise<CreatedRoomFolderLink> {
  const created = await call(apiClient, E.create, { params: { roomUuid, folderUuid }, body });
  await refreshFolderLinks();
  return created;
}

export async function revokeRoomFolderLink(roomUuid: string, folderUuid: string, linkUuid: string): Promise<void> {
  await call(apiClient, E.revoke, { params: { roomUuid, folderUuid, linkUuid } });
  await refreshFolderLinks();
}

/** GET /room-folder-links/by-token (public): a folder link's listing, or a drop link's folder name. */
export const getFolderLinkInfo = (token: string, password: string, folderUuid?: string): Promise<RoomFolderLinkInfo> =>
  call(apiClient, E.info, { query: folderUuid ? { folderUuid } : {} }, { headers: roomLinkTokenHeaders(token, password) });

/**
 * One file through a drop link: announce, each part with its SHA-256 (as a member's room upload),
 * commit. Parts go one after the other: a visitor's drop is a few files, not a bulk transfer.
 */
export async function dropFile(token: string, password: string, file: File): Promise<void> {
  const headers = roomLinkTokenHeaders(token, password);
  const announced = await call(apiClient, E.dropFile, { body: { name: file.name, size: file.size, mimeType: file.type || undefined } }, { headers });
  for (let i = 0; i < announced.partCount; i++) {
    const part = await file.slice(i * announced.partSize, (i + 1) * announced.partSize).arrayBuffer();
    const response = await fetch(`${API_BASE}${ROOM_FOLDER_LINK_PATHS.dropPart(announced.uuid, i)}`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/octet-stream', [CONTENT_SHA256_HEADER]: await sha256Hex(new Uint8Array(part)) },
      body: part,
    });
    if (!response.ok) throw new Error(`part ${i}: ${response.status}`);
  }
  await call(apiClient, E.dropCommit, { params: { fileUuid: announced.uuid } }, { headers });
}
