import type { Language } from '@shared/contract/constants';
import { DISPLAY_ONLY_FIELD_TYPES, type CustomField, type FieldValue } from '@shared/contract/forms';
import { FORM_EXPORT_FIXED_COLUMNS, type FormSubmission, type FormSubmissionState } from '@shared/contract/form-submissions';
import { securityLevelNumber } from '@shared/contract/security-levels';

/**
 * The rows of a form's submissions export (issue 33 §1), one code for the server's CSV (levels
 * 1/2) and the browser's CSV and Excel (every level; levels 3/4 after decrypting): a header row,
 * then per submission its time (UTC, `YYYY-MM-DD HH:MM:SS`, which spreadsheets read as a date),
 * submitter, level (1–4), state and one column per value field. The texts are in the language of
 * the person exporting, as the report CSVs' (server/reports/csv.ts).
 */
const HEADERS: Record<Language, Record<(typeof FORM_EXPORT_FIXED_COLUMNS)[number], string>> = {
  de: { time: 'Zeit (UTC)', submitter: 'Absender', level: 'Sicherheitsstufe', state: 'Status' },
  en: { time: 'Time (UTC)', submitter: 'Submitter', level: 'Security level', state: 'State' },
  fr: { time: 'Heure (UTC)', submitter: 'Expéditeur', level: 'Niveau de sécurité', state: 'État' },
};

const STATES: Record<Language, Record<FormSubmissionState, string>> = {
  de: { open: 'Offen', sent: 'Gesendet' },
  en: { open: 'Open', sent: 'Sent' },
  fr: { open: 'Ouvert', sent: 'Envoyé' },
};

const ANONYMOUS: Record<Language, string> = { de: 'Anonym', en: 'Anonymous', fr: 'Anonyme' };

export const exportTime = (at: number): string => new Date(at).toISOString().slice(0, 19).replace('T', ' ');

export function submissionExportRows(columns: readonly string[], submissions: readonly FormSubmission[], language: Language): string[][] {
  const header = [...FORM_EXPORT_FIXED_COLUMNS.map((c) => HEADERS[language][c]), ...columns];
  const rows = submissions.map((s) => [
    exportTime(s.at),
    s.submitter ?? ANONYMOUS[language],
    String(securityLevelNumber(s.securityLevel)),
    STATES[language][s.state],
    ...columns.map((c) => s.values?.[c] ?? ''),
  ]);
  return [header, ...rows];
}

/** The form's fields that carry a value, in order: the export's value columns. */
export const valueColumns = (fields: readonly CustomField[]): string[] => fields.filter((f) => !DISPLAY_ONLY_FIELD_TYPES.includes(f.type)).map((f) => f.name);

/** A signature is an image: the export names it rather than carrying the data URL. */
const SIGNATURE = '[signature]';

/** One value as the export shows it: choices joined with ", ", files by name, a signature by a marker. */
export function fieldValueText(value: FieldValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value.startsWith('data:image/') ? SIGNATURE : value;
  return value.map((v) => (typeof v === 'string' ? v : v.name)).join(', ');
}

/** The values of the value fields as text, by field name (what the server keeps for levels 1/2). */
export function exportValueTexts(fields: readonly CustomField[], values: Readonly<Record<string, FieldValue>>): Record<string, string> {
  return Object.fromEntries(valueColumns(fields).map((name) => [name, fieldValueText(values[name])]));
}
