import { Button, Field, Input, Link, makeStyles, Text } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import type { AuditEntry } from '@shared/contract/audit';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { auditCsvUrl, useAuditLog, type AuditFilter } from './api/audit-log';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px' },
  filters: { display: 'flex', flexWrap: 'wrap', gap: '12px', alignItems: 'flex-end' },
  pager: { display: 'flex', gap: '12px', alignItems: 'center' },
  csv: { alignSelf: 'start', display: 'inline-flex', alignItems: 'center', gap: '4px' },
  details: { fontFamily: 'monospace', wordBreak: 'break-all' },
});

const PAGE_SIZE = 25;
const NO_FILTER: AuditFilter = { user: '', action: '', from: undefined, to: undefined };

/** A `YYYY-MM-DD` of the date inputs as the first (or last) millisecond of that day in the browser's time zone. */
function dayBound(day: string, end: boolean): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return end ? new Date(y, m - 1, d + 1).getTime() - 1 : new Date(y, m - 1, d).getTime();
}

/** Administration › Audit log (ROLE_ADMIN): filter by user, action and time, paged, CSV export of the filtered entries. */
export function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [draft, setDraft] = useState({ user: '', action: '', from: '', to: '' });
  const [filter, setFilter] = useState<AuditFilter>(NO_FILTER);
  const [page, setPage] = useState(1);
  const log = useAuditLog(filter, page, PAGE_SIZE);
  const dates = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }), [i18n.language]);
  const pages = Math.max(1, Math.ceil((log.data?.total ?? 0) / PAGE_SIZE));

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilter({ user: draft.user.trim(), action: draft.action.trim(), from: dayBound(draft.from, false), to: dayBound(draft.to, true) });
    setPage(1);
  }

  const columns: DataTableColumn<AuditEntry>[] = [
    { id: 'at', header: t('admin:audit.columns.at'), cell: (e) => dates.format(e.at) },
    { id: 'action', header: t('admin:audit.columns.action'), cell: (e) => e.action },
    { id: 'actor', header: t('admin:audit.columns.actor'), cell: (e) => e.actor?.email ?? t('admin:audit.deletedUser') },
    { id: 'subject', header: t('admin:audit.columns.subject'), cell: (e) => e.subject?.email ?? '' },
    { id: 'details', header: t('admin:audit.columns.details'), cell: (e) => <span className={styles.details}>{Object.keys(e.details).length ? JSON.stringify(e.details) : ''}</span> },
  ];

  return (
    <div className={styles.page}>
      <PageHeading focusOnMount>{t('admin:audit.title')}</PageHeading>
      <Text as="p" style={{ margin: 0, maxWidth: 720 }}>
        {t('admin:audit.intro')}
      </Text>
      <form className={styles.filters} onSubmit={apply} aria-label={t('admin:audit.filterLabel')}>
        <Field label={t('admin:audit.user')}>
          <Input value={draft.user} onChange={(_e, data) => setDraft((d) => ({ ...d, user: data.value }))} />
        </Field>
        <Field label={t('admin:audit.action')}>
          <Input value={draft.action} onChange={(_e, data) => setDraft((d) => ({ ...d, action: data.value }))} />
        </Field>
        <Field label={t('admin:audit.from')}>
          <Input type="date" value={draft.from} onChange={(_e, data) => setDraft((d) => ({ ...d, from: data.value }))} />
        </Field>
        <Field label={t('admin:audit.to')}>
          <Input type="date" value={draft.to} onChange={(_e, data) => setDraft((d) => ({ ...d, to: data.value }))} />
        </Field>
        <Button type="submit" appearance="primary">
          {t('admin:audit.apply')}
        </Button>
      </form>
      <Link className={styles.csv} href={auditCsvUrl(filter)} download>
        <ArrowDownloadRegular aria-hidden /> {t('admin:audit.downloadCsv')}
      </Link>
      <DataTable
        label={t('admin:audit.tableLabel')}
        columns={columns}
        rows={log.data?.entries}
        rowKey={(e) => String(e.id)}
        loading={log.isLoading}
        error={log.error ? t('admin:audit.loadFailed') : undefined}
        empty={<Alert type="info">{t('admin:audit.empty')}</Alert>}
      />
      {log.data && log.data.total > PAGE_SIZE ? (
        <nav className={styles.pager} aria-label={t('admin:audit.paging')}>
          <Button disabled={page <= 1} onClick={() => setPage((current) => current - 1)}>
            {t('admin:audit.previous')}
          </Button>
          <Text>{t('admin:audit.pageOf', { page, pages })}</Text>
          <Button disabled={page >= pages} onClick={() => setPage((current) => current + 1)}>
            {t('admin:audit.next')}
          </Button>
        </nav>
      ) : null}
    </div>
  );
}
