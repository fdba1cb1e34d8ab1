import { foldedIncludes, foldForSearch } from '@shared/contract/search-fold';
import { ROUTES } from '@web/lib/routes';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import type { TFunction } from 'i18next';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { secureHitLocation } from '../api/rooms-search';
import { RoomSearchBox, RoomSearchHits, type RoomSearchEntry, type RoomSearchFound } from '../room-search-hits';
import { indexE2eRoom, type E2eIndexEntry } from './e2e-search-walk';

/** The entry as a hit when its name, a comment or a label (as the user reads it) contains the needle. */
function hitOf(entry: E2eIndexEntry, needle: string, name: string, t: TFunction): RoomSearchEntry | null {
  const found: RoomSearchFound[] = [];
  if (foldedIncludes(name, needle)) found.push({ kind: 'name' });
  for (const text of entry.comments) if (foldedIncludes(text, needle)) found.push({ kind: 'comment', text });
  const { classification, status } = entry;
  if (classification && classification !== 'none' && foldedIncludes(t(`roomComments:classification.values.${classification}`), needle)) found.push({ kind: 'classification', value: classification });
  if (status && status !== 'none' && foldedIncludes(t(`roomComments:status.values.${status}`), needle)) found.push({ kind: 'status', value: status });
  if (found.length === 0) return null;
  return { kind: entry.kind, uuid: entry.uuid, name, folderUuid: entry.folderUuid, path: entry.path, found };
}

/**
 * Search over the whole E2E room (the server sees only ciphertext): on "Search" the room's folders
 * are walked from the top, names decrypted and file metadata verified in the crypto Worker, and
 * every item's comments opened there (e2e-search-walk.ts; a progress line counts the items while a
 * big room opens). A hit's name, comment text, classification or file status (in the user's
 * language) contains the term; the table says which matched. Typing afterwards filters what is
 * indexed; "Search" again walks the room anew (new uploads, comments). The box above the table
 * still filters the open folder only.
 */
export function E2eRoomSearch({ roomUuid, roomName }: { roomUuid: string; roomName: string }) {
  const { t } = useTranslation();
  const unlock = useUnlockedKeys('decrypt');
  const [query, setQuery] = useState('');
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

  const needle = foldForSearch(query.trim());
  const matches = index && needle ? index.flatMap((e) => hitOf(e, needle, e.name ?? t('rooms:e2e.nameBroken'), t) ?? []) : [];
  return (
    <RoomSearchBox query={query} onQuery={setQuery} onSearch={() => void walk()} busy={progress === null ? undefined : t('rooms:e2ePage.search.progress', { count: progress })} failed={failed}>
      {index && needle && progress === null ? (
        <RoomSearchHits
          matches={matches}
          q={query.trim()}
          roomName={roomName}
          folderLink={(folderUuid) => ROUTES.secureRoom(roomUuid, folderUuid ?? undefined)}
          hitLink={(e) => secureHitLocation(roomUuid, e.folderUuid, e.uuid)}
        />
      ) : null}
    </RoomSearchBox>
  );
}
