import type { ReactNode } from 'react';
import type { Fold } from './useFold.js';

/**
 * The text of a foldable section's heading (`useFold`): on a phone a button that folds and opens
 * the section body (`controls`), otherwise the plain title; `badge` (an unread count) follows the title.
 */
export function FoldHeading({
  fold,
  id,
  controls,
  title,
  badge = null,
}: {
  fold: Fold;
  /** The title's id: the section is labelled by it. */
  id: string;
  controls: string;
  title: string;
  badge?: ReactNode;
}) {
  const text = (
    <>
      <span id={id}>{title}</span>
      {badge}
    </>
  );
  if (!fold.foldable) return text;
  return (
    <button type="button" className="fold-toggle" aria-expanded={!fold.folded} aria-controls={controls} onClick={fold.toggle}>
      {text}
    </button>
  );
}
