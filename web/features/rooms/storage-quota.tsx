import { DataVizPalette, DonutChart, getColorFromToken } from '@fluentui/react-charts';
import { makeStyles, tokens } from '@fluentui/react-components';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { formatSize } from '@web/lib/format-size';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

/** SPEC §3 storage quota in bytes, as GET /rooms/quota answers it (the room-operations contract, issue 15). */
export interface StorageQuotaFigures {
  used: number;
  total: number | null;
  other: number;
  secureRooms: number;
  free: number | null;
}

const QUOTA_PATH = '/rooms/quota';

const isQuota = (value: unknown): value is StorageQuotaFigures => {
  const v = value as Partial<Record<keyof StorageQuotaFigures, unknown>> | null;
  const figure = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  return !!v && figure(v.used) && figure(v.other) && figure(v.secureRooms) && (v.total === null || figure(v.total)) && (v.free === null || figure(v.free));
};

/**
 * The quota, or null while the server has no quota route (a feature check: the view stays away
 * until GET /rooms/quota answers figures; /rooms/{uuid} answers 400 for "quota" before that).
 */
const useStorageQuota = () => {
  const { user } = useAuthState();
  return useSWR(user ? ['rooms/quota', user.uuid] : null, async (): Promise<StorageQuotaFigures | null> => {
    const response = await apiClient.request<unknown>('GET', QUOTA_PATH, { acceptStatus: (status) => status === 400 || status === 404 });
    return response.status === 200 && isQuota(response.data) ? response.data : null;
  });
};

/** The chart's slices: secure rooms, other (secure mails, submit boxes, forms), free (when known). */
export function quotaSlices(quota: StorageQuotaFigures): { key: 'secureRooms' | 'other' | 'free'; bytes: number }[] {
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
