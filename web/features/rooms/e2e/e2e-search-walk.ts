import { call } from '@shared/api/call';
import { ROOM_COMMENT_ENDPOINTS as C } from '@shared/contract/endpoints/room-comments';
import { ROOM_FILES_PAGE_MAX, type RoomClassification, type RoomFileStatus } from '@shared/contract/rooms';
import type { UnlockedKeys } from '@shared/crypto/service';
import { apiClient } from '@web/lib/api-client';
import { fetchRoomContents } from '../api/rooms';
import type { CommentTarget } from '../api/room-comments';
import type { RoomSearchEntry } from '../room-search-hits';
import { e2eCommentCodec } from './e2e-comments';
import { shownLabelsOf } from './e2e-folder-labels';
import { openE2eFolder } from './e2e-room-client';

/** One item of the whole-room index: where it is, its decrypted name, its opened comments and its signed labels. */
export interface E2eIndexEntry extends Omit<RoomSearchEntry, 'name' | 'found'> {
  name: string | null;
  /** The comments that opened and verified (one that does not is left out: it cannot be searched). */
  comments: string[];
  /** From the file's signed metadata or the folder's signed record (shared/crypto/README.md section 7 "Folder labels"). */
  classification?: RoomClassification;
  status?: RoomFileStatus;
}

/** Comment lists asked for at once (one request per item: the list route answers one item). */
const COMMENT_CALLS = 4;

/**
 * Walks the whole Secure room from the top: each folder's pages opened as the table opens them
 * (names decrypted, each file's metadata and each folder's labels verified against their signer's
 * pinned key, so the labels found are the signed ones), then every item's comments fetched and opened in the crypto Worker
 * (`openRoomComments`, each author's signature checked). `onProgress` counts the items indexed.
 */
export async function indexE2eRoom(roomUuid: string, keys: UnlockedKeys, onProgress: (items: number) => void, stillWanted: () => boolean): Promise<E2eIndexEntry[] | null> {
  const entries: E2eIndexEntry[] = [];
  const queue: { uuid: string | null; path: string[] }[] = [{ uuid: null, path: [] }];
  for (let here = queue.shift(); here; here = queue.shift()) {
    let cursor: string | undefined;
    let first = true;
    do {
      const page = await fetchRoomContents(roomUuid, here.uuid, { pageSize: ROOM_FILES_PAGE_MAX, ...(cursor ? { cursor } : {}) });
      // Sub-folders come with the first page only; the room and path names are open already after it.
      const view = await openE2eFolder(first ? page : { ...page, path: [], folders: [] }, keys);
      if (!stillWanted()) return null;
      for (const folder of first ? view.folders : []) {
        const labels = shownLabelsOf(folder.labels);
        entries.push({ kind: 'folder', uuid: folder.uuid, name: folder.name, folderUuid: here.uuid, path: here.path, comments: [], ...(labels.classification === 'none' ? {} : { classification: labels.classification }), ...(labels.status === 'none' ? {} : { status: labels.status }) });
        queue.push({ uuid: folder.uuid, path: [...here.path, folder.name ?? '…'] });
      }
      for (const file of view.files) {
        const labels = file.metadata ? { ...(file.metadata.classification ? { classification: file.metadata.classification } : {}), ...(file.metadata.status ? { status: file.metadata.status } : {}) } : {};
        entries.push({ kind: 'file', uuid: file.uuid, name: file.problem === 'room-name-invalid' ? null : file.name, folderUuid: here.uuid, path: here.path, comments: [], ...labels });
      }
      onProgress(entries.length);
      first = false;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  const codec = e2eCommentCodec(roomUuid, keys);
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < entries.length && stillWanted(); at = next++) {
      const entry = entries[at]!;
      const target: CommentTarget = entry.kind === 'file' ? { fileUuid: entry.uuid } : { folderUuid: entry.uuid };
      const { comments } = await call(apiClient, C.list, { params: { roomUuid }, query: target });
      const opened = await codec.open(target, comments);
      entry.comments = comments.flatMap((c) => {
        const shown = opened.get(c.uuid);
        return shown && 'text' in shown ? [shown.text] : [];
      });
    }
  };
  await Promise.all(Array.from({ length: COMMENT_CALLS }, worker));
  return stillWanted() ? entries : null;
}
