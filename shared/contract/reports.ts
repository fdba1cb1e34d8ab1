import { z } from 'zod';
import type { RoleName } from './constants';
import { SecurityLevelSchema } from './deliveries';

/**
 * Usage reports of Administration › Reports (issue 17 §3, DESIGN §9 "Reports"). Our design; all
 * four take the same date range and exist as JSON (the page's charts) and as CSV (download):
 *
 * | call | what |
 * |---|---|
 * | GET /reports/deliveries(/csv) | deliveries sent and received per day and security level |
 * | GET /reports/storage(/csv)    | bytes and files stored per area, and what was added in the range |
 * | GET /reports/active-users(/csv) | users active (signed in or using a session) and senders per day |
 * | GET /reports/downloads(/csv)  | file downloads by recipients per day and security level |
 *
 * Days are UTC calendar days (`YYYY-MM-DD`); `from` and `to` are both included, `from ≤ to`, at
 * most `MAX_REPORT_DAYS` days. Who may: ROLE_ADMIN and `config.group.reporting` (SPEC §6's
 * "group reporting"). server/README.md "Reports" says how each figure is counted and lists the
 * CSV columns (`REPORT_CSV_COLUMNS`).
 */

/** Who may see reports (SPEC §6): administrators and holders of "group reporting". */
export const REPORT_ROLES: readonly RoleName[] = ['ROLE_ADMIN', 'config.group.reporting'];

/** Longest range a report covers (a leap year). */
export const MAX_REPORT_DAYS = 366;
export const DAY_MS = 86_400_000;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` → epoch ms of that UTC midnight; NaN when it is not a real calendar day. */
export function reportDayStart(day: string): number {
  if (!ISO_DAY.test(day)) return Number.NaN;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day ? Number.NaN : ms;
}

/** Epoch ms → its UTC day `YYYY-MM-DD`. */
export const reportDayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Every day from `from` to `to` (both included). */
export function reportDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = reportDayStart(from); t <= reportDayStart(to); t += DAY_MS) days.push(reportDayOf(t));
  return days;
}

const DaySchema = z.string().refine((day) => !Number.isNaN(reportDayStart(day)), { message: 'A calendar day YYYY-MM-DD' });

export const ReportRangeQuerySchema = z
  .strictObject({
    from: DaySchema.describe('First day (UTC), included'),
    to: DaySchema.describe('Last day (UTC), included'),
  })
  .refine((q) => reportDayStart(q.from) <= reportDayStart(q.to), { message: '"from" must not be after "to"', path: ['from'] })
  .refine((q) => (reportDayStart(q.to) - reportDayStart(q.from)) / DAY_MS + 1 <= MAX_REPORT_DAYS, {
    message: `A report covers at most ${MAX_REPORT_DAYS} days`,
    path: ['to'],
  })
  .meta({ id: 'ReportRangeQuery' });
export type ReportRange = z.infer<typeof ReportRangeQuerySchema>;

const Count = z.number().int().nonnegative();
const RangeFields = { from: z.string(), to: z.string() };

export const DeliveriesReportRowSchema = z.object({ date: z.string(), level: SecurityLevelSchema, sent: Count, received: Count }).meta({ id: 'DeliveriesReportRow' });
export const DeliveriesReportSchema = z
  .object({ ...RangeFields, rows: z.array(DeliveriesReportRowSchema), totals: z.object({ sent: Count, received: Count }) })
  .meta({ id: 'DeliveriesReport' });
export type DeliveriesReport = z.infer<typeof DeliveriesReportSchema>;

export const STORAGE_AREAS = ['secureMails', 'dataRooms'] as const;
export const StorageAreaSchema = z.enum(STORAGE_AREAS);
export type StorageArea = z.infer<typeof StorageAreaSchema>;
export const StorageReportRowSchema = z
  .object({ area: StorageAreaSchema, files: Count, bytes: Count, filesAdded: Count, bytesAdded: Count })
  .meta({ id: 'StorageReportRow' });
export const StorageReportSchema = z.object({ ...RangeFields, rows: z.array(StorageReportRowSchema) }).meta({ id: 'StorageReport' });
export type StorageReport = z.infer<typeof StorageReportSchema>;

export const ActiveUsersReportRowSchema = z.object({ date: z.string(), activeUsers: Count, senders: Count }).meta({ id: 'ActiveUsersReportRow' });
export const ActiveUsersReportSchema = z
  .object({ ...RangeFields, rows: z.array(ActiveUsersReportRowSchema), totals: z.object({ activeUsers: Count, senders: Count }) })
  .meta({ id: 'ActiveUsersReport' });
export type ActiveUsersReport = z.infer<typeof ActiveUsersReportSchema>;

export const DownloadsReportRowSchema = z.object({ date: z.string(), level: SecurityLevelSchema, downloads: Count, recipients: Count }).meta({ id: 'DownloadsReportRow' });
export const DownloadsReportSchema = z
  .object({ ...RangeFields, rows: z.array(DownloadsReportRowSchema), totals: z.object({ downloads: Count }) })
  .meta({ id: 'DownloadsReport' });
export type DownloadsReport = z.infer<typeof DownloadsReportSchema>;

export const REPORT_KINDS = ['deliveries', 'storage', 'activeUsers', 'downloads'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The header row of each report's CSV (server/README.md "Reports" explains them). */
export const REPORT_CSV_COLUMNS: Record<ReportKind, readonly string[]> = {
  deliveries: ['date', 'level', 'sent', 'received'],
  storage: ['area', 'files', 'bytes', 'files_added', 'bytes_added'],
  activeUsers: ['date', 'active_users', 'senders'],
  downloads: ['date', 'level', 'downloads', 'recipients'],
};

/** The CSV's file name: `kuvert-deliveries-2026-01-01-2026-01-31.csv`. */
export const reportCsvFileName = (kind: ReportKind, range: ReportRange): string =>
  `kuvert-${kind.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-${range.from}-${range.to}.csv`;
