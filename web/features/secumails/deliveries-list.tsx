import { Badge, Body1, Button, Caption1, makeStyles, SearchBox, Subtitle1, Tab, TabList } from '@fluentui/react-components';
import { ChevronLeftRegular, ChevronRightRegular, MailInboxRegular, SendRegular } from '@fluentui/react-icons';
import type { DeliveryListParams } from '@shared/api/endpoints/delivery-read';
import type { DeliveryPage } from '@shared/contract/deliveries';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { RouterLink } from '@web/components/router-link';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '@web/lib/use-debounced-value';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SWRResponse } from 'swr';
import { pageRange, reviewStateKey, TIME_STATE_COLOR, timeStateKey } from './delivery-format';
import { RevealSubjectButton, SubjectText } from './e2e-subjects';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const PAGE_SIZE = 25;

const useStyles = makeStyles({
  toolbar: { display: 'flex', flexWrap: 'wrap', gap: '12px', alignItems: 'center', marginBottom: '12px' },
  empty: { display: 'grid', justifyItems: 'center', gap: '8px', padding: '48px 16px', textAlign: 'center' },
  icon: { fontSize: '48px' },
  footer: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center', justifyContent: 'flex-end', marginTop: '8px' },
  subject: { display: 'inline-flex', alignItems: 'center', gap: '4px', maxWidth: '100%' },
  subjectLink: { overflowWrap: 'anywhere', minWidth: 0 },
});

/** Inbox or sent list (SPEC §2): search, filter All / Not downloaded, paged table with the §2 footer. */
export function DeliveriesList({
  kind,
  useList,
  detailPath,
}: {
  kind: 'inbox' | 'sent';
  useList: (query: DeliveryListParams) => SWRResponse<DeliveryPage>;
  detailPath: (deliveryUuid: string) => string;
}) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const [q, setQ] = useState('');
  const [filter, setFilter] = useState<'all' | 'notDownloaded'>('all');
  // One request per typing pause, not per keystroke; clearing the box shows everything at once.
  const search = useDebouncedValue(q.trim(), SEARCH_DEBOUNCE_MS, (value) => value === '');
  // Paging by cursor (the server's keyset): the cursor of every page walked so far, so Back is a
  // step down this stack. Another search or filter is another list: it starts at its first page.
  const listKey = `${filter}\u0000${search}`;
  const [walk, setWalk] = useState<{ key: string; cursors: Array<string | undefined> }>({ key: listKey, cursors: [undefined] });
  // Adjusted while rendering (React's "state from the previous render" pattern), so coming back
  // to an earlier search or filter does not bring its old walk back either.
  if (walk.key !== listKey) setWalk({ key: listKey, cursors: [undefined] });
  const cursors = walk.key === listKey ? walk.cursors : [undefined];
  const page = cursors.length;
  const { data, error, isLoading } = useList({ page, pageSize: PAGE_SIZE, cursor: cursors.at(-1), q: search || undefined, filter });
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const range = pageRange(page, PAGE_SIZE, data?.items.length ?? 0, data?.total ?? 0, data?.totalCapped ?? false);
  const searching = search !== '' || filter !== 'all';
  const columns: DataTableColumn<DeliveryPage['items'][number]>[] = [
    {
      id: 'who',
      header: kind === 'inbox' ? t('deliveries:fields.sender') : t('deliveries:fields.status'),
      cell: (item) => (kind === 'inbox' ? item.sender.name || item.sender.email : t(`deliveries:status.${item.status}`)),
    },
    {
      id: 'subject',
      header: t('deliveries:fields.subject'),
      cell: (item) => (
        <span className={styles.subject}>
          <span className={styles.subjectLink} dir="auto">
            <RouterLink to={detailPath(item.deliveryUuid)}>
              <SubjectText delivery={item} />
            </RouterLink>
          </span>
          <RevealSubjectButton delivery={item} />
        </span>
      ),
    },
    { id: 'files', header: t('deliveries:fields.files'), cell: (item) => item.fileCount },
    { id: 'sentAt', header: t('deliveries:fields.sentAt'), cell: (item) => (item.sentAt ? dateFormat.format(item.sentAt) : '—') },
    {
      id: 'state',
      header: t('deliveries:fields.timeState'),
      cell: (item) => (
        <>
          <Badge appearance="tint" color={TIME_STATE_COLOR[item.timeState]}>
            {t(timeStateKey(item.timeState))}
          </Badge>
          {reviewStateKey(item.reviewState) ? (
            <>
              {' '}
              <Badge appearance="tint" color={item.reviewState === 'inProgress' ? 'informative' : 'danger'}>
                {t(reviewStateKey(item.reviewState)!)}
              </Badge>
            </>
          ) : null}
        </>
      ),
    },
    { id: 'downloaded', header: t('deliveries:fields.downloaded'), cell: (item) => (item.downloaded ? t('deliveries:downloaded.yes') : t('deliveries:downloaded.no')) },
  ];

  return (
    <>
      <div className={styles.toolbar} role="search">
        <SearchBox
          aria-label={t('deliveries:list.search')}
          placeholder={t('deliveries:list.search')}
          value={q}
          onChange={(_, value) => setQ(value.value)}
        />
        <TabList
          aria-label={t('deliveries:list.filter')}
          selectedValue={filter}
          onTabSelect={(_, value) => {
            track(ANALYTICS_ACTIONS.deliveryFilterClicked, { filter: String(value.value) });
            setFilter(value.value as 'all' | 'notDownloaded');
          }}
        >
          <Tab value="all">{t('deliveries:list.filterAll')}</Tab>
          <Tab value="notDownloaded">{t('deliveries:list.filterNotDownloaded')}</Tab>
        </TabList>
      </div>
      <DataTable
        label={t(kind === 'inbox' ? 'deliveries:list.inboxTable' : 'deliveries:list.sentTable')}
        size="small"
        columns={columns}
        rows={data?.items}
        rowKey={(item) => item.deliveryUuid}
        onRowOpen={(item) => void navigate(detailPath(item.deliveryUuid))}
        loading={isLoading}
        {...(error ? { error: t('deliveries:messages.unableToLoad') } : {})}
        empty={
          <section className={styles.empty} aria-labelledby="deliveries-empty-title">
            {kind === 'inbox' ? <MailInboxRegular className={styles.icon} aria-hidden="true" /> : <SendRegular className={styles.icon} aria-hidden="true" />}
            <Subtitle1 as="h2" id="deliveries-empty-title">
              {searching ? t('deliveries:list.noResultTitle') : t(`deliveries:list.${kind}EmptyTitle`)}
            </Subtitle1>
            <Body1 as="p">{searching ? t('deliveries:list.noResultText') : t(`deliveries:list.${kind}EmptyText`)}</Body1>
          </section>
        }
      />
      {data && data.total > 0 ? (
        <>
          <div className={styles.footer}>
            <Caption1 aria-live="polite">
              {range.capped
                ? t('deliveries:list.footerCapped', { start: range.start, end: range.end, page: range.page, total: new Intl.NumberFormat(i18n.language).format(range.count) })
                : t('deliveries:list.footer', { ...range })}
            </Caption1>
            {/* Disabled while a page loads: the shown page's cursor is not the next one's yet. */}
            <Button
              icon={<ChevronLeftRegular />}
              aria-label={t('deliveries:list.previousPage')}
              disabled={page <= 1 || isLoading}
              onClick={() => setWalk({ key: listKey, cursors: cursors.slice(0, -1) })}
            />
            <Button
              icon={<ChevronRightRegular />}
              aria-label={t('deliveries:list.nextPage')}
              disabled={!data.nextCursor || isLoading}
              onClick={() => setWalk({ key: listKey, cursors: [...cursors, data.nextCursor ?? undefined] })}
            />
          </div>
        </>
      ) : null}
    </>
  );
}
