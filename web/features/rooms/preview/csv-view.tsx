import { Text } from '@fluentui/react-components';
import Papa from 'papaparse';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { usePreviewStyles } from './preview-styles';

/** Rows shown of a CSV file (the first is the header); the rest is counted. */
export const CSV_PREVIEW_ROWS = 200;

/** The first rows of a CSV file and how many rows it has (papaparse: quotes, separators, line ends). */
export function csvRows(text: string): { header: string[]; rows: string[][]; total: number } {
  const parsed = Papa.parse<string[]>(text.replace(/\r?\n$/, ''), { skipEmptyLines: true });
  const [header = [], ...body] = parsed.data;
  return { header, rows: body.slice(0, CSV_PREVIEW_ROWS), total: body.length };
}

export function CsvView({ text, name }: { text: string; name: string }) {
  const { t } = useTranslation();
  const styles = usePreviewStyles();
  const { header, rows, total } = useMemo(() => csvRows(text), [text]);
  return (
    <div className={styles.frame} tabIndex={0} role="region" aria-label={t('rooms:preview.textLabel', { name })}>
      <Text as="p">{t('rooms:preview.csvShowing', { shown: rows.length, total })}</Text>
      <table className={styles.table}>
        <thead>
          <tr>
            {header.map((cell, i) => (
              <th key={i} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, i) => (
                <td key={i}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
