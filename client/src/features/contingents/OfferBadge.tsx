import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useOpenOffers } from '../../data/index.js';
import { useUser } from '../../session/session.js';

/**
 * The open offers of returned tickets in the nav bar (docs/product.md, Ticket contingents): a
 * member who lets one run out has declined it, so the bar says so on every page, offline too (the
 * offers are on the device), and leads to /my-tickets where they are answered. Hidden at 0. Its own
 * chunk (lazy from the nav bar): the shell does not load RxDB. Inside the folded menu's button it is
 * no link (`link` false).
 */
export default function OfferBadge({ link = true }: { link?: boolean }) {
  const { t } = useTranslation();
  const user = useUser();
  const offers = useOpenOffers(user.id);
  const count = offers?.filter((offer) => offer.response === null).length ?? 0;
  if (!count) return null;
  const label = t('contingents.offerBadge', { count });
  return link ? (
    <Link to="/my-tickets" className="badge badge-offer nav-badge nav-offer-badge" aria-label={label} title={label}>
      {t('contingents.offerBadgeShort', { count })}
    </Link>
  ) : (
    <span className="badge badge-offer nav-badge" aria-label={label}>
      {t('contingents.offerBadgeShort', { count })}
    </span>
  );
}
