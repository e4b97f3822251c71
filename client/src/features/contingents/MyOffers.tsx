import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { OfferView } from '../../data/index.js';
import { OfferCard } from './OfferCard.js';
import './contingents.css';

/**
 * /my-tickets: the member's open offers of returned tickets with their countdown, from the device
 * (offline too; the page reads them with `useOpenOffers`, so its sections show together).
 */
export function MyOffers({ offers, userId }: { offers: OfferView[]; userId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  if (offers.length === 0) return null;
  return (
    <section className="ticket-list my-offers" aria-labelledby={headingId}>
      <h2 id={headingId} className="section-title">
        {t('contingents.offersHeading')} <span className="badge badge-amber">{offers.length}</span>
      </h2>
      <ul className="plain-list offer-list">
        {offers.map((offer) => (
          <OfferCard key={offer.id} offer={offer} userId={userId} showEvent />
        ))}
      </ul>
    </section>
  );
}
