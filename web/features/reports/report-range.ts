import { DAY_MS, MAX_REPORT_DAYS, reportDayOf, reportDayStart, type ReportRange } from '@shared/contract/reports';

/** The page opens on the last 30 days, today included (UTC days, like the server). */
export const DEFAULT_RANGE_DAYS = 30;

export function defaultReportRange(now = Date.now()): ReportRange {
  return { from: reportDayOf(now - (DEFAULT_RANGE_DAYS - 1) * DAY_MS), to: reportDayOf(now) };
}

export type RangeProblem = 'invalidDay' | 'fromAfterTo' | 'tooLong';

/** What is wrong with a range the user typed (the server says the same with a 400), or undefined. */
export function rangeProblem(range: ReportRange): RangeProblem | undefined {
  const from = reportDayStart(range.from);
  const to = reportDayStart(range.to);
  if (Number.isNaN(from) || Number.isNaN(to)) return 'invalidDay';
  if (from > to) return 'fromAfterTo';
  if ((to - from) / DAY_MS + 1 > MAX_REPORT_DAYS) return 'tooLong';
  return undefined;
}
