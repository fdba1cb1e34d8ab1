import { DataVizPalette, getColorFromToken, LineChart, VerticalStackedBarChart, type LineChartPoints, type VerticalStackedChartProps } from '@fluentui/react-charts';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { reportDays, reportDayStart, type ActiveUsersReport } from '@shared/contract/reports';
import { SECURITY_LEVEL_ORDER, securityLevelInfo } from '@shared/contract/security-levels';
import { useTranslation } from 'react-i18next';

const CHART_HEIGHT = 280;

/** One colour per level (and per line), the same in every chart: one legend entry each. */
const LEVEL_COLOURS = [DataVizPalette.color1, DataVizPalette.color2, DataVizPalette.color3, DataVizPalette.color4];
const levelColour = (level: SecurityLevel) => getColorFromToken(LEVEL_COLOURS[SECURITY_LEVEL_ORDER.indexOf(level)] ?? DataVizPalette.color1);

export const levelLabel = (t: (key: string) => string, level: SecurityLevel) => t(`reports:levels.${securityLevelInfo(level).textKey}`);

/**
 * Per-day bars stacked by security level, every day of the range on the axis (days without
 * entries stand at 0). `value` picks the figure of a row (sent, downloads).
 */
export function LevelBarChart<R extends { date: string; level: SecurityLevel }>({
  title,
  from,
  to,
  rows,
  value,
}: {
  title: string;
  from: string;
  to: string;
  rows: readonly R[];
  value: (row: R) => number;
}) {
  const { t, i18n } = useTranslation();
  const byKey = new Map(rows.map((row) => [`${row.date}|${row.level}`, value(row)]));
  const levels = SECURITY_LEVEL_ORDER.filter((level) => rows.some((row) => row.level === level));
  const data: VerticalStackedChartProps[] = reportDays(from, to).map((date) => ({
    xAxisPoint: date,
    chartData: levels.map((level) => ({ legend: levelLabel(t, level), data: byKey.get(`${date}|${level}`) ?? 0, color: levelColour(level) })),
  }));
  return <VerticalStackedBarChart chartTitle={title} data={data} height={CHART_HEIGHT} culture={i18n.language} hideLabels roundCorners />;
}

/** Active users and senders per day, two lines. */
export function ActiveUsersChart({ report, title }: { report: ActiveUsersReport; title: string }) {
  const { t, i18n } = useTranslation();
  const line = (legend: string, colour: string, pick: (row: ActiveUsersReport['rows'][number]) => number): LineChartPoints => ({
    legend,
    color: getColorFromToken(colour),
    data: report.rows.map((row) => ({ x: new Date(reportDayStart(row.date)), y: pick(row) })),
  });
  return (
    <LineChart
      data={{ chartTitle: title, lineChartData: [line(t('reports:activeUsers.activeUsers'), DataVizPalette.color1, (r) => r.activeUsers), line(t('reports:activeUsers.senders'), DataVizPalette.color5, (r) => r.senders)] }}
      height={CHART_HEIGHT}
      culture={i18n.language}
    />
  );
}
