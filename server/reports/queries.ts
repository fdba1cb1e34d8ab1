import type { SecurityLevel } from '@shared/contract/deliveries';
import {
  DAY_MS,
  reportDayOf,
  reportDays,
  reportDayStart,
  type ActiveUsersReport,
  type DeliveriesReport,
  type DownloadsReport,
  type ReportRange,
  type StorageReport,
} from '@shared/contract/reports';
import { isSecurityLevel, SECURITY_LEVEL_ORDER } from '@shared/contract/security-levels';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import '../sessions/active-days-table';

/**
 * The report figures, each one or two SQL aggregates grouped by UTC day (epoch ms / 86 400 000,
 * integer division on SQLite and PostgreSQL alike) — no row is loaded into JS, only the groups
 * (at most days × levels). Counting rules: server/README.md "Reports".
 */

/** The range as epoch ms: [start of `from`, start of the day after `to`). */
function bounds(range: ReportRange): { start: number; end: number } {
  return { start: reportDayStart(range.from), end: reportDayStart(range.to) + DAY_MS };
}


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
  const sentDays = db.selectFrom('deliveries').where('sent_day', '>=', firstDay).where('sent_day', '<=', lastDay);
  const [active, activeTotal, senders, sendersTotal] = await Promise.all([
    activeDays.select(['day', (eb) => eb.fn.countAll().as('n')]).groupBy('day').execute(),
    activeDays.select((eb) => eb.fn.count('user_id').distinct().as('n')).executeTakeFirst(),
    sentDays.select(['sent_day as day', (eb) => eb.fn.count('sender_id').distinct().as('n')]).groupBy('sent_day').execute(),
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

export async function storageReport(db: Kysely<Database>, range: ReportRange): Promise<StorageReport> {
  const { start, end } = bounds(range);
  const [stored, added] = await Promise.all([
    db
      .selectFrom('delivery_files as f')
      .innerJoin('deliveries as d', 'd.id', 'f.delivery_id')
      .select([(eb) => eb.fn.countAll().as('files'), (eb) => eb.fn.coalesce(eb.fn.sum('f.size'), sql.lit(0)).as('bytes')])
      .where('f.status', '=', 'committed')
      .where('d.purged_at', 'is', null)
      .executeTakeFirst(),
    db
      .selectFrom('delivery_files as f')
      .select([(eb) => eb.fn.countAll().as('files'), (eb) => eb.fn.coalesce(eb.fn.sum('f.size'), sql.lit(0)).as('bytes')])
      .where('f.committed_at', '>=', start)
      .where('f.committed_at', '<', end)
      .executeTakeFirst(),
  ]);
  return {
    ...range,
    rows: [
      { area: 'secureMails', files: num(stored?.files), bytes: num(stored?.bytes), filesAdded: num(added?.files), bytesAdded: num(added?.bytes) },
      // Data rooms do not exist yet (issue 15): their area reads 0 until they store files.
      { area: 'dataRooms', files: 0, bytes: 0, filesAdded: 0, bytesAdded: 0 },
    ],
  };
}
