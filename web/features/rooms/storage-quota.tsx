import { DataVizPalette, DonutChart, getColorFromToken } from '@fluentui/react-charts';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import type { StorageQuota } from '@shared/contract/room-ops';
import { quotaNearlyFull } from '@shared/contract/storage-quotas';
import { Alert } from '@web/components/alert';
import { StorageWarning, useStorageQuota } from '@web/components/storage-warning';
import { formatSize } from '@web/lib/format-size';
import { useTranslation } from 'react-i18next';


/** The chart's slices: secure rooms, other (secure mails, submit boxes, forms), free (when known). */
export function quotaSlices(quota: StorageQuota): { key: 'secureRooms' | 'other' | 'free'; bytes: number }[] {
  return [
    { key: 'secureRooms' as const, bytes: quota.secureRooms },
    { key: 'other' as const, bytes: quota.other },
    ...(quota.free === null ? [] : [{ key: 'free' as const, bytes: quota.free }]),
  ];
}

const COLOURS = { secureRooms: DataVizPalette.color1, other: DataVizPalette.color2, free: DataVizPalette.color10 } as const;

const useStyles = makeStyles({
  section: { marginTop: '32px', maxWidth: '640px' },
  heading: { margin: '0 0 8px', fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  facts: { display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '4px 16px', margin: '8px 0 0' },
  term: { fontWeight: tokens.fontWeightSemibold },
  value: { margin: 0 },
  // Issue 32 §3: the user's own figures turn to the warning colour from 90 % of their quota.
  warning: { color: tokens.colorPaletteDarkOrangeForeground1, fontWeight: tokens.fontWeightSemibold },
});

/** Storage quota view (SPEC §2/§3): a donut of secure rooms / other / free, and the figures as text. */
export function StorageQuotaView() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const quota = useStorageQuota().data;
  if (!quota) return null;
  const size = (bytes: number | null) => (bytes === null ? t('rooms:quota.unknown') : formatSize(bytes, i18n.language));
  const slices = quotaSlices(quota);
  const nearlyFull = quota.user ? quotaNearlyFull(quota.user.used, quota.user.total) : false;
  return (
    <section className={styles.section} aria-labelledby="rooms-quota-heading">
      <h2 id="rooms-quota-heading" className={styles.heading}>
        {t('rooms:quota.title')}
      </h2>
      <DonutChart
        data={{
          chartTitle: t('rooms:quota.chart'),
          chartData: slices.map((slice) => ({ legend: t(`rooms:quota.${slice.key}`), data: slice.bytes, color: getColorFromToken(COLOURS[slice.key]) })),
        }}
        innerRadius={55}
        height={220}
        valueInsideDonut={size(quota.used)}
        culture={i18n.language}
      />
      <dl className={styles.facts}>
        {(
          [
            ['used', quota.used],
            ['total', quota.total],
            ['secureRooms', quota.secureRooms],
            ['other', quota.other],
            ['free', quota.free],
          ] as const
        ).map(([key, bytes]) => (
          <div key={key} style={{ display: 'contents' }}>
            <dt className={styles.term}>{t(`rooms:quota.${key}`)}</dt>
            <dd className={styles.value}>{key === 'total' && bytes === null ? t('rooms:quota.noLimit') : size(bytes)}</dd>
          </div>
        ))}
        {quota.user ? (
          <div style={{ display: 'contents' }}>
            <dt className={styles.term}>{t('rooms:quota.mine')}</dt>
            <dd className={nearlyFull ? `${styles.value} ${styles.warning}` : styles.value} data-testid="quota-mine">
              {quota.user.total === null ? t('rooms:quota.mineNoLimit', { used: size(quota.user.used) }) : t('rooms:quota.usedOf', { used: size(quota.user.used), total: size(quota.user.total) })}
            </dd>
          </div>
        ) : null}
      </dl>
      {nearlyFull && quota.user?.total != null ? (
        <Alert type="warning">{t(quota.user.used >= quota.user.total ? 'common:storage.userFull' : 'common:storage.userNearlyFull', { used: size(quota.user.used), total: size(quota.user.total) })}</Alert>
      ) : null}
    </section>
  );
}

/** A room's own quota under its heading (issue 32): used of total when a quota is set, and the warning bar from 90 %. */
export function RoomStorage({ roomUuid }: { roomUuid: string }) {
  const { t, i18n } = useTranslation();
  const room = useStorageQuota(roomUuid).data?.room;
  return (
    <>
      {room && room.total !== null ? (
        <Text as="p" data-testid="room-quota">
          {t('rooms:quota.room', { used: formatSize(room.used, i18n.language), total: formatSize(room.total, i18n.language) })}
        </Text>
      ) : null}
      <StorageWarning roomUuid={roomUuid} />
    </>
  );
}
