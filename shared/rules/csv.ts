import type { Language } from '@shared/contract/constants';

/**
 * CSV as spreadsheet programs open it (issue 33 §1.5), one writer for the server's report CSVs and
 * the browser's exports: UTF-8 with a byte order mark (without it Excel reads UTF-8 as the system's
 * code page), CRLF line ends, and the separator the user's locale expects — Excel in German and
 * French uses `;` (the comma is their decimal mark), in English `,`. A field is quoted when it
 * holds the separator, a quote or a line break (RFC 4180 otherwise).
 */
export const CSV_BOM = '\uFEFF';

export const csvSeparator = (language: Language): ',' | ';' => (language === 'en' ? ',' : ';');

export function csvText(rows: ReadonlyArray<ReadonlyArray<string | number>>, language: Language): string {
  const separator = csvSeparator(language);
  const field = (value: string | number): string => {
    const text = String(value);
    return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return CSV_BOM + rows.map((row) => row.map(field).join(separator)).join('\r\n') + '\r\n';
}
