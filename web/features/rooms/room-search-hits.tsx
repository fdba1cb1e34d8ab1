import { Button, Field, makeStyles, SearchBox, Spinner, Text } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { RouterLink } from '@web/components/router-link';
import { PersonName } from './person-name';
import type { RoomClassification, RoomFileStatus } from '@shared/contract/rooms';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelFilter, type LabelFilterValue } from './room-labels';

const useStyles = makeStyles({
  form: { display: 'flex', gap: '12px', alignItems: 'end', flexWrap: 'wrap', margin: '0 0 12px' },
  results: { margin: '12px 0 16px' },
});

/**
 * The search box of one room ("Search the whole room") with the classification and status selects
 * that narrow it (the search route's `classification` and `status`), its button, a spinner while it
 * runs (`busy`: its label), the failure line, and below them `children` (the hits).
 */
export function RoomSearchBox({ query, onQuery, labels, onLabels, onSearch, busy, failed, children }: {
  query: string;
  onQuery: (query: string) => void;
  labels: LabelFilterValue;
  onLabels: (labels: LabelFilterValue) => void;
  onSearch: () => void;
  /** The spinner's label while a search runs; undefined: none runs. */
  busy: string | undefined;
  failed: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch();
  };
  return (
    <div className={styles.results}>
      <form role="search" className={styles.form} onSubmit={submit} aria-label={t('rooms:e2ePage.search.label')}>
        <Field label={t('rooms:e2ePage.search.label')}>
          <SearchBox value={query} onChange={(_e, data) => onQuery(data.value)} />
        </Field>
        <LabelFilter value={labels} onChange={onLabels} label={t('rooms:e2ePage.search.labels')} />
        <Button type="submit" icon={<SearchRegular />} disabled={busy !== undefined}>
          {t('rooms:e2ePage.search.submit')}
        </Button>
        {busy !== undefined ? <Spinner size="tiny" role="status" label={busy} /> : null}
      </form>
      {failed ? <Text role="alert">{t('rooms:e2ePage.search.failed')}</Text> : null}
      {children}
    </div>
  );
}

/** What of an item matched: its name, one of its comments, its classification or its file status. */
export type RoomSearchFound =
  | { kind: 'name' }
  | { kind: 'comment'; text: string }
  | { kind: 'classification'; value: RoomClassification }
  | { kind: 'status'; value: RoomFileStatus };

/** A folder or file of one room matching a search, with the folders above it (top first). */
export interface RoomSearchEntry {
  kind: 'folder' | 'file';
  uuid: string;
  name: string;
  /** What matched (absent: the name). */
  found?: RoomSearchFound[];
  /** The folder it lies in (null: the top level) and that folder's path of names. */
  folderUuid: string | null;
  path: string[];
  /** Who created the folder or uploaded the file (plain rooms: the server's answer; issue 32 "names instead of addresses"). */
  by?: { email: string; name?: string | null | undefined };
}

/** Shown matches at most (a longer part of the name narrows them). */
export const ROOM_SEARCH_SHOWN = 200;

/**
 * The matches of a search inside one room (the plain room's server search and the Secure room's
 * search over decrypted names show the same table): the count, then name (a folder opens itself,
 * a file its folder with the file highlighted), type and location (the folder, linked).
 */
export function RoomSearchHits({ matches, q, roomName, folderLink, hitLink }: {
  matches: RoomSearchEntry[];
  q: string;
  roomName: string;
  folderLink: (folderUuid: string | null) => string;
  hitLink: (entry: RoomSearchEntry) => string;
}) {
  const { t } = useTranslation();
  const columns: DataTableColumn<RoomSearchEntry>[] = [
    { id: 'name', header: t('rooms:e2ePage.search.columns.name'), cell: (e) => <RouterLink to={e.kind === 'folder' ? folderLink(e.uuid) : hitLink(e)}>{e.name}</RouterLink> },
    { id: 'kind', header: t('rooms:e2ePage.search.columns.kind'), cell: (e) => t(`rooms:e2ePage.search.kinds.${e.kind}`) },
    { id: 'where', header: t('rooms:e2ePage.search.columns.where'), cell: (e) => <RouterLink to={folderLink(e.folderUuid)}>{[roomName, ...e.path].join(' › ')}</RouterLink> },
    { id: 'found', header: t('rooms:e2ePage.search.columns.found'), cell: (e) => <FoundLines found={e.found ?? [{ kind: 'name' }]} /> },
    ...(matches.some((e) => e.by)
      ? [{ id: 'by', header: t('rooms:e2ePage.search.columns.by'), cell: (e: RoomSearchEntry) => (e.by?.email ? <PersonName name={e.by.name} email={e.by.email} /> : null) }]
      : []),
  ];
  return (
    <>
      <Text as="p" aria-live="polite">
        {matches.length === 0 ? t('rooms:e2ePage.search.none', { q }) : t('rooms:e2ePage.search.count', { count: matches.length, q })}
      </Text>
      {matches.length > 0 ? <DataTable label={t('rooms:e2ePage.search.results')} columns={columns} rows={matches.slice(0, ROOM_SEARCH_SHOWN)} rowKey={(e) => e.uuid} empty={null} /> : null}
      {matches.length > ROOM_SEARCH_SHOWN ? <Text as="p">{t('rooms:e2ePage.search.truncated', { shown: ROOM_SEARCH_SHOWN })}</Text> : null}
    </>
  );
}

/** A long comment is cut in the table (the details sidebar shows it whole). */
const FOUND_COMMENT_CHARS = 80;

function FoundLines({ found }: { found: RoomSearchFound[] }) {
  const { t } = useTranslation();
  const line = (f: RoomSearchFound): string => {
    switch (f.kind) {
      case 'name':
        return t('rooms:e2ePage.search.found.name');
      case 'comment':
        return t('rooms:e2ePage.search.found.comment', { text: f.text.length > FOUND_COMMENT_CHARS ? `${f.text.slice(0, FOUND_COMMENT_CHARS)}…` : f.text });
      case 'classification':
        return t('rooms:e2ePage.search.found.classification', { value: t(`roomComments:classification.values.${f.value}`) });
      case 'status':
        return t('rooms:e2ePage.search.found.status', { value: t(`roomComments:status.values.${f.value}`) });
    }
  };
  return (
    <>
      {found.map((f, i) => (
        <div key={i}>{line(f)}</div>
      ))}
    </>
  );
}
