import { Button, Field, makeStyles, SearchBox, Spinner, Text, tokens } from '@fluentui/react-components';
import { DocumentRegular, FolderRegular, SearchRegular } from '@fluentui/react-icons';
import type { RoomsSearchFileHit, RoomsSearchFolderHit } from '@shared/contract/room-search';
import type { Room } from '@shared/contract/rooms';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { formatSize } from '@web/lib/format-size';
import { ROUTES } from '@web/lib/routes';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { hitLocation, searchLocation, useRoomsSearch } from './api/rooms-search';
import { E2eCrossSearch, useE2eRoomList } from './e2e/e2e-cross-search';
import { RoleBadge } from './room-format';

const useStyles = makeStyles({
  form: { display: 'flex', gap: '8px', alignItems: 'end', flexWrap: 'wrap', marginBottom: '16px' },
  section: { marginTop: '24px' },
  heading: { margin: '0 0 8px', fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  name: { display: 'inline-flex', gap: '6px', alignItems: 'center' },
  empty: { display: 'grid', gap: '8px', marginTop: '8px' },
});

/** The search across all data rooms (home and results page): submitting opens the results page. */
export function RoomsSearchForm({ initial = '' }: { initial?: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const [q, setQ] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = q.trim();
    void navigate(trimmed ? searchLocation(trimmed) : ROUTES.roomsSearch);
  };
  return (
    <form role="search" aria-label={t('rooms:search.label')} className={styles.form} onSubmit={submit}>
      <Field label={t('rooms:search.label')}>
        <SearchBox value={q} onChange={(_e, data) => setQ(data.value)} style={{ minWidth: 300 }} />
      </Field>
      <Button type="submit" icon={<SearchRegular />}>
        {t('rooms:search.submit')}
      </Button>
    </form>
  );
}

/** "Room › folder › folder": where a hit lies. */
const locationOf = (room: { name: string }, path: readonly { name: string }[]) => [room.name, ...path.map((p) => p.name)].join(' › ');

/**
 * Search results across the data rooms the caller can see (SPEC §2 "search results"; route
 * /datarooms/search?q=): rooms, folders and files whose name contains the term, each with where
 * it lies; a hit opens its folder with the item highlighted. Without a term: the empty state.
 * The plain rooms come from the server; the E2E rooms after them are searched in the browser.
 */
export function RoomsSearchPage() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const results = useRoomsSearch(q);
  const data = q ? results.data : undefined;
  const nothing = data && data.rooms.length + data.folders.length + data.files.length === 0;
  const hasSecureRooms = (useE2eRoomList().data?.length ?? 0) > 0;

  const roomColumns: DataTableColumn<Room>[] = [
    { id: 'name', header: t('rooms:search.columns.name'), cell: (room) => <RouterLink to={ROUTES.room(room.uuid)}>{room.name}</RouterLink> },
    { id: 'role', header: t('rooms:search.columns.role'), cell: (room) => <RoleBadge role={room.role} /> },
  ];
  const folderColumns: DataTableColumn<RoomsSearchFolderHit>[] = [
    {
      id: 'name',
      header: t('rooms:search.columns.name'),
      cell: (hit) => (
        <span className={styles.name}>
          <FolderRegular aria-hidden="true" />
          <RouterLink to={hitLocation(hit.room.uuid, hit.path.at(-1)?.uuid, hit.uuid)}>{hit.name}</RouterLink>
        </span>
      ),
    },
    { id: 'where', header: t('rooms:search.columns.where'), cell: (hit) => locationOf(hit.room, hit.path) },
    { id: 'role', header: t('rooms:search.columns.role'), cell: (hit) => <RoleBadge role={hit.role} /> },
  ];
  const fileColumns: DataTableColumn<RoomsSearchFileHit>[] = [
    {
      id: 'name',
      header: t('rooms:search.columns.name'),
      cell: (hit) => (
        <span className={styles.name}>
          <DocumentRegular aria-hidden="true" />
          <RouterLink to={hitLocation(hit.room.uuid, hit.folderUuid, hit.uuid)}>{hit.name}</RouterLink>
        </span>
      ),
    },
    { id: 'where', header: t('rooms:search.columns.where'), cell: (hit) => locationOf(hit.room, hit.path) },
    { id: 'size', header: t('rooms:search.columns.size'), cell: (hit) => formatSize(hit.size, i18n.language) },
    { id: 'role', header: t('rooms:search.columns.role'), cell: (hit) => <RoleBadge role={hit.role} /> },
  ];

  return (
    <>
      <PageHeading focusOnMount>{q ? t('rooms:search.titleFor', { q }) : t('rooms:search.title')}</PageHeading>
      <p>
        <RouterLink to={ROUTES.datarooms}>{t('rooms:room.backToRooms')}</RouterLink>
      </p>
      <RoomsSearchForm key={q} initial={q} />
      {!q ? (
        <div className={styles.empty}>
          <Text as="p">{t('rooms:search.empty')}</Text>
        </div>
      ) : results.error ? (
        <Alert type="error">{t('rooms:search.loadError')}</Alert>
      ) : !data ? (
        <Spinner label={t('common:loading')} />
      ) : nothing && hasSecureRooms ? (
        // The secure rooms' own line follows: this one speaks of the plain rooms only.
        <Text as="p" role="status">
          {t('rooms:search.plainNone', { q })}
        </Text>
      ) : nothing ? (
        <div className={styles.empty} role="status">
          <Text as="p" weight="semibold">
            {t('rooms:search.noResults', { q })}
          </Text>
          <Text as="p">{t('rooms:search.noResultsHint')}</Text>
        </div>
      ) : (
        <>
          <Text as="p" role="status">
            {t('rooms:search.count', { count: data.rooms.length + data.folders.length + data.files.length, q })}
            {data.truncated ? ` ${t('rooms:search.truncated')}` : ''}
          </Text>
          {data.rooms.length > 0 ? (
            <section className={styles.section} aria-labelledby="search-rooms-heading">
              <h2 id="search-rooms-heading" className={styles.heading}>
                {t('rooms:search.rooms')}
              </h2>
              <DataTable labelledBy="search-rooms-heading" columns={roomColumns} rows={data.rooms} rowKey={(room) => room.uuid} />
            </section>
          ) : null}
          {data.folders.length > 0 ? (
            <section className={styles.section} aria-labelledby="search-folders-heading">
              <h2 id="search-folders-heading" className={styles.heading}>
                {t('rooms:search.folders')}
              </h2>
              <DataTable labelledBy="search-folders-heading" columns={folderColumns} rows={data.folders} rowKey={(hit) => hit.uuid} />
            </section>
          ) : null}
          {data.files.length > 0 ? (
            <section className={styles.section} aria-labelledby="search-files-heading">
              <h2 id="search-files-heading" className={styles.heading}>
                {t('rooms:search.files')}
              </h2>
              <DataTable labelledBy="search-files-heading" columns={fileColumns} rows={data.files} rowKey={(hit) => hit.uuid} />
            </section>
          ) : null}
        </>
      )}
      {/* E2E rooms: the server cannot read their names; the browser searches them (web/README). */}
      <E2eCrossSearch q={q} />
    </>
  );
}
