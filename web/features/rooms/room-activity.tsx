import { Button, makeStyles, MessageBarActions, Spinner, Text, tokens } from '@fluentui/react-components';
import { HistoryRegular } from '@fluentui/react-icons';
import type { RoomActivityEntry } from '@shared/contract/room-files';
import { ROOM_LINK_ACTOR } from '@shared/contract/room-links';
import { RETENTION_ACTIVITY_DETAIL } from '@shared/contract/room-retention';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRoomActivityPages } from './api/room-activity-pages';
import { useDateFormat } from './room-format';
import { PersonName } from './person-name';

/** A file the end-of-day retention job moved to the trash (no user did it; server/README "Room retention"). */
const isRetentionMove = (entry: RoomActivityEntry) => entry.kind === 'delete' && entry.detail === RETENTION_ACTIVITY_DETAIL && entry.actor === '';

const useStyles = makeStyles({
  section: { marginTop: '24px' },
  head: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap', margin: '0 0 8px' },
  heading: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  more: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap', marginTop: '12px' },
});

/**
 * The activity log of the room, or of a folder with what is below it (SPEC §4; OWNERs only — the
 * caller renders it only for them). Loaded when asked for, newest first, 50 entries a page; "Load more"
 * under the list adds the next older page while there is one.
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
  const activity = useRoomActivityPages(roomUuid, folderUuid, open, fileUuid);
  const headingId = `room-activity-heading${useId().replace(/:/g, '')}`;
  const statusRef = useRef<HTMLParagraphElement>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  // "Load more" was used from the keyboard or the mouse: when the last page makes the button go, focus
  // goes to the line saying that everything is shown (not back to the top of the page).
  const focusEnd = useRef(false);
  const { hasMore, pagedMore } = activity;
  useEffect(() => {
    if (!hasMore && pagedMore && focusEnd.current) statusRef.current?.focus();
    if (!hasMore) focusEnd.current = false;
  }, [hasMore, pagedMore]);
  const count = activity.entries?.length ?? 0;

  const columns: DataTableColumn<RoomActivityEntry>[] = [
    { id: 'date', header: t('rooms:activity.columns.date'), cell: (entry) => dateFormat.format(entry.createdAt) },
    { id: 'actor', header: t('rooms:activity.columns.actor'), cell: (entry) => (entry.actor === ROOM_LINK_ACTOR ? t('roomLinks:activityActor') : isRetentionMove(entry) ? t('rooms:retention.activityActor') : <PersonName name={entry.actorName} email={entry.actor} />) },
    { id: 'kind', header: t('rooms:activity.columns.kind'), cell: (entry) => kindText(t, entry) },
    {
      id: 'item',
      header: t('rooms:activity.columns.item'),
      // A rename's or move's detail is in the What column already.
      cell: (entry) => (itemCell ? itemCell(entry) : entry.detail && entry.kind !== 'edit' && !isRetentionMove(entry) ? `${entry.item.name} (${entry.detail})` : entry.item.name),
    },
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
      ) : !activity.entries ? (
        <Spinner size="small" label={t('common:loading')} />
      ) : (
        <>
          <DataTable
            labelledBy={headingId}
            columns={columns}
            rows={activity.entries}
            rowKey={(entry, index) => `${index}-${entry.createdAt}-${entry.kind}-${entry.item.uuid}`}
            empty={<Text as="p">{t('rooms:activity.empty')}</Text>}
          />
          {activity.moreFailed ? (
            <Alert
              type="error"
              action={
                <MessageBarActions>
                  <Button
                    size="small"
                    onClick={() => {
                      // The alert goes while the page loads again: the focus waits on "Load more".
                      moreRef.current?.focus();
                      focusEnd.current = true;
                      void activity.loadMore();
                    }}
                  >
                    {t('rooms:activity.retry')}
                  </Button>
                </MessageBarActions>
              }
            >
              {t('rooms:activity.moreError')}
            </Alert>
          ) : null}
          <div className={styles.more}>
            {hasMore ? (
              <Button
                ref={moreRef}
                disabledFocusable={activity.loadingMore}
                icon={activity.loadingMore ? <Spinner size="tiny" /> : undefined}
                onClick={() => {
                  focusEnd.current = true;
                  void activity.loadMore();
                }}
              >
                {activity.loadingMore ? t('rooms:activity.loadingMore') : t('rooms:activity.loadMore')}
              </Button>
            ) : null}
            {/* Announced when a page was added; takes the focus when the last page removed the button. */}
            <Text as="p" role="status" ref={statusRef} tabIndex={-1}>
              {pagedMore ? (hasMore ? t('rooms:activity.shown', { count }) : t('rooms:activity.allShown', { count })) : ''}
            </Text>
          </div>
        </>
      )}
    </section>
  );
}

/**
 * What happened, in words (issue 32 §1): an `edit` is a rename ("Renamed from X to Y": the detail
 * is the old name) or a move ("Moved to Z": `moved:` and the target; a bare `moved` is an older
 * entry or an E2E room's, whose target the server cannot name).
 */
function kindText(t: (key: string, values?: Record<string, unknown>) => string, entry: RoomActivityEntry): string {
  if (entry.kind !== 'edit' || entry.detail === null) return t(`rooms:activity.kinds.${entry.kind}`);
  if (entry.detail === 'moved') return t('rooms:activity.moved');
  if (entry.detail.startsWith('moved:')) return t('rooms:activity.movedTo', { target: entry.detail.slice('moved:'.length) });
  return t('rooms:activity.renamed', { from: entry.detail, to: entry.item.name });
}
