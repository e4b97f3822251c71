import { useState, useSyncExternalStore } from 'react';

/** A phone's width: below it the news and polls above the events list start folded (docs/product.md, Screens). */
const NARROW = '(max-width: 639px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function isNarrow(): boolean {
  return window.matchMedia(NARROW).matches;
}

/**
 * A section that starts folded on a phone, so the next match shows on the first screen, and open on
 * a wider screen; once the member opens or folds it, their choice holds while the page is shown.
 */
export interface Fold {
  foldable: boolean;
  folded: boolean;
  toggle: () => void;
}

export function useFold(enabled = true): Fold {
  const narrow = useSyncExternalStore(subscribe, isNarrow, () => false);
  const [open, setOpen] = useState<boolean | null>(null);
  const foldable = enabled && narrow;
  const folded = foldable && !(open ?? false);
  return { foldable, folded, toggle: () => setOpen(folded) };
}
