import { ROUTES } from '@web/lib/routes';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { secureHitLocation } from '../api/rooms-search';
import { NO_LABEL_FILTER, type LabelFilterValue } from '../room-labels';
import { RoomSearchBox, RoomSearchHits } from '../room-search-hits';
import { isSearchQuery, matchSearchEntry, searchQueryOf, searchQueryText } from '../room-search-match';
import { indexE2eRoom, type E2eIndexEntry } from './e2e-search-walk';

/**
 * Search over the whole E2E room (the server sees only ciphertext): on "Search" the room's folders
 * are walked from the top, names decrypted and file metadata verified in the crypto Worker, and
 * every item's comments opened there (e2e-search-walk.ts; a progress line counts the items while a
 * big room opens). A hit's name, comment text, classification or file status (in the user's
 * language) contains the term; the table says which matched. The classification and status
 * selects narrow it as they narrow the plain room's search route (room-search-match.ts; alone,
 * they list every item so labelled). Typing or choosing afterwards filters what is indexed;
 * "Search" again walks the room anew (new uploads, comments). The box above the table still
 * filters the open folder only.
 */
export function E2eRoomSearch({ roomUuid, roomName }: { roomUuid: string; roomName: string }) {
  const { t } = useTranslation();
  const unlock = useUnlockedKeys('decrypt');
  const [query, setQuery] = useState('');
  const [labels, setLabels] = useState<LabelFilterValue>(NO_LABEL_FILTER);
  const [index, setIndex] = useState<E2eIndexEntry[] | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const run = useRef(0);

  async function walk() {
    const keys = await unlock();
    if (!keys) return;
    const mine = ++run.current;
    setFailed(false);
    setProgress(0);
    try {
      const entries = await indexE2eRoom(roomUuid, keys, (count) => run.current === mine && setProgress(count), () => run.current === mine);
      if (entries) setIndex(entries);
    } catch {
      if (run.current === mine) setFailed(true);
    } finally {
      if (run.current === mine) setProgress(null);
    }
  }

  const asked = searchQueryOf(query, labels);
  const labelText = (area: 'classification' | 'status', value: string) => t(`roomComments:${area}.values.${value}`);
  const matches = index && isSearchQuery(asked) ? index.flatMap((e) => matchSearchEntry(e, asked, e.name ?? t('rooms:e2e.nameBroken'), labelText) ?? []) : [];
  return (
    <RoomSearchBox query={query} onQuery={setQuery} labels={labels} onLabels={setLabels} onSearch={() => void walk()} busy={progress === null ? undefined : t('rooms:e2ePage.search.progress', { count: progress })} failed={failed}>
      {index && isSearchQuery(asked) && progress === null ? (
        <RoomSearchHits
          matches={matches}
          q={searchQueryText(asked, labelText)}
          roomName={roomName}
          folderLink={(folderUuid) => ROUTES.secureRoom(roomUuid, folderUuid ?? undefined)}
          hitLink={(e) => secureHitLocation(roomUuid, e.folderUuid, e.uuid)}
        />
      ) : null}
    </RoomSearchBox>
  );
}
