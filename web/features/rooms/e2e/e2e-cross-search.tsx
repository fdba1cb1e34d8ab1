import { foldForSearch } from '@shared/contract/search-fold';
import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { DocumentRegular, FolderRegular, LockClosedRegular, ShieldLockRegular } from '@fluentui/react-icons';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { RouterLink } from '@web/components/router-link';
import { useAuthState } from '@web/lib/auth';
import { useSecuPassSession } from '@web/lib/crypto';
import { ROUTES } from '@web/lib/routes';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { secureHitLocation } from '../api/rooms-search';
import { E2E_CROSS_SEARCH_MAX, listE2eRooms, searchE2eRoom, type E2eCrossHit } from './e2e-cross-search-walk';

const useStyles = makeStyles({
  section: { marginTop: '24px', display: 'grid', gap: '8px', justifyItems: 'start' },
  heading: { margin: '0', fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  table: { justifySelf: 'stretch' },
  name: { display: 'inline-flex', gap: '6px', alignItems: 'center' },
});

interface Run {
  /** The query and key session it belongs to. */
  of: string;
  hits: E2eCrossHit[];
  unreadable: number;
  notSearchable: number;
  failed: number;
  more: boolean;
  done: boolean;
}

const HEADING_ID = 'search-secure-heading';

/** The caller's E2E rooms, under the room list's SWR key ('rooms/list': refreshRooms() reloads it with the lists). */
export function useE2eRoomList() {
  const { user } = useAuthState();
  return useSWR(user ? ['rooms/list', user.uuid, 'e2e-all'] : null, listE2eRooms);
}

/**
 * The E2E half of the cross-room search (issue 15: "for E2E rooms, search runs in the browser over
 * decrypted names"). The server cannot read these names, so with the SecuPass unlocked every E2E
 * room of the caller's list is walked here (e2e-cross-search-walk.ts), one room after the other, and its
 * matches appear as the room is done; a new query aborts the walk. Locked: a button unlocks first.
 * Nothing shows for a caller without E2E rooms.
 */
export function E2eCrossSearch({ q }: { q: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const session = useSecuPassSession();
  const unlock = useUnlockedKeys('decrypt');
  const rooms = useE2eRoomList();
  const [run, setRun] = useState<Run | null>(null);
  const keys = session?.keys;
  const of = keys ? `${q}|${keys.encryption.handle}` : '';

  useEffect(() => {
    const list = rooms.data;
    const needle = foldForSearch(q);
    if (!keys || !list || list.length === 0 || !needle) return;
    const controller = new AbortController();
    const { signal } = controller;
    const mine = `${q}|${keys.encryption.handle}`;
    const update = (change: (run: Run) => Partial<Run>) => setRun((prev) => (prev?.of === mine && !signal.aborted ? { ...prev, ...change(prev) } : prev));
    setRun({ of: mine, hits: [], unreadable: 0, notSearchable: 0, failed: 0, more: false, done: false });
    void (async () => {
      let found = 0;
      for (const room of list) {
        try {
          const outcome = await searchE2eRoom(room, keys, needle, E2E_CROSS_SEARCH_MAX - found, signal);
          if (outcome.kind === 'notSearchable') {
            update((r) => ({ notSearchable: r.notSearchable + 1 }));
            continue;
          }
          found += outcome.hits.length;
          update((r) => ({ hits: [...r.hits, ...outcome.hits], unreadable: r.unreadable + outcome.unreadable, more: outcome.more }));
          if (outcome.more) break;
        } catch {
          if (signal.aborted) return;
          update((r) => ({ failed: r.failed + 1 }));
        }
      }
      update(() => ({ done: true }));
    })();
    return () => controller.abort();
  }, [q, keys, rooms.data]);

  // No flash of the section for the many without E2E rooms: it shows once the list says there are some.
  if (!q || (!rooms.data && !rooms.error) || rooms.data?.length === 0) return null;
  const current = run?.of === of ? run : null;
  const columns: DataTableColumn<E2eCrossHit>[] = [
    {
      id: 'name',
      header: t('rooms:search.columns.name'),
      cell: (hit) => (
        <span className={styles.name}>
          {hit.kind === 'file' ? <DocumentRegular aria-hidden="true" /> : hit.kind === 'folder' ? <FolderRegular aria-hidden="true" /> : <ShieldLockRegular aria-hidden="true" />}
          {/* A folder or room opens itself, a file the folder it lies in with the file highlighted. */}
          <RouterLink to={hit.kind === 'file' ? secureHitLocation(hit.roomUuid, hit.folderUuid, hit.uuid) : ROUTES.secureRoom(hit.roomUuid, hit.kind === 'folder' ? hit.uuid : undefined)}>{hit.name}</RouterLink>
        </span>
      ),
    },
    { id: 'kind', header: t('rooms:search.secure.columns.kind'), cell: (hit) => t(`rooms:search.secure.kinds.${hit.kind}`) },
    { id: 'where', header: t('rooms:search.columns.where'), cell: (hit) => hit.location.map((name) => name ?? t('rooms:e2e.nameBroken')).join(' › ') },
  ];

  return (
    <section className={styles.section} aria-labelledby={HEADING_ID}>
      <h2 id={HEADING_ID} className={styles.heading}>
        {t('rooms:search.secure.title')}
      </h2>
      {rooms.error ? (
        <Alert type="error">{t('rooms:search.secure.loadError')}</Alert>
      ) : !rooms.data ? null : !keys ? (
        <>
          <Text as="p">{t('rooms:search.secure.locked')}</Text>
          <Button icon={<LockClosedRegular />} onClick={() => void unlock()}>
            {t('rooms:search.secure.unlock')}
          </Button>
        </>
      ) : (
        <>
          {!current?.done ? (
            <Spinner size="tiny" role="status" label={t('rooms:search.secure.progress', { count: rooms.data.length })} />
          ) : (
            <Text as="p" role="status">
              {current.hits.length === 0 ? t('rooms:search.secure.none', { q }) : t('rooms:search.secure.count', { count: current.hits.length, q })}
            </Text>
          )}
          {current && current.hits.length > 0 ? (
            <div className={styles.table}>
              <DataTable labelledBy={HEADING_ID} columns={columns} rows={current.hits} rowKey={(hit) => `${hit.roomUuid}|${hit.uuid}`} />
            </div>
          ) : null}
          {current?.more ? <Text as="p">{t('rooms:search.secure.more', { count: E2E_CROSS_SEARCH_MAX })}</Text> : null}
          {current && current.unreadable > 0 ? <Text as="p">{t('rooms:search.secure.unreadable', { count: current.unreadable })}</Text> : null}
          {current && current.notSearchable > 0 ? (
            <Text as="p">
              {t('rooms:search.secure.notSearchable', { count: current.notSearchable })} <RouterLink to={ROUTES.secureRooms}>{t('rooms:e2e.title')}</RouterLink>
            </Text>
          ) : null}
          {current && current.failed > 0 ? <Alert type="error">{t('rooms:search.secure.failed', { count: current.failed })}</Alert> : null}
        </>
      )}
    </section>
  );
}
