import { Button, Card, CardHeader, Field, Input, Link, makeStyles, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import type { ReportKind, ReportRange } from '@shared/contract/reports';
import { Alert } from '@web/components/alert';
import { DataTable } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { trackReportAction } from './analytics';
import { reportCsvUrl, useReports } from './api';
import { ActiveUsersChart, LevelBarChart, levelLabel } from './report-charts';
import { defaultReportRange, rangeProblem } from './report-range';

const useStyles = makeStyles({
  range: { display: 'flex', flexWrap: 'wrap', gap: '12px', alignItems: 'flex-end', marginBottom: '16px' },
  sections: { display: 'grid', gap: '16px' },
  body: { display: 'grid', gap: '12px', padding: '0 12px 12px', minWidth: 0 },
  empty: { color: tokens.colorNeutralForeground3, margin: 0 },
  csv: { justifySelf: 'start', display: 'inline-flex', alignItems: 'center', gap: '4px' },
});

/** A report's card: heading, its CSV link, then the chart and the table (or the empty state). */
function ReportSection({ kind, range, empty, error, children }: { kind: ReportKind; range: ReportRange; empty: boolean | undefined; error: unknown; children: ReactNode }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const headingId = `report-${kind}`;
  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader
        header={
          <Subtitle2 as="h2" id={headingId}>
            {t(`reports:${kind}.title`)}
          </Subtitle2>
        }
        description={t(`reports:${kind}.description`)}
      />
      <div className={styles.body}>
        <Link className={styles.csv} href={reportCsvUrl(kind, range)} download onClick={() => trackReportAction('report downloaded', kind)}>
          <ArrowDownloadRegular aria-hidden /> {t('reports:downloadCsv', { report: t(`reports:${kind}.title`) })}
        </Link>
        {error ? <Alert type="error">{t('reports:loadError')}</Alert> : null}
        {empty === undefined && !error ? <Spinner size="small" label={t('common:loading')} /> : null}
        {empty ? <p className={styles.empty}>{t(`reports:${kind}.empty`)}</p> : children}
      </div>
    </Card>
  );
}

/**
 * Reports (main menu, ROLE_ADMIN and config.group.reporting; DESIGN §9): deliveries, downloads,
 * active users and storage of a UTC date range, each as a chart with a table beside it (the
 * accessible form of the chart) and as a CSV download.
 */
export function ReportsPage() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [draft, setDraft] = useState<ReportRange>(() => defaultReportRange());
  const [range, setRange] = useState<ReportRange>(draft);
  const problem = rangeProblem(draft);
  const reports = useReports(range);
  const number = new Intl.NumberFormat(i18n.language);
  const megabytes = new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 });

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    setRange(draft);
    trackReportAction('report requested', 'all');
  };

  const deliveries = reports.deliveries.data;
  const downloads = reports.downloads.data;
  const activeUsers = reports.activeUsers.data;
  const storage = reports.storage.data;
  const title = (kind: ReportKind) => t(`reports:${kind}.title`);

  return (
    <>
      <PageHeading focusOnMount>{t('reports:title')}</PageHeading>
      <p>{t('reports:intro')}</p>
      <form className={styles.range} onSubmit={apply} aria-label={t('reports:range.label')}>
        <Field label={t('reports:range.from')} validationMessage={problem ? t(`reports:range.${problem}`) : undefined}>
          <Input type="date" value={draft.from} onChange={(_, data) => setDraft((d) => ({ ...d, from: data.value }))} />
        </Field>
        <Field label={t('reports:range.to')}>
          <Input type="date" value={draft.to} onChange={(_, data) => setDraft((d) => ({ ...d, to: data.value }))} />
        </Field>
        <Button type="submit" appearance="primary" disabled={Boolean(problem)}>
          {t('reports:range.apply')}
        </Button>
      </form>
      <div className={styles.sections}>
        <ReportSection kind="deliveries" range={range} empty={deliveries && deliveries.rows.length === 0} error={reports.deliveries.error}>
          {deliveries ? (
            <>
              <LevelBarChart title={t('reports:deliveries.chart')} from={deliveries.from} to={deliveries.to} rows={deliveries.rows} value={(r) => r.sent} />
              <DataTable
                label={title('deliveries')}
                size="small"
                rows={deliveries.rows}
                rowKey={(r) => `${r.date}|${r.level}`}
                columns={[
                  { id: 'date', header: t('reports:columns.date'), cell: (r) => r.date },
                  { id: 'level', header: t('reports:columns.level'), cell: (r) => levelLabel(t, r.level) },
                  { id: 'sent', header: t('reports:deliveries.sent'), cell: (r) => number.format(r.sent) },
                  { id: 'received', header: t('reports:deliveries.received'), cell: (r) => number.format(r.received) },
                ]}
              />
              <p>{t('reports:deliveries.totals', { sent: number.format(deliveries.totals.sent), received: number.format(deliveries.totals.received) })}</p>
            </>
          ) : null}
        </ReportSection>
        <ReportSection kind="downloads" range={range} empty={downloads && downloads.rows.length === 0} error={reports.downloads.error}>
          {downloads ? (
            <>
              <LevelBarChart title={t('reports:downloads.chart')} from={downloads.from} to={downloads.to} rows={downloads.rows} value={(r) => r.downloads} />
              <DataTable
                label={title('downloads')}
                size="small"
                rows={downloads.rows}
                rowKey={(r) => `${r.date}|${r.level}`}
                columns={[
                  { id: 'date', header: t('reports:columns.date'), cell: (r) => r.date },
                  { id: 'level', header: t('reports:columns.level'), cell: (r) => levelLabel(t, r.level) },
                  { id: 'downloads', header: t('reports:downloads.downloads'), cell: (r) => number.format(r.downloads) },
                  { id: 'recipients', header: t('reports:downloads.recipients'), cell: (r) => number.format(r.recipients) },
                ]}
              />
            </>
          ) : null}
        </ReportSection>
        <ReportSection
          kind="activeUsers"
          range={range}
          empty={activeUsers && activeUsers.totals.activeUsers === 0 && activeUsers.totals.senders === 0}
          error={reports.activeUsers.error}
        >
          {activeUsers ? (
            <>
              <ActiveUsersChart report={activeUsers} title={t('reports:activeUsers.chart')} />
              <p>{t('reports:activeUsers.totals', { activeUsers: number.format(activeUsers.totals.activeUsers), senders: number.format(activeUsers.totals.senders) })}</p>
              <DataTable
                label={title('activeUsers')}
                size="small"
                rows={activeUsers.rows.filter((r) => r.activeUsers > 0 || r.senders > 0)}
                rowKey={(r) => r.date}
                columns={[
                  { id: 'date', header: t('reports:columns.date'), cell: (r) => r.date },
                  { id: 'active', header: t('reports:activeUsers.activeUsers'), cell: (r) => number.format(r.activeUsers) },
                  { id: 'senders', header: t('reports:activeUsers.senders'), cell: (r) => number.format(r.senders) },
                ]}
              />
            </>
          ) : null}
        </ReportSection>
        <ReportSection kind="storage" range={range} empty={false} error={reports.storage.error}>
          <DataTable
            label={title('storage')}
            size="small"
            loading
            rows={storage?.rows}
            rowKey={(r) => r.area}
            columns={[
              { id: 'area', header: t('reports:storage.area'), cell: (r) => t(`reports:storage.areas.${r.area}`) },
              { id: 'files', header: t('reports:storage.files'), cell: (r) => number.format(r.files) },
              { id: 'bytes', header: t('reports:storage.size'), cell: (r) => megabytes.format(r.bytes / 1_000_000) },
              { id: 'filesAdded', header: t('reports:storage.filesAdded'), cell: (r) => number.format(r.filesAdded) },
              { id: 'bytesAdded', header: t('reports:storage.sizeAdded'), cell: (r) => megabytes.format(r.bytesAdded / 1_000_000) },
            ]}
          />
        </ReportSection>
      </div>
    </>
  );
}
