import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { HistoryRegular } from '@fluentui/react-icons';
import type { RoomActivityEntry } from '@shared/contract/room-files';
import { ROOM_LINK_ACTOR } from '@shared/contract/room-links';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRoomActivity } from './api/room-files';
import { useDateFormat } from './room-format';

const useStyles = makeStyles({
  section: { marginTop: '24px' },
  head: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap', margin: '0 0 8px' },
  heading: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
});

/**
 * The activity log of the room, or of a folder with what is below it (SPEC §4; OWNERs only — the
 * caller renders it only for them). Loaded when asked for, newest first, the latest 50 entries.
 */
export function RoomActivity({
  roomUuid,
  folderUuid,
  fileUuid = null,
  expanded = false,
  itemCell,
}: {
  roomUuid: string;
  folderUuid: string | null;
  fileUuid?: string | null;
  expanded?: boolean;
  /** How the item column shows an entry (an E2E room decrypts the sealed name); default: name (detail). */
  itemCell?: (entry: RoomActivityEntry) => ReactNode;
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  const dateFormat = useDateFormat();
  const [toggled, setOpen] = useState(false);
  // `expanded`: shown at once, without the toggle (the details sidebar's Activity tab).
  const open = expanded || toggled;
  const activity = useRoomActivity(roomUuid, folderUuid, open, fileUuid);
  const headingId = `room-activity-heading${useId().replace(/:/g, '')}`;

  const columns: DataTableColumn<RoomActivityEntry>[] = [
    { id: 'date', header: t('rooms:activity.columns.date'), cell: (entry) => dateFormat.format(entry.createdAt) },
    { id: 'actor', header: t('rooms:activity.columns.actor'), cell: (entry) => (entry.actor === ROOM_LINK_ACTOR ? t('roomLinks:activityActor') : entry.actor) },
    { id: 'kind', header: t('rooms:activity.columns.kind'), cell: (entry) => t(`rooms:activity.kinds.${entry.kind}`) },
    { id: 'item', header: t('rooms:activity.columns.item'), cell: (entry) => (itemCell ? itemCell(entry) : entry.detail ? `${entry.item.name} (${entry.detail})` : entry.item.name) },
  ];

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <div className={styles.head}>
        <h2 id={headingId} className={styles.heading}>
          {t('rooms:activity.title')}
        </h2>
        {expanded ? null : (
          <Button icon={<HistoryRegular />} aria-expanded={open} onClick={() => setOpen((was) => !was)}>
            {open ? t('rooms:activity.hide') : t('rooms:activity.show')}
          </Button>
        )}
      </div>
      {!open ? null : activity.error ? (
        <Alert type="error">{t('rooms:activity.loadError')}</Alert>
      ) : !activity.data ? (
        <Spinner size="small" label={t('common:loading')} />
      ) : (
        <DataTable
          labelledBy={headingId}
          columns={columns}
          rows={activity.data.entries}
          rowKey={(entry) => `${entry.createdAt}-${entry.kind}-${entry.item.uuid}-${entry.actor}`}
          empty={<Text as="p">{t('rooms:activity.empty')}</Text>}
        />
      )}
    </section>
  );
}
