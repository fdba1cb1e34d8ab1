import { call } from '@shared/api/call';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import { apiClient } from '@web/lib/api-client';
import { ROUTES } from '@web/lib/routes';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hitLocation } from './api/rooms-search';
import { foldedIncludes, foldForSearch } from '@shared/contract/search-fold';
import { ROOM_SEARCH_SHOWN, RoomSearchBox, RoomSearchHits, type RoomSearchEntry, type RoomSearchFound } from './room-search-hits';

/**
 * Search inside one plain room (issue 31 §4): "Search" asks the server (GET /rooms/{room}/search,
 * names and comments folded for case and accents there: shared/contract/search-fold.ts) for the folders and
 * files whose name or a comment on them contains the term, where the caller has a role; the matches are listed with
 * their folder path, a folder opening itself and a file its folder with the file highlighted.
 */
export function RoomSearch({ roomUuid, roomName }: { roomUuid: string; roomName: string }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<{ q: string; matches: RoomSearchEntry[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const run = useRef(0);

  async function search() {
    const q = query.trim();
    const mine = ++run.current;
    setFailed(false);
    if (!q) return setFound(null);
    setBusy(true);
    try {
      const result = await call(apiClient, E.search, { params: { roomUuid }, query: { q, pageSize: ROOM_SEARCH_SHOWN } });
      if (run.current !== mine) return;
      const at = (path: { uuid: string; name: string }[]) => ({ folderUuid: path.at(-1)?.uuid ?? null, path: path.map((p) => p.name) });
      // The server found it by its name, a comment on it, or both (issue 31 §1).
      const found = (hit: { name: string; matchedComment?: string | undefined }): RoomSearchFound[] => [
        ...(foldedIncludes(hit.name, foldForSearch(q)) ? [{ kind: 'name' as const }] : []),
        ...(hit.matchedComment === undefined ? [] : [{ kind: 'comment' as const, text: hit.matchedComment }]),
      ];
      setFound({
        q,
        matches: [
          ...result.folders.map((f) => ({ kind: 'folder' as const, uuid: f.uuid, name: f.name, ...at(f.path), found: found(f), by: { email: f.createdBy, name: f.createdByName } })),
          ...result.files.map((f) => ({ kind: 'file' as const, uuid: f.uuid, name: f.name, ...at(f.path), found: found(f), by: { email: f.uploadedBy, name: f.uploadedByName } })),
        ],
      });
    } catch {
      if (run.current === mine) setFailed(true);
    } finally {
      if (run.current === mine) setBusy(false);
    }
  }

  return (
    <RoomSearchBox query={query} onQuery={setQuery} onSearch={() => void search()} busy={busy ? t('rooms:e2ePage.search.submit') : undefined} failed={failed}>
      {found && !busy ? (
        <RoomSearchHits matches={found.matches} q={found.q} roomName={roomName} folderLink={(folderUuid) => ROUTES.room(roomUuid, folderUuid ?? undefined)} hitLink={(e) => hitLocation(roomUuid, e.folderUuid, e.uuid)} />
      ) : null}
    </RoomSearchBox>
  );
}
