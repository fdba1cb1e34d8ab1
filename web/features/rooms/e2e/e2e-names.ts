import { ROOM_FILES_PAGE_MAX } from '@shared/contract/rooms';
import type { KeyHandle } from '@shared/crypto/service';
import { fetchRoomContents } from '../api/rooms';
import { decryptNames } from './e2e-room-client';

/** One item of an E2E folder with its decrypted name (null: the name does not decrypt). */
export interface E2eNamedItem {
  kind: 'folder' | 'file';
  uuid: string;
  name: string | null;
}

/**
 * Every sub-folder and file of an E2E folder (or the top level) with its decrypted name: the pages
 * of ROOM_FILES_PAGE_MAX fetched one after the other, each page's names decrypted in one Worker
 * call. Only names: no metadata is opened or verified (a search and the drop's name check need
 * the names alone). `onPage` counts the names decrypted so far.
 */
export async function listE2eNames(roomUuid: string, roomKey: KeyHandle, folderUuid: string | null, onPage?: (names: number) => void): Promise<E2eNamedItem[]> {
  const out: E2eNamedItem[] = [];
  let cursor: string | undefined;
  do {
    // The sub-folders come with the first page; a page asked for with a cursor has none.
    const page = await fetchRoomContents(roomUuid, folderUuid, { pageSize: ROOM_FILES_PAGE_MAX, ...(cursor ? { cursor } : {}) });
    const items = [
      ...page.folders.map((f) => ({ kind: 'folder' as const, itemId: f.uuid, sealed: f.name })),
      ...page.files.map((f) => ({ kind: 'file' as const, itemId: f.uuid, sealed: f.name })),
    ];
    const names = await decryptNames(roomUuid, roomKey, items);
    items.forEach((item, i) => out.push({ kind: item.kind, uuid: item.itemId, name: names[i] ?? null }));
    onPage?.(items.length);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/**
 * The folder's names as the server holds them now (every page, decrypted), trimmed and lower-case,
 * as the server compares plain names: the list a page shows may be older than a name someone
 * added since, and the server cannot compare sealed names (a save-as-copy and an upload pick a
 * free "name (n)" from these).
 */
export async function takenNamesNow(roomUuid: string, roomKey: KeyHandle, folderUuid: string | null): Promise<Set<string>> {
  const names = new Set<string>();
  for (const item of await listE2eNames(roomUuid, roomKey, folderUuid)) if (item.name !== null) names.add(item.name.trim().toLowerCase());
  return names;
}
