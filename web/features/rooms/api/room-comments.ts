import { call } from '@shared/api/call';
import { ROOM_COMMENT_ENDPOINTS as C } from '@shared/contract/endpoints/room-comments';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import type { RoomComment, RoomCommentList } from '@shared/contract/room-comments';
import type { RoomClassification, RoomFileStatus } from '@shared/contract/rooms';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR, { mutate } from 'swr';

/** Comments (shared/contract/endpoints/room-comments.ts) and the classification and status of plain-room items (issue 31 §1). */

const COMMENTS_KEY = 'rooms/comments';

/** The file or folder a comment is about. */
export type CommentTarget = { fileUuid: string } | { folderUuid: string };

export const useRoomComments = (roomUuid: string, target: CommentTarget) => {
  const { user } = useAuthState();
  return useSWR(user ? [COMMENTS_KEY, user.uuid, roomUuid, target] : null, (): Promise<RoomCommentList> => call(apiClient, C.list, { params: { roomUuid }, query: target }));
};

const refreshComments = () => mutate((key) => Array.isArray(key) && key[0] === COMMENTS_KEY);

/** `signature`: a Secure room's comment, sealed and signed in the browser (then `text` is the sealed text). */
export async function addComment(roomUuid: string, target: CommentTarget, text: string, signature?: string): Promise<RoomComment> {
  const comment = await call(apiClient, C.create, { params: { roomUuid }, body: { ...target, text, ...(signature === undefined ? {} : { signature }) } });
  await refreshComments();
  return comment;
}

export async function editComment(roomUuid: string, commentUuid: string, text: string, signature?: string): Promise<RoomComment> {
  const comment = await call(apiClient, C.update, { params: { roomUuid, commentUuid }, body: { text, ...(signature === undefined ? {} : { signature }) } });
  await refreshComments();
  return comment;
}

export async function deleteComment(roomUuid: string, commentUuid: string): Promise<void> {
  await call(apiClient, C.remove, { params: { roomUuid, commentUuid } });
  await refreshComments();
}

export interface Labels {
  classification?: RoomClassification;
  status?: RoomFileStatus;
}

/** PATCH the classification and/or status of a plain room's file or folder (`none` removes it). */
export async function setLabels(roomUuid: string, item: { kind: 'file' | 'folder'; uuid: string }, labels: Labels): Promise<void> {
  if (item.kind === 'file') await call(apiClient, E.updateFile, { params: { roomUuid, fileUuid: item.uuid }, body: labels });
  else await call(apiClient, E.updateFolder, { params: { roomUuid, folderUuid: item.uuid }, body: labels });
}
