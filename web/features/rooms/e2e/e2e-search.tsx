import { foldedIncludes, foldForSearch } from '@shared/contract/search-fold';
import { ROUTES } from '@web/lib/routes';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { secureHitLocation } from '../api/rooms-search';
import { RoomSearchBox, RoomSearchHits, type RoomSearchEntry } from '../room-search-hits';
import { listE2eNames } from './e2e-names';
import { roomKeyOf } from './e2e-room-client';

/**
 * Search over the decrypted names of the whole E2E room (the server sees only sealed names): on
 * "Search" the room's folders are walked from the top, every page of names decrypted in the crypto
 * Worker (a progress line counts the names while a big room opens), and the matches listed with
 * their folder path. Typing afterwards filters the names already decrypted; "Search" again walks
 * the room anew (new uploads). The box above the table still filters the open folder only.
 */
export function E2eRoomSearch({ roomUuid, roomName }: { roomUuid: string; roomName: string }) {
  const { t } = useTranslation();
  const unlock = useUnlockedKeys('decrypt');
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState<RoomSearchEntry[] | null>(null);
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
      const roomKey = await roomKeyOf(roomUuid, keys);
      const entries: RoomSearchEntry[] = [];
      let names = 0;
      const queue: { uuid: string | null; path: string[] }[] = [{ uuid: null, path: [] }];
      for (let next = queue.shift(); next; next = queue.shift()) {
        const here = next;
        const items = await listE2eNames(roomUuid, roomKey, here.uuid, (count) => {
          names += count;
          if (run.current === mine) setProgress(names);
        });
        if (run.current !== mine) return;
        for (const item of items) {
          const name = item.name ?? t('rooms:e2e.nameBroken');
          entries.push({ kind: item.kind, uuid: item.uuid, name, folderUuid: here.uuid, path: here.path });
          if (item.kind === 'folder') queue.push({ uuid: item.uuid, path: [...here.path, name] });
        }
      }
      setIndex(entries);
    } catch {
      if (run.current === mine) setFailed(true);
    } finally {
      if (run.current === mine) setProgress(null);
    }
  }

  const needle = foldForSearch(query.trim());
  const matches = index && needle ? index.filter((e) => foldedIncludes(e.name, needle)) : [];
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
