import { DataVizPalette, DonutChart, getColorFromToken } from '@fluentui/react-charts';
import { makeStyles, tokens } from '@fluentui/react-components';
import { call } from '@shared/api/call';
import { ROOM_OPS_ENDPOINTS } from '@shared/contract/endpoints/room-ops';
import type { StorageQuota } from '@shared/contract/room-ops';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { formatSize } from '@web/lib/format-size';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

/** GET /rooms/quota through the contract; a failure leaves the view away (the rooms list still works). */
const useStorageQuota = () => {
  const { user } = useAuthState();
  return useSWR(user ? ['rooms/quota', user.uuid] : null, (): Promise<StorageQuota> => call(apiClient, ROOM_OPS_ENDPOINTS.quota, {}));
};

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
});

/** Storage quota view (SPEC §2/§3): a donut of secure rooms / other / free, and the figures as text. */
export function StorageQuotaView() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const quota = useStorageQuota().data;
  if (!quota) return null;
  const size = (bytes: number | null) => (bytes === null ? t('rooms:quota.unknown') : formatSize(bytes, i18n.language));
  const slices = quotaSlices(quota);
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
      </dl>
    </section>
  );
}
