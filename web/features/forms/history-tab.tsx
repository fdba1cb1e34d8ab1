import { makeStyles, Text } from '@fluentui/react-components';
import { getFormHistory } from '@shared/api/endpoints/form-admin';
import type { FormHistoryChange, FormHistoryEntry } from '@shared/contract/form-admin';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { apiClient } from '@web/lib/api-client';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSecurityLevel, securityLevelNumber } from '@shared/contract/security-levels';
import { Pager } from './pager';
import useSWR from 'swr';

const PAGE_SIZE = 20;

const useStyles = makeStyles({
  changes: { margin: 0, paddingLeft: '16px' },
});

/** The History tab: who changed what and when, newest first, paged (GET /forms/{formUuid}/history). */
export function HistoryTab({ formUuid, savedAt }: { formUuid: string; /** Reloads after a save. */ savedAt: number }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [page, setPage] = useState(1);
  const { data, error } = useSWR(['forms/history', formUuid, page, savedAt], () => getFormHistory(apiClient, formUuid, page, PAGE_SIZE), { revalidateOnFocus: false });
  const dateFormat = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }), [i18n.language]);
  const fieldName = (field: string) => t(`formAdmin:history.fields.${field}`, { defaultValue: field });
  // A security level reads by its name ("Level 4: encrypted attachments and message"), not as a bare number.
  // The history keeps the wire value (0, 10, 20, 30).
  const shown = (field: string, value: string | null) => {
    if (value === null) return '—';
    const wire = Number(value);
    return field === 'securityLevel' && value !== '' && isSecurityLevel(wire) ? t(`send:level.level${securityLevelNumber(wire)}.title`) : value;
  };
  const change = (c: FormHistoryChange) =>
    c.before === null && c.after === null
      ? fieldName(c.field)
      : t('formAdmin:history.changed', { field: fieldName(c.field), before: shown(c.field, c.before), after: shown(c.field, c.after) });
  const columns: DataTableColumn<FormHistoryEntry>[] = [
    { id: 'at', header: t('formAdmin:history.at'), cell: (e) => dateFormat.format(e.at) },
    { id: 'actor', header: t('formAdmin:history.actor'), cell: (e) => e.actor },
    { id: 'action', header: t('formAdmin:history.action'), cell: (e) => t(`formAdmin:history.actions.${e.action}`) },
    {
      id: 'changes',
      header: t('formAdmin:history.changes'),
      cell: (e) => (
        <ul className={styles.changes}>
          {e.changes.map((c) => (
            <li key={c.field}>{change(c)}</li>
          ))}
        </ul>
      ),
    },
  ];
  return (
    <>
      <DataTable
        label={t('formAdmin:history.title')}
        columns={columns}
        rows={data?.entries}
        rowKey={(e) => String(e.id)}
        loading={!error}
        error={error ? t('formAdmin:history.loadError') : undefined}
        empty={<Text>{t('formAdmin:history.empty')}</Text>}
      />
      {data ? <Pager page={page} total={data.total} pageSize={PAGE_SIZE} onPage={setPage} /> : null}
    </>
  );
}
