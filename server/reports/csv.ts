import type { Language } from '@shared/contract/constants';
import { REPORT_CSV_COLUMNS, type ActiveUsersReport, type DeliveriesReport, type DownloadsReport, type ReportKind, type StorageArea, type StorageReport } from '@shared/contract/reports';
import { securityLevelNumber } from '@shared/contract/security-levels';
import { csvText } from '@shared/rules/csv';

/**
 * The reports as CSV for the signed-in user's spreadsheet (`csvText`, shared/rules/csv.ts): UTF-8
 * with a byte order mark, CRLF, `;` for de and fr and `,` for en; a header row of
 * `REPORT_CSV_COLUMNS`. Levels are written as people read them (1–4), storage areas by their name
 * in the user's language (the web client's `reports:storage.areas.*`).
 */
const AREA_NAMES: Record<Language, Record<StorageArea, string>> = {
  de: { secureMails: 'Sichere Mails', dataRooms: 'Datenräume' },
  en: { secureMails: 'Secure mails', dataRooms: 'Data rooms' },
  fr: { secureMails: 'Mails sécurisés', dataRooms: 'Salles de données' },
};

const csvOf = (kind: ReportKind, rows: ReadonlyArray<ReadonlyArray<string | number>>, language: Language) => csvText([REPORT_CSV_COLUMNS[kind], ...rows], language);

export const deliveriesCsv = (report: DeliveriesReport, language: Language) =>
  csvOf('deliveries', report.rows.map((r) => [r.date, securityLevelNumber(r.level), r.sent, r.received]), language);
export const storageCsv = (report: StorageReport, language: Language) =>
  csvOf('storage', report.rows.map((r) => [AREA_NAMES[language][r.area], r.files, r.bytes, r.filesAdded, r.bytesAdded]), language);
export const activeUsersCsv = (report: ActiveUsersReport, language: Language) => csvOf('activeUsers', report.rows.map((r) => [r.date, r.activeUsers, r.senders]), language);
export const downloadsCsv = (report: DownloadsReport, language: Language) =>
  csvOf('downloads', report.rows.map((r) => [r.date, securityLevelNumber(r.level), r.downloads, r.recipients]), language);
