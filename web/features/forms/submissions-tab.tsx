import { Button, Link, makeStyles, Spinner, Text } from '@fluentui/react-components';
import { ArrowDownloadRegular, LockOpenRegular } from '@fluentui/react-icons';
import { formSubmissionsCsvUrl, getFormSubmissions } from '@shared/api/endpoints/form-admin';
import { reduceLanguage } from '@shared/contract/constants';
import { formSubmissionsFileName, type FormSubmission } from '@shared/contract/form-submissions';
import type { Form } from '@shared/contract/forms';
import { isE2eLevel, securityLevelInfo } from '@shared/contract/security-levels';
import { csvText } from '@shared/rules/csv';
import { submissionExportRows, textsOf, type KeptValues } from '@shared/rules/form-export';
import { numberValue } from '@shared/rules/form-rules';
import { responseSummary } from '@shared/rules/form-summary';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { apiClient } from '@web/lib/api-client';
import { saveBlob } from '@web/lib/save-blob';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { allSubmissions, useEncryptedSubmissions, type DecryptedSubmission } from './encrypted-submissions';
import { Pager } from './pager';
import { ResponseSummary, ResponseSummaryView } from './response-summary';

const PAGE_SIZE = 20;

const useStyles = makeStyles({
  bar: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
  download: { display: 'inline-flex', alignItems: 'center', gap: '4px' },
});

type EntryState = DecryptedSubmission['state'] | 'locked' | 'notSent';

/** What a level 3/4 row says about its values for this viewer. */
function entryState(submission: FormSubmission, results: ReadonlyMap<string, DecryptedSubmission>): EntryState {
  if (submission.state !== 'sent' || submission.deliveryUuid === null) return 'notSent';
  return results.get(submission.deliveryUuid)?.state ?? 'locked';
}

/** A level 3/4 submission's values as the list and export show them, when this viewer decrypted it. */
function decryptedValues(submission: FormSubmission, results: ReadonlyMap<string, DecryptedSubmission>): KeptValues | null {
  const result = submission.deliveryUuid === null ? undefined : results.get(submission.deliveryUuid);
  return result?.state === 'decrypted' ? result.kept : null;
}

/**
 * The Submissions tab (issue 33 §1): the form's submissions, newest first and paged, with a CSV and
 * an Excel export (write-excel-file, loaded only when asked for) from the same rows
 * (shared/rules/form-export.ts). Levels 1/2: the server's kept values, its CSV and summary. Levels
 * 3/4: the server has no values; once the owner's keys are unlocked each submission is decrypted
 * here (./encrypted-submissions.ts), and the values, the summary and both exports are built in this
 * browser from them. A submission the viewer cannot decrypt says so in its row and is left out of
 * the summary and the exports, with a count.
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
  const sealed = useEncryptedSubmissions(form, encrypted);
  const language = reduceLanguage(i18n.language);

  // Levels 3/4: what this viewer decrypted, and how many sent submissions it could not.
  const readable = useMemo(() => (sealed.all ? sealed.all.submissions.filter((s) => entryState(s, sealed.results) !== 'notRecipient' && entryState(s, sealed.results) !== 'failed') : []), [sealed.all, sealed.results]);
  const undecryptable = (sealed.all?.submissions.length ?? 0) - readable.length;
  const summary = useMemo(
    () => (encrypted && sealed.phase === 'done' ? responseSummary(form.customFields, readable.flatMap((s) => {
      const kept = decryptedValues(s, sealed.results);
      return kept ? [kept] : [];
    })) : null),
    [encrypted, sealed.phase, sealed.results, readable, form.customFields],
  );

  const valueOf = (s: FormSubmission, name: string): string => {
    if (!encrypted) return s.values?.[name] ?? '';
    const kept = decryptedValues(s, sealed.results);
    return kept ? (textsOf(kept)[name] ?? '') : '';
  };
  const columns: DataTableColumn<FormSubmission>[] = [
    { id: 'at', header: t('formAdmin:submissions.at'), cell: (s) => dateFormat.format(s.at) },
    { id: 'submitter', header: t('formAdmin:submissions.submitter'), cell: (s) => s.submitter ?? t('formAdmin:submissions.anonymous') },
    { id: 'level', header: t('formAdmin:submissions.level'), cell: (s) => t(`forms:levels.${securityLevelInfo(s.securityLevel).textKey}`) },
    { id: 'state', header: t('formAdmin:submissions.state'), cell: (s) => t(`formAdmin:submissions.states.${s.state}`) },
    ...(encrypted ? [{ id: 'entries', header: t('formAdmin:submissions.entries'), cell: (s: FormSubmission) => t(`formAdmin:submissions.entry.${entryState(s, sealed.results)}`) }] : []),
    ...(data?.columns ?? []).map((name, index) => ({ id: `value-${index}`, header: name, cell: (s: FormSubmission) => valueOf(s, name) })),
  ];

  /** The export's rows: the server's values (levels 1/2), or those decrypted here (levels 3/4, the undecryptable left out). */
  const exportRows = async (): Promise<{ rows: string[][]; valueColumns: string[] }> => {
    if (!encrypted) {
      const all = await allSubmissions(form.formUuid);
      return { rows: submissionExportRows(all.columns, all.submissions, language), valueColumns: all.columns };
    }
    const columnsOfForm = sealed.all?.columns ?? [];
    const withValues = readable.map((s) => {
      const kept = decryptedValues(s, sealed.results);
      return { ...s, values: kept ? textsOf(kept) : null };
    });
    return { rows: submissionExportRows(columnsOfForm, withValues, language), valueColumns: columnsOfForm };
  };

  const day = () => new Date().toISOString().slice(0, 10);
  const exportAs = async (kind: 'csv' | 'xlsx') => {
    setExporting(true);
    setExportFailed(false);
    try {
      const { rows, valueColumns } = await exportRows();
      if (kind === 'csv') {
        saveBlob(new Blob([csvText(rows, language)], { type: 'text/csv;charset=utf-8' }), formSubmissionsFileName(form.url, day(), 'csv'));
        return;
      }
      const { default: writeExcelFile } = await import('write-excel-file/browser');
      // Number and rating columns go in as numbers, so the spreadsheet sums and sorts them.
      const first = rows[0]!.length - valueColumns.length;
      const numeric = new Set(valueColumns.flatMap((name, i) => (form.customFields.some((f) => f.name === name && (f.type === 'number' || f.type === 'rating')) ? [first + i] : [])));
      const cells = rows.map((row, r) => row.map((cell, c) => (r > 0 && numeric.has(c) ? (numberValue(cell) ?? cell) : cell)));
      await writeExcelFile(cells).toFile(formSubmissionsFileName(form.url, day(), 'xlsx'));
    } catch {
      setExportFailed(true);
    } finally {
      setExporting(false);
    }
  };
  const exportReady = !encrypted || sealed.phase === 'done';

  return (
    <>
      <div className={styles.bar}>
        {encrypted ? (
          <Button icon={<ArrowDownloadRegular />} disabled={exporting || !exportReady} onClick={() => void exportAs('csv')}>
            {t('formAdmin:submissions.downloadCsv')}
          </Button>
        ) : (
          <Link className={styles.download} href={formSubmissionsCsvUrl(form.formUuid)} download>
            <ArrowDownloadRegular aria-hidden /> {t('formAdmin:submissions.downloadCsv')}
          </Link>
        )}
        <Button icon={<ArrowDownloadRegular />} disabled={exporting || !exportReady} onClick={() => void exportAs('xlsx')}>
          {t('formAdmin:submissions.downloadExcel')}
        </Button>
        {encrypted && (sealed.phase === 'locked' || sealed.phase === 'error') ? (
          <Button appearance="primary" icon={<LockOpenRegular />} onClick={() => void sealed.decrypt()}>
            {t('formAdmin:submissions.decrypt')}
          </Button>
        ) : null}
        {encrypted && sealed.phase === 'decrypting' ? <Spinner size="tiny" label={t('formAdmin:submissions.decrypting')} /> : null}
      </div>
      <Text>{encrypted ? t('formAdmin:submissions.encryptedNote') : t('formAdmin:submissions.olderNote')}</Text>
      {exportFailed ? <Alert type="error" title={t('formAdmin:submissions.exportError')} /> : null}
      {sealed.phase === 'error' ? <Alert type="error" title={t('formAdmin:submissions.decryptError')} /> : null}
      {encrypted && sealed.phase === 'done' && undecryptable > 0 ? <Alert type="warning" title={t('formAdmin:submissions.undecryptable', { count: undecryptable })} /> : null}
      {encrypted ? summary ? <ResponseSummaryView summary={summary} /> : null : <ResponseSummary form={form} />}
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
