import { Field, makeStyles, SearchBox, Text } from '@fluentui/react-components';
import type { RoomQuotaRow } from '@shared/contract/storage-quotas';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { formatSize } from '@web/lib/format-size';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadRoomQuotas, saveRoomQuota } from './api/storage-quotas';
import { QuotaField } from './quota-field';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px' },
  intro: { margin: 0, maxWidth: '720px' },
  search: { maxWidth: '360px' },
});

/** Typing settles this long before the list is asked again. */
const SEARCH_DELAY_MS = 300;

/** Administration › Secure rooms › Storage quotas (issue 32): each room's use and quota (server/README "Storage quotas"). */
export function StorageQuotasPage() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [rooms, setRooms] = useState<RoomQuotaRow[] | undefined>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const load = useCallback(async (search: string) => {
    try {
      setRooms((await loadRoomQuotas(search)).rooms);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    setRooms(undefined);
    void load(q);
  }, [q, load]);

  // A Secure room's name is sealed and never sent: it shows as "Secure room" with its owner.
  const nameOf = (room: RoomQuotaRow) => (room.encrypted ? t('admin:quotas.secureRoom') : room.name);
  const save = async (room: RoomQuotaRow, bytes: number | null) => {
    const saved = await saveRoomQuota(room.uuid, bytes);
    setRooms((current) => current?.map((r) => (r.uuid === saved.uuid ? saved : r)));
  };

  const columns: DataTableColumn<RoomQuotaRow>[] = [
    { id: 'name', header: t('admin:quotas.columns.room'), cell: (r) => nameOf(r) },
    { id: 'owner', header: t('admin:quotas.columns.owner'), cell: (r) => r.owner },
    {
      id: 'used',
      header: t('admin:quotas.columns.used'),
      cell: (r) => (r.quota === null ? formatSize(r.used, i18n.language) : t('admin:quotas.usedOf', { used: formatSize(r.used, i18n.language), total: formatSize(r.quota, i18n.language) })),
    },
    {
      id: 'quota',
      header: t('admin:quotas.columns.quota'),
      cell: (r) => <QuotaField key={`${r.uuid}:${r.quota ?? ''}`} label={t('admin:quotas.roomLabel', { name: nameOf(r) })} value={r.quota} onSave={(bytes) => save(r, bytes)} />,
    },
  ];

  return (
    <div className={styles.page}>
      <PageHeading focusOnMount>{t('admin:quotas.title')}</PageHeading>
      <Text as="p" className={styles.intro}>
        {t('admin:quotas.intro')}
      </Text>
      <Field label={t('admin:quotas.search')} className={styles.search}>
        <SearchBox value={typed} onChange={(_e, data) => setTyped(data.value)} />
      </Field>
      <DataTable
        label={t('admin:quotas.tableLabel')}
        columns={columns}
        rows={rooms}
        rowKey={(r) => r.uuid}
        loading={rooms === undefined && !failed}
        error={failed ? t('admin:quotas.loadFailed') : undefined}
        empty={<Alert type="info">{q ? t('admin:quotas.noResults', { q }) : t('admin:quotas.empty')}</Alert>}
      />
    </div>
  );
}
