import { startTransition, useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/** Cards or rows a phone's first screen holds: the first slice renders with the page. */
const FIRST_SLICE = 12;
/** Cards or rows added per task after the first paint. */
const SLICE = 20;

/** A long list rendered in slices: how many items to render now, and the room the others hold. */
export interface Slices<E extends HTMLElement = HTMLElement> {
  rendered: number;
  /** On the element that holds the rendered items (a list or a table body). */
  listRef: RefObject<E | null>;
  /** On the `SlicesRoom` right after that element. */
  roomRef: RefObject<HTMLDivElement | null>;
}

/**
 * A long list of `total` items in slices: the first `first` render with the page, then `SLICE` more
 * in each following task (a transition, so React renders them in slices too) until all are there. A
 * list of a hundred cards or rows is never one long task, and the first screen paints before the
 * rest is built (docs/architecture.md, Loading).
 *
 * While items are missing, the list's `SlicesRoom` holds the height they will take (the rendered
 * items' average height each), so what follows the list stays where it is as the slices arrive:
 * no layout shift.
 */
export function useRenderSlices<E extends HTMLElement = HTMLElement>(total: number, first = FIRST_SLICE): Slices<E> {
  const [shown, setShown] = useState(first);
  const listRef = useRef<E | null>(null);
  const roomRef = useRef<HTMLDivElement | null>(null);
  const rendered = Math.min(shown, total);
  useEffect(() => {
    if (shown >= total) return;
    const timer = setTimeout(() => startTransition(() => setShown((n) => n + SLICE)), 0);
    return () => clearTimeout(timer);
  }, [shown, total]);
  // The room is sized by a ResizeObserver on the list, which the browser calls after its own
  // layout and before painting: no forced layout in the slice's task, and no frame painted with
  // the old room.
  useLayoutEffect(() => {
    const list = listRef.current;
    const room = roomRef.current;
    if (!room) return;
    const missing = total - rendered;
    if (missing <= 0 || rendered === 0 || !list) {
      room.style.height = '';
      return;
    }
    const observer = new ResizeObserver(([entry]) => {
      const height = entry?.borderBoxSize?.[0]?.blockSize ?? entry?.contentRect.height ?? 0;
      room.style.height = `${Math.round((height / rendered) * missing)}px`;
    });
    observer.observe(list);
    return () => observer.disconnect();
  }, [rendered, total]);
  return { rendered, listRef, roomRef };
}

/** The room a sliced list's missing items hold, placed right after the list (see `useRenderSlices`). */
export function SlicesRoom({ slices }: { slices: Slices<HTMLElement> }) {
  return <div ref={slices.roomRef} className="slices-room" aria-hidden="true" />;
}

/**
 * The rendered items of a sliced list, each a component of its own: React can pause between items
 * while it renders a transition (a new slice, a query's new result). A list drawn by one component
 * is one piece of work it cannot split: a table of a hundred rows was one task of 120–160 ms on a
 * phone (docs/architecture.md, Loading).
 */
export function SlicedItems<T>({
  items,
  slices,
  keyOf,
  children,
}: {
  items: readonly T[];
  slices: Slices<HTMLElement>;
  keyOf: (item: T) => string;
  children: (item: T, index: number) => ReactNode;
}) {
  return items
    .slice(0, slices.rendered)
    .map((item, index) => <SliceItem key={keyOf(item)} render={() => children(item, index)} />);
}

function SliceItem({ render }: { render: () => ReactNode }) {
  return render();
}
