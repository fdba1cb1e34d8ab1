import { ROOM_FILES_PAGE_MAX } from '@shared/contract/rooms';
import type { KeyHandle } from '@shared/crypto/service';
import { fetchRoomContents } from '../api/rooms';
import { decryptNames } from './e2e-room-client';

export interface SiblingItem {
  kind: 'folder' | 'file';
  uuid: string;
}

/**
 * The decrypted names of a folder (or the room's top level: `folderUuid` null) as the server holds
 * them now — its sub-folders and every page of its files — handed to `visit` page by page, which
 * answers true to stop. The server cannot compare sealed names (shared/crypto/README.md "7. Data
 * rooms"), so a clash check that must not miss what others added since the folder was opened (a
 * move's target, the name of a saved copy) reads them again here. A name that does not decrypt is
 * skipped.
 */
export async function visitSiblingNames(roomUuid: string, roomKey: KeyHandle, folderUuid: string | null, visit: (name: string, item: SiblingItem) => boolean): Promise<void> {
  let cursor: string | undefined;
  do {
    // The sub-folders come with the first page; a page asked for with a cursor has none.
    const page = await fetchRoomContents(roomUuid, folderUuid, { pageSize: ROOM_FILES_PAGE_MAX, ...(cursor ? { cursor } : {}) });
    const items = [
      ...page.folders.map((f) => ({ kind: 'folder' as const, itemId: f.uuid, sealed: f.name })),
      ...page.files.map((f) => ({ kind: 'file' as const, itemId: f.uuid, sealed: f.name })),
    ];
    const names = await decryptNames(roomUuid, roomKey, items);
    for (const [i, name] of names.entries()) {
      if (name !== null && visit(name, { kind: items[i]!.kind, uuid: items[i]!.itemId })) return;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** Every name taken in the folder now, lower-cased (the server compares plain names case-insensitively). */
export async function takenNamesNow(roomUuid: string, roomKey: KeyHandle, folderUuid: string | null): Promise<Set<string>> {
  const taken = new Set<string>();
  await visitSiblingNames(roomUuid, roomKey, folderUuid, (name) => {
    taken.add(name.trim().toLowerCase());
    return false;
  });
  return taken;
}
