import { REPORT_CSV_COLUMNS, type ActiveUsersReport, type DeliveriesReport, type DownloadsReport, type ReportKind, type StorageReport } from '@shared/contract/reports';
import { securityLevelNumber } from '@shared/contract/security-levels';

/**
 * The reports as CSV (RFC 4180): comma-separated, CRLF line ends, a header row of
 * `REPORT_CSV_COLUMNS`, fields quoted only when they hold a comma, quote or line break (none of
 * ours do today: dates, numbers, area names). Levels are written as people read them (1–4).
 */
const field = (value: string | number): string => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

function csvOf(kind: ReportKind, rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return [REPORT_CSV_COLUMNS[kind], ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

export const deliveriesCsv = (report: DeliveriesReport) =>
  csvOf('deliveries', report.rows.map((r) => [r.date, securityLevelNumber(r.level), r.sent, r.received]));
export const storageCsv = (report: StorageReport) =>
  csvOf('storage', report.rows.map((r) => [r.area, r.files, r.bytes, r.filesAdded, r.bytesAdded]));
export const activeUsersCsv = (report: ActiveUsersReport) => csvOf('activeUsers', report.rows.map((r) => [r.date, r.activeUsers, r.senders]));
export const downloadsCsv = (report: DownloadsReport) =>
  csvOf('downloads', report.rows.map((r) => [r.date, securityLevelNumber(r.level), r.downloads, r.recipients]));
