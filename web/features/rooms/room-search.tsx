import { call } from '@shared/api/call';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import { apiClient } from '@web/lib/api-client';
import { ROUTES } from '@web/lib/routes';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hitLocation } from './api/rooms-search';
import { foldedIncludes, foldForSearch } from '@shared/contract/search-fold';
import { NO_LABEL_FILTER, type LabelFilterValue } from './room-labels';
import { ROOM_SEARCH_SHOWN, RoomSearchBox, RoomSearchHits, type RoomSearchEntry, type RoomSearchFound } from './room-search-hits';
import { isSearchQuery, searchQueryOf, searchQueryText } from './room-search-match';

/**
 * Search inside one plain room (issue 31 §4): "Search" asks the server (GET /rooms/{room}/search,
 * names and comments folded for case and accents there: shared/contract/search-fold.ts) for the folders and
 * files whose name or a comment on them contains the term, where the caller has a role; the matches are listed with
 * their folder path, a folder opening itself and a file its folder with the file highlighted. The
 * classification and status selects go with it as the route's `classification` and `status` (alone
 * or with a term: room-search-match.ts), each hit naming the chosen labels as found.
 */
export function RoomSearch({ roomUuid, roomName }: { roomUuid: string; roomName: string }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [labels, setLabels] = useState<LabelFilterValue>(NO_LABEL_FILTER);
  const [found, setFound] = useState<{ q: string; matches: RoomSearchEntry[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const run = useRef(0);

  async function search() {
    const asked = searchQueryOf(query, labels);
    const { q } = asked;
    const mine = ++run.current;
    setFailed(false);
    if (!isSearchQuery(asked)) return setFound(null);
    setBusy(true);
    try {
      const { classification, status } = asked;
      const result = await call(apiClient, E.search, {
        params: { roomUuid },
        query: { ...(q ? { q } : {}), ...(classification ? { classification } : {}), ...(status ? { status } : {}), pageSize: ROOM_SEARCH_SHOWN },
      });
      if (run.current !== mine) return;
      const at = (path: { uuid: string; name: string }[]) => ({ folderUuid: path.at(-1)?.uuid ?? null, path: path.map((p) => p.name) });
      // The server found it by its name, a comment on it, or both (issue 31 §1), with the chosen labels.
      const found = (hit: { name: string; matchedComment?: string | undefined }): RoomSearchFound[] => [
        ...(q && foldedIncludes(hit.name, foldForSearch(q)) ? [{ kind: 'name' as const }] : []),
        ...(hit.matchedComment === undefined ? [] : [{ kind: 'comment' as const, text: hit.matchedComment }]),
        ...(classification ? [{ kind: 'classification' as const, value: classification }] : []),
        ...(status ? [{ kind: 'status' as const, value: status }] : []),
      ];
      setFound({
        q: searchQueryText(asked, (area, value) => t(`roomComments:${area}.values.${value}`)),
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
    <RoomSearchBox query={query} onQuery={setQuery} labels={labels} onLabels={setLabels} onSearch={() => void search()} busy={busy ? t('rooms:e2ePage.search.submit') : undefined} failed={failed}>
      {found && !busy ? (
        <RoomSearchHits matches={found.matches} q={found.q} roomName={roomName} folderLink={(folderUuid) => ROUTES.room(roomUuid, folderUuid ?? undefined)} hitLink={(e) => hitLocation(roomUuid, e.folderUuid, e.uuid)} />
      ) : null}
    </RoomSearchBox>
  );
}
