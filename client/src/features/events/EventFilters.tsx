import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { WHERE_VALUES, type EventFilters as Filters, type Where } from './filters.js';

interface Props {
  seasons: readonly string[];
  filters: Filters;
  onChange: (next: Partial<Filters>) => void;
}

const WHERE_KEYS: Record<Where, 'events.whereAway' | 'events.whereHome' | 'events.whereAll'> = {
  away: 'events.whereAway',
  home: 'events.whereHome',
  all: 'events.whereAll',
};

/** The season selector (only with several seasons) and the away / home / all filter (docs/product.md, Screens). */
export function EventFilters({ seasons, filters, onChange }: Props) {
  const { t } = useTranslation();
  const seasonId = useId();
  return (
    <div className="event-filters">
      {seasons.length > 1 ? (
        <div className="season-select">
          <label htmlFor={seasonId}>{t('events.season')}</label>
          <select id={seasonId} value={filters.season ?? ''} onChange={(event) => onChange({ season: event.target.value })}>
            {seasons.map((season) => (
              <option key={season} value={season}>
                {season}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="segmented" role="group" aria-label={t('events.whereLabel')}>
        {WHERE_VALUES.map((where) => (
          <button
            key={where}
            type="button"
            className="segment"
            aria-pressed={filters.where === where}
            onClick={() => onChange({ where })}
          >
            {t(WHERE_KEYS[where])}
          </button>
        ))}
      </div>
    </div>
  );
}
