import type { ReactNode } from 'react';
import { SlicedItems, SlicesRoom, useRenderSlices } from './renderSlices.js';
import './table.css';

/** A column of a RowTable: its header, what it shows of a row, and `num` for a right-aligned number. */
export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  num?: boolean;
}

/**
 * A table with one row per item (the admin's lists). Its last column holds the row's actions, which
 * stay in view at the right edge while the table scrolls sideways in its `TableScroll` box
 * (docs/architecture.md, Screens: nav bar, online-only pages, wide tables). A column given as `false`
 * is left out. A long list renders in slices after the first screen (`useRenderSlices`).
 */
export function RowTable<T extends { id: string }>({
  columns,
  rows,
  className,
}: {
  columns: readonly (Column<T> | false)[];
  rows: readonly T[];
  className?: string;
}) {
  const shown = columns.filter((column): column is Column<T> => column !== false);
  const numClass = (column: Column<T>) => (column.num ? 'num' : undefined);
  const slices = useRenderSlices<HTMLTableSectionElement>(rows.length);
  return (
    <>
      <table className={className ? `admin-table ${className}` : 'admin-table'}>
        <thead>
          <tr>
            {shown.map((column) => (
              <th key={column.header} className={numClass(column)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody ref={slices.listRef}>
          <SlicedItems items={rows} slices={slices} keyOf={(row) => row.id}>
            {(row) => (
              <tr>
                {shown.map((column) => (
                  <td key={column.header} className={numClass(column)}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            )}
          </SlicedItems>
        </tbody>
      </table>
      <SlicesRoom slices={slices} />
    </>
  );
}

/** The box a wide table scrolls sideways in on a phone, with a thin scrollbar that says so. */
export function TableScroll({ children }: { children: ReactNode }) {
  return <div className="admin-table-scroll">{children}</div>;
}

/** A row's buttons, side by side. */
export function RowActions({ children }: { children: ReactNode }) {
  return <div className="admin-actions">{children}</div>;
}
