import { AUDIT_CSV_COLUMNS, type AuditEntry } from '@shared/contract/audit';

/** A byte-order mark first: spreadsheet programs then read the file as UTF-8 (umlauts, accents). */
const UTF8_BOM = '\ufeff';

/** RFC 4180 field: quoted when it holds a comma, quote or line break. */
const field = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The audit log as CSV (comma-separated, CRLF, header row): time as ISO 8601 UTC, details as JSON. */
export function auditLogCsv(entries: readonly AuditEntry[]): string {
  const rows = entries.map((e) => [new Date(e.at).toISOString(), e.action, e.actor?.email ?? '', e.subject?.email ?? '', JSON.stringify(e.details)]);
  return UTF8_BOM + [[...AUDIT_CSV_COLUMNS], ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}
