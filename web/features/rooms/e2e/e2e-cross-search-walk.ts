import { foldedIncludes } from '@shared/contract/search-fold';
import { call } from '@shared/api/call';
import { ROOM_E2E_ENDPOINTS } from '@shared/contract/endpoints/rooms-e2e';
import type { Room } from '@shared/contract/rooms';
import type { UnlockedKeys } from '@shared/crypto/service';
import { apiClient } from '@web/lib/api-client';
import { listE2eNames } from './e2e-names';
import { decryptNames, E2eRoomAccessError, roomKeyOf } from './e2e-room-client';

/** E2E hits the cross-room search collects at most (a longer part of the name narrows them). */
export const E2E_CROSS_SEARCH_MAX = 500;

/** A room, folder or file of an E2E room whose decrypted name contains the term. */
export interface E2eCrossHit {
  roomUuid: string;
  kind: 'room' | 'folder' | 'file';
  uuid: string;
  name: string;
  /** The folder the item lies in (null: the top level; a room hit: null). */
  folderUuid: string | null;
  /** Room name, then the folders down to the item's folder; null: a name that does not decrypt. */
  location: (string | null)[];
}

export type E2eRoomSearchOutcome =
  | {
      kind: 'searched';
      hits: E2eCrossHit[];
      /** Names that did not decrypt (skipped, never guessed). */
      unreadable: number;
      /** A match beyond the budget was found: the walk stopped there. */
      more: boolean;
    }
  /** The caller has no room key (pending grant, not approved, no SecuPass). */
  | { kind: 'notSearchable' };

/** Every E2E room of the caller (GET /rooms/e2e, all pages: the list the Secure rooms page shows; the plain list has none). */
export async function listE2eRooms(): Promise<Room[]> {
  const rooms: Room[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(apiClient, ROOM_E2E_ENDPOINTS.list, { query: { pageSize: 200, ...(cursor ? { cursor } : {}) } });
    rooms.push(...page.rooms);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return rooms;
}

/**
 * Walks one E2E room as the whole-room search does (e2e-search.tsx: every folder from the top, each
 * page of names decrypted in one Worker call through `listE2eNames`) and keeps the items whose
 * decrypted name contains `needle` (folded: search-fold.ts), up to `budget`. Stops at the first match beyond the
 * budget (`more`) or when `signal` aborts (rejects with its reason).
 */
export async function searchE2eRoom(room: Room, keys: UnlockedKeys, needle: string, budget: number, signal: AbortSignal): Promise<E2eRoomSearchOutcome> {
  let roomKey;
  try {
    roomKey = await roomKeyOf(room.uuid, keys);
  } catch (error) {
    if (error instanceof E2eRoomAccessError) return { kind: 'notSearchable' };
    throw error;
  }
  signal.throwIfAborted();
  const [roomName = null] = await decryptNames(room.uuid, roomKey, [{ kind: 'room', itemId: room.uuid, sealed: room.name }]);
  signal.throwIfAborted();
  const hits: E2eCrossHit[] = [];
  let unreadable = roomName === null ? 1 : 0;
  const matches = (name: string) => foldedIncludes(name, needle);
  const add = (hit: E2eCrossHit): boolean => {
    if (hits.length >= budget) return false;
    hits.push(hit);
    return true;
  };
  if (roomName !== null && matches(roomName) && !add({ roomUuid: room.uuid, kind: 'room', uuid: room.uuid, name: roomName, folderUuid: null, location: [] })) {
    return { kind: 'searched', hits, unreadable, more: true };
  }
  const queue: { uuid: string | null; location: (string | null)[] }[] = [{ uuid: null, location: [roomName] }];
  for (let here = queue.shift(); here; here = queue.shift()) {
    // A page of names is the unit of work: a new query stops the walk between pages.
    const items = await listE2eNames(room.uuid, roomKey, here.uuid, () => signal.throwIfAborted());
    signal.throwIfAborted();
    for (const item of items) {
      if (item.name === null) unreadable++;
      else if (matches(item.name) && !add({ roomUuid: room.uuid, kind: item.kind, uuid: item.uuid, name: item.name, folderUuid: here.uuid, location: here.location })) {
        return { kind: 'searched', hits, unreadable, more: true };
      }
      // A folder whose own name does not decrypt still holds names that do (each is sealed on its own).
      if (item.kind === 'folder') queue.push({ uuid: item.uuid, location: [...here.location, item.name] });
    }
  }
  return { kind: 'searched', hits, unreadable, more: false };
}
