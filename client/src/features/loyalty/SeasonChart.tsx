import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyLoyalty } from '../../api/loyalty.js';

const HEIGHT = 180;
const TOP = 22;
const BOTTOM = 26;
/** Room per season: the label `2025/26` fits under its bar at the chart's smallest size. */
const SLOT = 64;
const MIN_WIDTH = 320;

/**
 * The member's away matches per season as a bar chart drawn by hand (oldest left): the counted
 * seasons in the theme colour, older ones muted. The SVG scales to the width it gets; it is one
 * image for screen readers, named by its title and described by the numbers as text.
 */
export function SeasonChart({ seasons }: { seasons: MyLoyalty['seasons'] }) {
  const { t } = useTranslation();
  const titleId = useId();
  const descId = useId();
  const shown = [...seasons].reverse();
  const width = Math.max(MIN_WIDTH, shown.length * SLOT);
  const slot = width / Math.max(1, shown.length);
  const barWidth = Math.min(36, slot * 0.6);
  const highest = Math.max(1, ...shown.map((season) => season.away_matches));
  const room = HEIGHT - TOP - BOTTOM;
  const list = shown.map((season) => `${season.season}: ${season.away_matches}`).join(', ');
  const counted = shown
    .filter((season) => season.counted)
    .map((season) => season.season)
    .join(', ');

  return (
    <figure className="season-chart" data-testid="season-chart">
      <svg
        viewBox={`0 0 ${width} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={titleId}>{t('loyalty.chartTitle')}</title>
        <desc id={descId}>{t('loyalty.chartDescription', { list, counted })}</desc>
        <line className="season-chart-axis" x1={0} x2={width} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} />
        {shown.map((season, index) => {
          const height = (season.away_matches / highest) * room;
          const x = index * slot + (slot - barWidth) / 2;
          const y = HEIGHT - BOTTOM - height;
          const centre = index * slot + slot / 2;
          return (
            <g key={season.season} className={season.counted ? 'season-bar counted' : 'season-bar'}>
              <rect x={x} y={y} width={barWidth} height={Math.max(height, 0)} rx={3} />
              <text className="season-chart-value" x={centre} y={y - 6} textAnchor="middle">
                {season.away_matches}
              </text>
              <text className="season-chart-label" x={centre} y={HEIGHT - 8} textAnchor="middle">
                {season.season}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="season-chart-legend">
        <span className="season-chart-key counted" aria-hidden="true" />
        {t('loyalty.chartLegendCounted')}
        <span className="season-chart-key" aria-hidden="true" />
        {t('loyalty.chartLegendOlder')}
      </figcaption>
    </figure>
  );
}
