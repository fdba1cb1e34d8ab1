import { Button, Link, makeStyles, Text } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { formSubmissionsCsvUrl, getFormSubmissions } from '@shared/api/endpoints/form-admin';
import { reduceLanguage } from '@shared/contract/constants';
import { formSubmissionsFileName, type FormSubmission } from '@shared/contract/form-submissions';
import type { Form } from '@shared/contract/forms';
import { isE2eLevel, securityLevelInfo } from '@shared/contract/security-levels';
import { submissionExportRows } from '@shared/rules/form-export';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { apiClient } from '@web/lib/api-client';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from './pager';
import { ResponseSummary } from './response-summary';
import { numberValue } from '@shared/rules/form-rules';
import useSWR from 'swr';

const PAGE_SIZE = 20;
/** The largest page the server gives: the Excel export reads every submission in pages of it. */
const EXPORT_PAGE_SIZE = 200;

const useStyles = makeStyles({
  bar: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
  download: { display: 'inline-flex', alignItems: 'center', gap: '4px' },
});

/** Every submission, page after page (the export holds them all). */
async function allSubmissions(formUuid: string): Promise<{ columns: string[]; submissions: FormSubmission[] }> {
  const first = await getFormSubmissions(apiClient, formUuid, 1, EXPORT_PAGE_SIZE);
  const submissions = [...first.submissions];
  for (let page = 2; (page - 1) * EXPORT_PAGE_SIZE < first.total; page++) submissions.push(...(await getFormSubmissions(apiClient, formUuid, page, EXPORT_PAGE_SIZE)).submissions);
  return { columns: first.columns, submissions };
}

/**
 * The Submissions tab (issue 33 §1): the form's submissions, newest first and paged, with the
 * values of levels 1/2, a CSV download from the server and an Excel file built here
 * (write-excel-file, loaded only when asked for) from the same rows (shared/rules/form-export.ts).
 */
export function SubmissionsTab({ form }: { form: Form }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const [exportFailed, setExportFailed] = useState(false);
  const { data, error } = useSWR(['forms/submissions', form.formUuid, page], () => getFormSubmissions(apiClient, form.formUuid, page, PAGE_SIZE), { revalidateOnFocus: false });
  const dateFormat = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }), [i18n.language]);
  const encrypted = isE2eLevel(form.securityLevel);

  const columns: DataTableColumn<FormSubmission>[] = [
    { id: 'at', header: t('formAdmin:submissions.at'), cell: (s) => dateFormat.format(s.at) },
    { id: 'submitter', header: t('formAdmin:submissions.submitter'), cell: (s) => s.submitter ?? t('formAdmin:submissions.anonymous') },
    { id: 'level', header: t('formAdmin:submissions.level'), cell: (s) => t(`forms:levels.${securityLevelInfo(s.securityLevel).textKey}`) },
    { id: 'state', header: t('formAdmin:submissions.state'), cell: (s) => t(`formAdmin:submissions.states.${s.state}`) },
    ...(data?.columns ?? []).map((name, index) => ({ id: `value-${index}`, header: name, cell: (s: FormSubmission) => s.values?.[name] ?? '' })),
  ];

  const exportExcel = async () => {
    setExporting(true);
    setExportFailed(false);
    try {
      const [{ default: writeExcelFile }, all] = await Promise.all([import('write-excel-file/browser'), allSubmissions(form.formUuid)]);
      const rows = submissionExportRows(all.columns, all.submissions, reduceLanguage(i18n.language));
      // Number and rating columns go in as numbers, so the spreadsheet sums and sorts them.
      const numeric = new Set(all.columns.flatMap((name, i) => (form.customFields.some((f) => f.name === name && (f.type === 'number' || f.type === 'rating')) ? [rows[0]!.length - all.columns.length + i] : [])));
      const cells = rows.map((row, r) => row.map((cell, c) => (r > 0 && numeric.has(c) ? (numberValue(cell) ?? cell) : cell)));
      await writeExcelFile(cells).toFile(formSubmissionsFileName(form.url, new Date().toISOString().slice(0, 10), 'xlsx'));
    } catch {
      setExportFailed(true);
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <div className={styles.bar}>
        <Link className={styles.download} href={formSubmissionsCsvUrl(form.formUuid)} download>
          <ArrowDownloadRegular aria-hidden /> {t('formAdmin:submissions.downloadCsv')}
        </Link>
        <Button icon={<ArrowDownloadRegular />} disabled={exporting} onClick={() => void exportExcel()}>
          {t('formAdmin:submissions.downloadExcel')}
        </Button>
      </div>
      <Text>{encrypted ? t('formAdmin:submissions.encryptedNote') : t('formAdmin:submissions.olderNote')}</Text>
      {exportFailed ? <Alert type="error" title={t('formAdmin:submissions.exportError')} /> : null}
      {encrypted ? null : <ResponseSummary form={form} />}
      <DataTable
        label={t('formAdmin:submissions.title')}
        columns={columns}
        rows={data?.submissions}
        rowKey={(s) => String(s.id)}
        loading={!error}
        error={error ? t('formAdmin:submissions.loadError') : undefined}
        empty={<Text>{t('formAdmin:submissions.empty')}</Text>}
      />
      {data ? <Pager page={page} total={data.total} pageSize={PAGE_SIZE} onPage={setPage} /> : null}
    </>
  );
}
