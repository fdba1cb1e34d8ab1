import { call } from '@shared/api/call';
import { ROOM_E2E_ENDPOINTS as X } from '@shared/contract/endpoints/rooms-e2e';
import { ROOM_FILES_PAGE_MAX, type RoomContents, type RoomContentsQuery } from '@shared/contract/rooms';
import type { UnlockedKeys } from '@shared/crypto/service';
import { contactPinsFor } from '@shared/transfer/contact-pins';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { cryptoApi } from '@web/lib/crypto';
import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';
import { fetchRoomContents, ROOM_FILES_PAGE_SIZE } from '../api/rooms';
import type { E2eRoomState } from '@shared/contract/rooms-e2e';
import { E2eRoomAccessError, openE2eFolder, type E2eFolderView } from './e2e-room-client';

/**
 * The server can order sealed names only by what it sees: an E2E folder opens in `updatedAt` order,
 * newest first ("Modified, newest first", web/README "Data rooms").
 */
const ORDER = { sort: 'updatedAt', order: 'desc' } as const satisfies Partial<RoomContentsQuery>;

export interface E2eFolderLoad {
  /** The files opened so far, in the server's order (newest first); folders and names complete. */
  view: E2eFolderView;
  /** Files opened so far / in the folder. */
  loaded: number;
  total: number;
  done: boolean;
  /** `roomUuid|folderUuid` it belongs to. */
  of: string;
}

/**
 * Progressive open of an E2E folder: the first page (the plain page's 25 files) is fetched, its
 * names decrypted and signatures verified in one Worker call each, and shown; the rest follows in
 * the background in pages of ROOM_FILES_PAGE_MAX — the next page downloads while the current one is
 * opened — so name sort and search can cover the whole folder. The first page is SWR-keyed under
 * 'rooms/contents' like the plain pages, so `refreshRooms()` reopens the folder.
 */
export function useE2eFolder(roomUuid: string, folderUuid: string | undefined, keys: UnlockedKeys | undefined) {
  const { user } = useAuthState();
  const first = useSWR(user ? ['rooms/contents', user.uuid, roomUuid, folderUuid ?? null, 'e2e-first'] : null, () =>
    fetchRoomContents(roomUuid, folderUuid ?? null, { ...ORDER, pageSize: ROOM_FILES_PAGE_SIZE }),
  );
  const [load, setLoad] = useState<E2eFolderLoad | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // Bumped by `reopen`: a change the listing does not show (a folder's labels record) opens the folder again.
  const [generation, setGeneration] = useState(0);
  const contents = first.data;
  const userUuid = user?.uuid;

  // While the first page downloads: the signers list (the room's state) and the caller's contact
  // pins (loaded once per unlock, the same store verifiedContactKey loads) travel too.
  const early = useRef<{ of: string; state: Promise<E2eRoomState> } | null>(null);
  useEffect(() => {
    if (!keys || !userUuid) return;
    const pending = call(apiClient, X.state, { params: { roomUuid } });
    pending.catch(() => undefined); // openE2eFolder awaits it (or asks again)
    early.current = { of: `${roomUuid}|${folderUuid ?? ''}`, state: pending };
    contactPinsFor({ client: apiClient, crypto: cryptoApi, keys, ownerUserId: async () => userUuid }).catch(() => undefined);
  }, [keys, userUuid, roomUuid, folderUuid]);

  useEffect(() => {
    if (!keys || !contents) return;
    let cancelled = false;
    const of = `${roomUuid}|${folderUuid ?? ''}`;
    // The early state serves this first open only: later pages and reloads ask again (new signers).
    const state = early.current?.of === of ? early.current.state : undefined;
    early.current = null;
    const fetchPage = (cursor: string) => fetchRoomContents(roomUuid, folderUuid ?? null, { ...ORDER, pageSize: ROOM_FILES_PAGE_MAX, cursor });
    void (async () => {
      const opened = await openE2eFolder(contents, keys, state ? { state } : {});
      if (cancelled) return;
      const seen = new Set(opened.files.map((f) => f.uuid));
      let view = opened;
      const total = Math.max(contents.totalFiles, view.files.length);
      setLoad({ view, loaded: view.files.length, total, done: !contents.nextCursor, of });
      setProblem(null);
      let next: Promise<RoomContents> | null = contents.nextCursor ? fetchPage(contents.nextCursor) : null;
      while (next && !cancelled) {
        const page = await next;
        if (cancelled) return;
        next = page.nextCursor ? fetchPage(page.nextCursor) : null;
        next?.catch(() => undefined); // awaited in the next round; a failure must not count as unhandled meanwhile
        // Only the files: the room, path and folder names are open already.
        const more = await openE2eFolder({ ...page, path: [], folders: [] }, keys);
        if (cancelled) return;
        // A file changed while paging may come again in a later page: listed once.
        const files = more.files.filter((f) => !seen.has(f.uuid) && seen.add(f.uuid));
        view = { ...view, files: [...view.files, ...files] };
        setLoad({ view, loaded: view.files.length, total: Math.max(total, view.files.length), done: !next, of });
      }
    })().catch((error: unknown) => !cancelled && setProblem(error instanceof E2eRoomAccessError ? error.state : 'failed'));
    return () => {
      cancelled = true;
    };
  }, [keys, contents, roomUuid, folderUuid, generation]);

  // Another folder: nothing of the last one shows while this one opens (a reload keeps it until reopened).
  const current = load?.of === `${roomUuid}|${folderUuid ?? ''}` ? load : null;
  return { contents, load: current, problem, reopen: () => setGeneration((n) => n + 1) };
}
