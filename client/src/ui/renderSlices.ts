import { startTransition, useEffect, useState } from 'react';

/** Cards or rows a phone's first screen holds: the first slice renders with the page. */
const FIRST_SLICE = 12;
/** Cards or rows added per task after the first paint. */
const SLICE = 20;

/**
 * How many of a long list's `total` items to render now: the first `first` with the page, then
 * `SLICE` more in each following task (a transition, so React renders them in slices too) until all
 * are there. A list of a hundred cards or rows is never one long task, and the first screen paints
 * before the rest is built (docs/architecture.md, Loading).
 */
export function useRenderSlices(total: number, first = FIRST_SLICE): number {
  const [shown, setShown] = useState(first);
  useEffect(() => {
    if (shown >= total) return;
    const timer = setTimeout(() => startTransition(() => setShown((n) => n + SLICE)), 0);
    return () => clearTimeout(timer);
  }, [shown, total]);
  return Math.min(shown, total);
}
