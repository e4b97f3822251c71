import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/**
 * The way to /stats from other pages (docs/product.md, Statistics): the nav bar has no room for one
 * more admin link, so /allesfahrer links it inline and /profile as a card of its own.
 */
export function StatsLink({ variant }: { variant: 'inline' | 'card' }) {
  const { t } = useTranslation();
  const headingId = useId();
  if (variant === 'inline') {
    return (
      <Link to="/stats" className="stats-link">
        {t('stats.linkInline')}
      </Link>
    );
  }
  return (
    <section className="card profile-section stats-link-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('stats.title')}</h2>
      <p>{t('stats.linkText')}</p>
      <Link to="/stats" className="button button-secondary">
        {t('stats.link')}
      </Link>
    </section>
  );
}
