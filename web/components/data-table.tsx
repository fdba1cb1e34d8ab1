import { makeStyles, mergeClasses, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, TableSelectionCell, tokens } from '@fluentui/react-components';
import { mediaQueryBelow } from '@shared/theme/constants';
import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from './alert';

const PHONE = mediaQueryBelow('sm');

const useStyles = makeStyles({
  // Anything still too wide scrolls inside the table, never the page.
  wrap: { overflowX: 'auto', maxWidth: '100%' },
  // Below SPEC §9's sm breakpoint a row is a card: each cell under its own column name
  // (columns side by side cannot fit 400 px; Fluent's fixed layout would overlap them).
  table: { [PHONE]: { display: 'block', width: '100%' } },
  head: {
    [PHONE]: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
  },
  body: { [PHONE]: { display: 'block' } },
  row: {
    [PHONE]: {
      display: 'block',
      height: 'auto',
      padding: '8px 0',
      borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    },
  },
  // A row the caller points at (e.g. the hit of a search): marked for the eye and for assistive technology.
  // A row that opens on a click anywhere in it (the keyboard path stays the link inside it).
  opens: { cursor: 'pointer' },
  highlighted: { backgroundColor: tokens.colorBrandBackground2, ':hover': { backgroundColor: tokens.colorBrandBackground2Hover } },
  cell: {
    overflowWrap: 'anywhere',
    [PHONE]: {
      display: 'grid',
      gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)',
      gap: '8px',
      alignItems: 'center',
      // Badges and buttons keep their own width instead of stretching over the column.
      justifyItems: 'start',
      height: 'auto',
      minHeight: '32px',
      padding: '2px 8px',
      '::before': { content: 'attr(data-label)', fontWeight: tokens.fontWeightSemibold },
    },
  },
});

/** A click on the row itself opens it; one on a control inside, or one that selected text, does not. */
function openFromClick(event: MouseEvent<HTMLElement>, open: () => void): void {
  if (event.target instanceof Element && event.target.closest('a, button, input, select, textarea, label, [role="menuitem"], [role="checkbox"]')) return;
  if (window.getSelection()?.toString()) return;
  open();
}

export interface DataTableColumn<T> {
  /** Stable id of the column (React key). */
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** A sortable column's state (`aria-sort` on its header); the header holds the caller's sort button. */
  sort?: 'ascending' | 'descending' | 'none';
}

/**
 * Rows picked with a checkbox each (issue 32 §2 multi-select): the header's checkbox picks or drops
 * every row shown; Space on a focused checkbox toggles it. The caller keeps the picked keys.
 */
export interface DataTableSelection<T> {
  selected: ReadonlySet<string>;
  /** The rows' keys to pick (`true`) or drop. */
  onChange: (keys: string[], selected: boolean) => void;
  /** The accessible name of a row's checkbox, e.g. "Select “report.pdf”". */
  rowLabel: (row: T) => string;
  /** The header checkbox's accessible name. */
  allLabel: string;
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
  highlighted,
  onRowOpen,
  selection,
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
  /** The row to mark (`aria-current`, a brand background), e.g. the item a link pointed at. */
  highlighted?: (row: T) => boolean;
  /**
   * Opens the row on a click anywhere in it, except on its own controls (links, buttons, inputs,
   * menus) and when the click ended a text selection. Keyboard users use the row's link.
   */
  onRowOpen?: (row: T) => void;
  /** A checkbox column in front (multi-select). */
  selection?: DataTableSelection<T>;
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
          {/* Explicit roles: the phone layout changes the display of the table's parts, the semantics stay. */}
          <Table
            role="table"
            className={styles.table}
            {...(label ? { 'aria-label': label } : {})}
            {...(labelledBy ? { 'aria-labelledby': labelledBy } : {})}
            {...(size ? { size } : {})}
          >
            <TableHeader role="rowgroup" className={styles.head}>
              <TableRow role="row">
                {selection && rows ? <SelectAllCell selection={selection} keys={rows.map(rowKey)} /> : null}
                {columns.map((column) => (
                  <TableHeaderCell key={column.id} role="columnheader" {...(column.sort ? { 'aria-sort': column.sort } : {})}>
                    {column.header}
                  </TableHeaderCell>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody role="rowgroup" className={styles.body}>
              {rows.map((row, index) => (
                <TableRow
                  key={rowKey(row, index)}
                  role="row"
                  className={mergeClasses(styles.row, onRowOpen && styles.opens, highlighted?.(row) && styles.highlighted)}
                  {...(onRowOpen ? { onClick: (event: MouseEvent<HTMLElement>) => openFromClick(event, () => onRowOpen(row)) } : {})}
                  {...(highlighted?.(row) ? { 'aria-current': 'true' as const, 'data-highlighted': 'true' } : {})}
                >
                  {selection ? (
                    <TableSelectionCell
                      role="cell"
                      checked={selection.selected.has(rowKey(row, index))}
                      onClick={() => selection.onChange([rowKey(row, index)], !selection.selected.has(rowKey(row, index)))}
                      checkboxIndicator={{ 'aria-label': selection.rowLabel(row) }}
                    />
                  ) : null}
                  {columns.map((column) => (
                    <TableCell key={column.id} role="cell" className={styles.cell} {...(typeof column.header === 'string' ? { 'data-label': column.header } : {})}>
                      {column.cell(row)}
                    </TableCell>
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

function SelectAllCell<T>({ selection, keys }: { selection: DataTableSelection<T>; keys: string[] }) {
  const picked = keys.filter((key) => selection.selected.has(key)).length;
  const all = picked === keys.length && keys.length > 0;
  return (
    <TableSelectionCell
      role="columnheader"
      checked={all ? true : picked > 0 ? 'mixed' : false}
      onClick={() => selection.onChange(keys, !all)}
      checkboxIndicator={{ 'aria-label': selection.allLabel }}
    />
  );
}
