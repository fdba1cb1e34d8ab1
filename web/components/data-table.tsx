import { makeStyles, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from './alert';

const useStyles = makeStyles({
  // Narrow screens scroll the table, not the page.
  wrap: { overflowX: 'auto' },
});

export interface DataTableColumn<T> {
  /** Stable id of the column (React key). */
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
}

/**
 * A Fluent table with the states every list of the app has: an error alert, a spinner until the
 * first rows arrive, the caller's empty state for no rows, else a header row and one row per item.
 * `rows` undefined means "not loaded yet"; paging, search and toolbars stay with the caller.
 */
export function DataTable<T>({
  label,
  labelledBy,
  columns,
  rows,
  rowKey,
  size,
  loading = false,
  error,
  empty = null,
}: {
  /** The table's accessible name (or `labelledBy`: the id of a heading naming it). */
  label?: string;
  labelledBy?: string;
  columns: readonly DataTableColumn<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T, index: number) => string;
  size?: 'extra-small' | 'small' | 'medium';
  /** Shows the spinner while there are no rows yet. */
  loading?: boolean;
  /** The error text; shown above whatever rows are still at hand. */
  error?: string;
  /** What stands instead of the table when there are no rows (e.g. an empty-state section). */
  empty?: ReactNode;
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <>
      {error ? <Alert type="error">{error}</Alert> : null}
      {loading && rows === undefined ? <Spinner label={t('common:loading')} /> : null}
      {rows !== undefined && rows.length === 0 ? empty : null}
      {rows !== undefined && rows.length > 0 ? (
        <div className={styles.wrap}>
          <Table {...(label ? { 'aria-label': label } : {})} {...(labelledBy ? { 'aria-labelledby': labelledBy } : {})} {...(size ? { size } : {})}>
            <TableHeader>
              <TableRow>
                {columns.map((column) => (
                  <TableHeaderCell key={column.id}>{column.header}</TableHeaderCell>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row, index) => (
                <TableRow key={rowKey(row, index)}>
                  {columns.map((column) => (
                    <TableCell key={column.id}>{column.cell(row)}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
    </>
  );
}
