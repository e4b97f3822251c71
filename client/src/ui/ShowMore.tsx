import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** How many rows a long admin list shows at first and adds per "show more" (docs/product.md, Screens). */
export const ROWS_PER_PAGE = 50;

/**
 * The first rows of a long list and the button that shows the next ones: a club with hundreds of
 * open requests gets its page in one short task instead of one long table render.
 */
export function useShownRows<T>(rows: readonly T[], step = ROWS_PER_PAGE) {
  const [limit, setLimit] = useState(step);
  const shown = rows.length > limit ? rows.slice(0, limit) : rows;
  const hidden = rows.length - shown.length;
  const more =
    hidden > 0 ? <ShowMoreButton hidden={hidden} next={Math.min(step, hidden)} onClick={() => setLimit(limit + step)} /> : null;
  return { shown, more };
}

function ShowMoreButton({ hidden, next, onClick }: { hidden: number; next: number; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <p className="show-more">
      <button type="button" className="button button-secondary button-small" onClick={onClick}>
        {t('common.showMore', { count: next })}
      </button>
      <span className="muted">{t('common.moreHidden', { count: hidden })}</span>
    </p>
  );
}
