import { useId, type ReactNode } from 'react';
import { TableScroll } from '../../ui/RowTable.js';
import { useShownRows } from '../../ui/ShowMore.js';

/**
 * One list of tasks (/admin/tasks, the registrations on /users): its count in the heading, its first
 * rows, and "show more" for the rest (docs/product.md, Screens).
 */
export function TaskSection<T>({
  title,
  rows,
  children,
}: {
  title: string;
  rows: readonly T[];
  children: (shown: readonly T[]) => ReactNode;
}) {
  const id = useId();
  const { shown, more } = useShownRows(rows);
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>
        {title} <span className="badge badge-red">{rows.length}</span>
      </h2>
      <TableScroll>{children(shown)}</TableScroll>
      {more}
    </section>
  );
}
