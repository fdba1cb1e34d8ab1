import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  Field,
  makeStyles,
  SearchBox,
  Text,
} from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import type { TrashBinEntry } from '@shared/contract/room-admin';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { useNotify } from '@web/lib/toasts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadTrashBin, restoreTrashBinItem } from './api/rooms-trash';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px' },
  intro: { margin: 0, maxWidth: '720px' },
  search: { maxWidth: '360px' },
});

/** Typing settles this long before the list is asked again. */
const SEARCH_DELAY_MS = 300;

/** Why the server refused a restore, as a text key (SPEC §8 "trash restore: error naming the entry"). */
function reasonOf(error: unknown): 'parentInTrash' | 'nameExists' | 'other' {
  const reason = isApiError(error) ? (error.error?.metadata as { reason?: unknown } | undefined)?.reason : undefined;
  return reason === 'parentInTrash' || reason === 'nameExists' ? reason : 'other';
}

/** Administration › Secure rooms › Trash bin (SPEC §2): search, table, restore with confirmation, empty and no-result states. */
export function RoomsTrashPage() {
  const { t, i18n } = useTranslation();
  useEffect(() => track(ANALYTICS_ACTIONS.trashBinAccessed), []);
  const styles = useStyles();
  const notify = useNotify();
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [entries, setEntries] = useState<TrashBinEntry[] | undefined>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [confirming, setConfirming] = useState<TrashBinEntry | null>(null);
  const [pending, setPending] = useState(false);
  const dates = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }), [i18n.language]);

  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const load = useCallback(async (search: string, cursor: string | null) => {
    try {
      const page = await loadTrashBin(search, cursor);
      setEntries((current) => (cursor && current ? [...current, ...page.entries] : page.entries));
      setNextCursor(page.nextCursor);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    setEntries(undefined);
    void load(q, null);
  }, [q, load]);

  // An entry of an E2E room has no name here (sealed, never sent): it shows as an encrypted item.
  const nameOf = (e: TrashBinEntry) => (e.encrypted ? t('admin:roomsAdmin.trash.encryptedItem') : e.name);

  async function restore() {
    const entry = confirming;
    if (!entry) return;
    setPending(true);
    try {
      await restoreTrashBinItem(entry.uuid);
      notify('success', t('admin:roomsAdmin.trash.restored', { name: nameOf(entry) }));
      setEntries((current) => current?.filter((e) => e.uuid !== entry.uuid));
    } catch (error) {
      notify('error', t('admin:roomsAdmin.trash.restoreFailed', { name: nameOf(entry), reason: t(`admin:roomsAdmin.trash.reasons.${reasonOf(error)}`) }));
    } finally {
      setPending(false);
      setConfirming(null);
    }
  }

  const columns: DataTableColumn<TrashBinEntry>[] = [
    { id: 'name', header: t('admin:roomsAdmin.trash.columns.name'), cell: (e) => nameOf(e) },
    { id: 'type', header: t('admin:roomsAdmin.trash.columns.type'), cell: (e) => t(`admin:roomsAdmin.trash.types.${e.type}`) },
    { id: 'room', header: t('admin:roomsAdmin.trash.columns.room'), cell: (e) => (e.encrypted ? t('admin:roomsAdmin.trash.encryptedRoom') : e.roomName) },
    { id: 'deletedAt', header: t('admin:roomsAdmin.trash.columns.deletedAt'), cell: (e) => dates.format(e.deletedAt) },
    { id: 'deletedBy', header: t('admin:roomsAdmin.trash.columns.deletedBy'), cell: (e) => (e.deletedByRetention ? t('rooms:trash.byRetention') : e.deletedBy) },
    {
      id: 'actions',
      header: t('admin:roomsAdmin.trash.columns.actions'),
      cell: (e) => (
        <Button size="small" aria-label={t('admin:roomsAdmin.trash.restoreLabel', { name: nameOf(e) })} onClick={() => setConfirming(e)}>
          {t('admin:roomsAdmin.trash.restore')}
        </Button>
      ),
    },
  ];

  return (
    <div className={styles.page}>
      <PageHeading focusOnMount>{t('admin:roomsAdmin.trash.title')}</PageHeading>
      <Text as="p" className={styles.intro}>
        {t('admin:roomsAdmin.trash.intro')}
      </Text>
      <Field label={t('admin:roomsAdmin.trash.search')} className={styles.search}>
        <SearchBox value={typed} placeholder={t('admin:roomsAdmin.trash.searchPlaceholder')} onChange={(_e, data) => setTyped(data.value)} />
      </Field>
      <DataTable
        label={t('admin:roomsAdmin.trash.tableLabel')}
        columns={columns}
        rows={entries}
        rowKey={(e) => e.uuid}
        loading={entries === undefined && !failed}
        error={failed ? t('admin:roomsAdmin.trash.loadFailed') : undefined}
        empty={<Alert type="info">{q ? t('admin:roomsAdmin.trash.noResults', { q }) : t('admin:roomsAdmin.trash.empty')}</Alert>}
      />
      {nextCursor ? (
        <Button style={{ alignSelf: 'start' }} onClick={() => void load(q, nextCursor)}>
          {t('admin:roomsAdmin.trash.loadMore')}
        </Button>
      ) : null}
      <Dialog open={confirming !== null} onOpenChange={(_e, data) => (data.open ? undefined : setConfirming(null))} modalType="alert">
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{t('admin:roomsAdmin.trash.confirmTitle', { name: confirming ? nameOf(confirming) : '' })}</DialogTitle>
            <DialogContent>
              <Text as="p" style={{ margin: 0 }}>
                {t('admin:roomsAdmin.trash.confirmText', { type: confirming ? t(`admin:roomsAdmin.trash.types.${confirming.type}`) : '' })}
              </Text>
            </DialogContent>
            <DialogActions>
              <DialogTrigger disableButtonEnhancement>
                <Button appearance="secondary">{t('admin:roomsAdmin.trash.cancel')}</Button>
              </DialogTrigger>
              <Button appearance="primary" onClick={() => void restore()} disabled={pending}>
                {t('admin:roomsAdmin.trash.restore')}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </div>
  );
}
