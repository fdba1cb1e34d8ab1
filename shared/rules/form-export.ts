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

/**
 * A value as kept for the list, export and summary (levels 1/2 on the server, levels 3/4 in the
 * browser after decrypting): text, or the chosen options / file names one by one. Rows kept before
 * issue 33 §4 hold checkbox answers as one text joined with ", " (read by `chosenOptions`).
 */
export type KeptValue = string | readonly string[];
export type KeptValues = Readonly<Record<string, KeptValue>>;

/** The separator of a list in the export's text (and of checkbox answers in rows kept before lists). */
export const LIST_SEPARATOR = ', ';

/** One value as kept: a list stays a list (an option holding ", " stays one option), a signature a marker. */
export function keptValue(value: FieldValue | undefined): KeptValue {
  if (value === undefined) return '';
  if (typeof value === 'string') return value.startsWith('data:image/') ? SIGNATURE : value;
  return value.map((v) => (typeof v === 'string' ? v : v.name));
}

/** A kept value as the export and the list show it: lists joined with ", ". */
export const keptValueText = (value: KeptValue | undefined): string => (value === undefined ? '' : typeof value === 'string' ? value : value.join(LIST_SEPARATOR));

/** One value as the export shows it: choices joined with ", ", files by name, a signature by a marker. */
export const fieldValueText = (value: FieldValue | undefined): string => keptValueText(keptValue(value));

/** The values of the value fields as kept, by field name (what the server keeps for levels 1/2). */
export function keptValues(fields: readonly CustomField[], values: Readonly<Record<string, FieldValue>>): Record<string, KeptValue> {
  return Object.fromEntries(valueColumns(fields).map((name) => [name, keptValue(values[name])]));
}

/** The values of the value fields as text, by field name (the list's and the export's cells). */
export function exportValueTexts(fields: readonly CustomField[], values: Readonly<Record<string, FieldValue>>): Record<string, string> {
  return textsOf(keptValues(fields, values));
}

/** Kept values as the list's and export's text. */
export const textsOf = (kept: KeptValues): Record<string, string> => Object.fromEntries(Object.entries(kept).map(([name, value]) => [name, keptValueText(value)]));

/**
 * Kept values read back from their JSON text: a text or a list of texts per name; anything else
 * (not an object, broken JSON) is no values at all (null). Lists are kept from issue 33 §4 on;
 * older rows hold texts only and read as before.
 */
export function parseKeptValues(text: string | null): Record<string, KeptValue> | null {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return Object.fromEntries(
      Object.entries(parsed).filter((e): e is [string, KeptValue] => typeof e[1] === 'string' || (Array.isArray(e[1]) && e[1].every((v) => typeof v === 'string'))),
    );
  } catch {
    return null;
  }
}

/**
 * Kept values from a decrypted level 3/4 values document (shared/contract/form-e2e.ts, whose values
 * the submitter's browser wrote and the reader verified by signature, but typed `unknown`): texts
 * and lists as the server keeps them for levels 1/2, so list, export and summary read both alike.
 */
export function keptValuesOfDocument(fields: readonly CustomField[], values: Readonly<Record<string, unknown>>): Record<string, KeptValue> {
  const one = (value: unknown): KeptValue => {
    if (value === undefined || value === null) return '';
    if (typeof value === 'string') return keptValue(value);
    if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : typeof v === 'object' && v !== null && 'name' in v ? String((v as { name: unknown }).name) : JSON.stringify(v)));
    return typeof value === 'object' ? JSON.stringify(value) : String(value as number | boolean);
  };
  return Object.fromEntries(valueColumns(fields).map((name) => [name, one(values[name])]));
}
