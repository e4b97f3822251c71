import { freeSeats } from '@fankurve/shared/collections/rides/rules';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatEventDate, isoWallClock } from '../../i18n/eventDates.js';
import { currentLanguage } from '../../i18n/index.js';
import type { MyRide } from './data.js';
import './rides.css';

/**
 * The member's rides to upcoming events on /my-tickets (docs/product.md, Rides), from the device:
 * those they drive (seats taken and free, asks waiting) and those they asked for (the ride, its
 * driver, departure and the ask's state), each opening its event. The page reads them with
 * `useMyRides`, so its sections show together.
 */
export function MyRides({ rides }: { rides: MyRide[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section className="ticket-list my-rides" aria-labelledby={headingId} data-list="rides">
      <h2 id={headingId} className="section-title">
        {t('rides.myRidesHeading')} <span className="badge badge-muted">{rides.length}</span>
      </h2>
      {rides.length === 0 ? (
        <p className="muted">{t('rides.myRidesNone')}</p>
      ) : (
        <ul className="plain-list my-ride-items">
          {rides.map((item) => (
            <MyRideItem key={item.ride.id} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

function MyRideItem({ item: { ride, event, ask } }: { item: MyRide }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const waiting = ride.asks.filter((a) => a.state === 'asked').length;
  return (
    <li className={ride.own ? 'ride ride-own my-ride' : 'ride my-ride'}>
      <div className="ride-head">
        <Link to={`/events/${encodeURIComponent(event.id)}`} className="ride-driver">
          {event.title}
        </Link>
        <span className="badge badge-muted">{t(ride.own ? 'rides.asDriver' : 'rides.asPassenger')}</span>
      </div>
      <p className="ride-ask-line">
        <span>{ride.departure_location}</span>
        <time dateTime={isoWallClock(ride.departure_datetime)}>{formatEventDate(ride.departure_datetime, language)}</time>
      </p>
      {ride.own ? (
        <p className="ride-ask-line">
          <span className="ride-seats">
            {t('rides.seatsFree', { free: freeSeats({ seats: ride.seats, seats_taken: ride.taken }), count: ride.seats })}
          </span>
          {waiting > 0 ? <span className="badge badge-amber">{t('rides.waiting', { count: waiting })}</span> : null}
        </p>
      ) : ask ? (
        <p className="ride-ask-line">
          <span>{t('rides.withDriver', { driver: ride.driver_name ?? t('rides.unknownDriver') })}</span>
          <span>{t('rides.askSeats', { count: ask.seats })}</span>
          <span className={`badge ride-state ride-state-${ask.state}`}>{t(`rides.state.${ask.state}`)}</span>
        </p>
      ) : null}
    </li>
  );
}
