import type { SecurityLevel } from '@shared/contract/deliveries';
import {
  DAY_MS,
  reportDayOf,
  reportDays,
  reportDayStart,
  STORAGE_AREAS,
  type ActiveUsersReport,
  type DeliveriesReport,
  type DownloadsReport,
  type ReportRange,
  type StorageReport,
} from '@shared/contract/reports';
import { isSecurityLevel, SECURITY_LEVEL_ORDER } from '@shared/contract/security-levels';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import '../sessions/active-days-table';
import './sender-days';
import './storage-totals';

/**
 * The report figures, each one or two SQL aggregates grouped by UTC day (epoch ms / 86 400 000,
 * integer division on SQLite and PostgreSQL alike) — no row is loaded into JS, only the groups
 * (at most days × levels). Counting rules: server/README.md "Reports".
 */

/** PostgreSQL answers counts and sums of bigint as strings. */
const num = (value: unknown): number => Number(value ?? 0);
const dateOf = (day: unknown): string => reportDayOf(num(day) * DAY_MS);
const levelOrder = (level: SecurityLevel) => SECURITY_LEVEL_ORDER.indexOf(level);

interface LevelGroup {
  day: unknown;
  level: unknown;
}

/** Groups keyed by `date|level`, in date then level order. */
function byDayAndLevel<G extends LevelGroup>(groups: G[]): Map<string, { date: string; level: SecurityLevel; group: G }> {
  const entries = groups
    .map((group) => ({ date: dateOf(group.day), level: num(group.level), group }))
    .filter((e): e is { date: string; level: SecurityLevel; group: G } => isSecurityLevel(e.level));
  entries.sort((a, b) => a.date.localeCompare(b.date) || levelOrder(a.level) - levelOrder(b.level));
  return new Map(entries.map((e) => [`${e.date}|${e.level}`, e]));
}

/** The range as UTC day numbers, both included (`deliveries.sent_day`, `user_active_days.day`). */
function dayBounds(range: ReportRange): { firstDay: number; lastDay: number } {
  return { firstDay: reportDayStart(range.from) / DAY_MS, lastDay: reportDayStart(range.to) / DAY_MS };
}

/**
 * Sent: deliveries by `sent_day` and level; received: the sum of their `recipient_count` (both
 * written by the send, migration 0025) — one walk of the `deliveries_report` index in its order.
 */
export async function deliveriesReport(db: Kysely<Database>, range: ReportRange): Promise<DeliveriesReport> {
  const { firstDay, lastDay } = dayBounds(range);
  const groups = await db
    .selectFrom('deliveries')
    .select(['sent_day as day', 'security_level as level', (eb) => eb.fn.countAll().as('sent'), (eb) => eb.fn.sum('recipient_count').as('received')])
    .where('sent_day', '>=', firstDay)
    .where('sent_day', '<=', lastDay)
    .groupBy(['sent_day', 'security_level'])
    .execute();
  const rows = [...byDayAndLevel(groups).values()].map(({ date, level, group }) => ({ date, level, sent: num(group.sent), received: num(group.received) }));
  return {
    ...range,
    rows,
    totals: { sent: rows.reduce((t, r) => t + r.sent, 0), received: rows.reduce((t, r) => t + r.received, 0) },
  };
}

/**
 * Downloads by the `day` and `security_level` their activity rows carry (migration 0029): one walk
 * of the `delivery_activity_downloads` index in its order, no join with deliveries.
 */
export async function downloadsReport(db: Kysely<Database>, range: ReportRange): Promise<DownloadsReport> {
  const { firstDay, lastDay } = dayBounds(range);
  const groups = await db
    .selectFrom('delivery_activity')
    .select(['day', 'security_level as level', (eb) => eb.fn.countAll().as('downloads'), (eb) => eb.fn.count('recipient_id').distinct().as('recipients')])
    .where('kind', '=', 'downloaded')
    .where('day', '>=', firstDay)
    .where('day', '<=', lastDay)
    .groupBy(['day', 'security_level'])
    .execute();
  const rows = [...byDayAndLevel(groups).values()].map(({ date, level, group }) => ({
    date,
    level,
    downloads: num(group.downloads),
    recipients: num(group.recipients),
  }));
  return { ...range, rows, totals: { downloads: rows.reduce((t, r) => t + r.downloads, 0) } };
}

export async function activeUsersReport(db: Kysely<Database>, range: ReportRange): Promise<ActiveUsersReport> {
  const { firstDay, lastDay } = dayBounds(range);
  const activeDays = db.selectFrom('user_active_days').where('day', '>=', firstDay).where('day', '<=', lastDay);
  const sentDays = db.selectFrom('sender_days').where('day', '>=', firstDay).where('day', '<=', lastDay);
  const [active, activeTotal, senders, sendersTotal] = await Promise.all([
    activeDays.select(['day', (eb) => eb.fn.countAll().as('n')]).groupBy('day').execute(),
    activeDays.select((eb) => eb.fn.count('user_id').distinct().as('n')).executeTakeFirst(),
    sentDays.select(['day', (eb) => eb.fn.countAll().as('n')]).groupBy('day').execute(),
    sentDays.select((eb) => eb.fn.count('sender_id').distinct().as('n')).executeTakeFirst(),
  ]);
  const activeBy = new Map(active.map((g) => [dateOf(g.day), num(g.n)]));
  const sendersBy = new Map(senders.map((g) => [dateOf(g.day), num(g.n)]));
  return {
    ...range,
    rows: reportDays(range.from, range.to).map((date) => ({ date, activeUsers: activeBy.get(date) ?? 0, senders: sendersBy.get(date) ?? 0 })),
    totals: { activeUsers: num(activeTotal?.n), senders: num(sendersTotal?.n) },
  };
}

/**
 * Storage per area from the running totals (server/reports/storage-totals.ts, migration 0029):
 * stored now, and the sum of the days of the range — a few small rows, whatever the file count.
 */
export async function storageReport(db: Kysely<Database>, range: ReportRange): Promise<StorageReport> {
  const { firstDay, lastDay } = dayBounds(range);
  const [stored, added] = await Promise.all([
    db.selectFrom('storage_totals').select(['area', 'files', 'bytes']).execute(),
    db
      .selectFrom('storage_added_days')
      .select(['area', (eb) => eb.fn.sum('files').as('files'), (eb) => eb.fn.sum('bytes').as('bytes')])
      .where('day', '>=', firstDay)
      .where('day', '<=', lastDay)
      .groupBy('area')
      .execute(),
  ]);
  return {
    ...range,
    rows: STORAGE_AREAS.map((area) => {
      const now = stored.find((s) => s.area === area);
      const inRange = added.find((a) => a.area === area);
      return { area, files: num(now?.files), bytes: num(now?.bytes), filesAdded: num(inRange?.files), bytesAdded: num(inRange?.bytes) };
    }),
  };
}
