import { formatMoney } from '@fankurve/shared/rules/money';
import type { Language } from '@fankurve/shared';
import { isUpcoming, todayIn } from '@fankurve/shared/dates';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.js';
import { LocalRuleError, useSyncState } from '../../data/index.js';
import { formatEventDate, isoWallClock } from '../../i18n/eventDates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { removeRide } from './api.js';
import { cancelRide, useRides, type RideView } from './data.js';
import { RideForm } from './RideForm.js';
import { RideSeats, SeatsFree } from './RideSeats.js';
import './rides.css';

/** The server's reason when it gave one, or the rule the device refused by, else the screen's own sentence. */
function failureText(error: unknown, fallback: string): string {
  return isApiError(error) || error instanceof LocalRuleError ? errorText(error) : fallback;
}

interface Props {
  eventId: string;
  /** The event's date (the club's wall clock): a ride leaves at the latest then. */
  eventDate: string;
}

/**
 * The rides members offer to an event (docs/product.md, Rides), on its page, from the device's
 * database (offline too): soonest departure first, with driver, place and time, seats, the way back,
 * the suggested cost share and the note, the free seats and the asks for them (RideSeats). Every
 * member offers rides and changes and cancels their own on the device; an admin removes another
 * member's ride online.
 */
export function Rides({ eventId, eventDate }: Props) {
  const { t } = useTranslation();
  const user = useUser();
  const isAdmin = user.scope === 'admin';
  const online = useSyncState('online');
  const language = currentLanguage();
  const rides = useRides(eventId, user);
  const today = todayIn(useSiteConfig().time_zone);
  const past = !isUpcoming(eventDate, today);
  const headingId = useId();
  const [editing, setEditing] = useState<RideView | 'new' | null>(null);
  const [confirming, setConfirming] = useState<RideView | null>(null);
  const [busy, setBusy] = useState(false);
  const othersShown = isAdmin && (rides ?? []).some((ride) => !ride.own);

  async function confirm() {
    const ride = confirming;
    if (!ride) return;
    setBusy(true);
    try {
      if (ride.own) {
        await cancelRide(user.id, ride.id);
        toastSuccess(t(online ? 'rides.cancelled' : 'rides.cancelledOffline'));
      } else {
        await removeRide(ride.id);
        toastSuccess(t('rides.removed'));
      }
      setConfirming(null);
    } catch (error) {
      toastError(failureText(error, t(ride.own ? 'rides.cancelFailed' : 'rides.removeFailed')));
    } finally {
      setBusy(false);
    }
  }

  const driverOf = (ride: RideView) => ride.driver_name ?? t('rides.unknownDriver');

  return (
    <section className="card detail-card rides" aria-labelledby={headingId}>
      <div className="rides-head">
        <h2 id={headingId} className="card-title">
          {t('rides.heading')}
        </h2>
        {/* An event that is over takes no new ride and no change of one (docs/product.md, Rides). */}
        {past ? null : (
          <button type="button" className="button button-small button-ghost" onClick={() => setEditing('new')}>
            {t('rides.offer')}
          </button>
        )}
      </div>
      <p className="rides-intro">{t('rides.intro')}</p>
      {rides === undefined ? (
        <p className="muted">{t('common.loading')}</p>
      ) : rides.length === 0 ? (
        <p className="muted">{t('rides.none')}</p>
      ) : (
        <ul className="card-list rides-list">
          {rides.map((ride) => (
            <li key={ride.id}>
              <RideItem
                ride={ride}
                driver={driverOf(ride)}
                language={language}
                admin={isAdmin}
                online={online}
                onEdit={past ? undefined : () => setEditing(ride)}
                onCancel={() => setConfirming(ride)}
              >
                <RideSeats ride={ride} userId={user.id} past={past} today={today} />
              </RideItem>
            </li>
          ))}
        </ul>
      )}
      {othersShown && !online ? <small className="rides-hint">{t('rides.removeOffline')}</small> : null}
      {editing ? (
        <RideForm
          eventId={eventId}
          eventDate={eventDate}
          userId={user.id}
          ride={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={t(confirming.own ? 'rides.cancelTitle' : 'rides.removeTitle')}
          message={
            confirming.own
              ? t('rides.cancelText', { place: confirming.departure_location })
              : t('rides.removeText', { driver: driverOf(confirming), place: confirming.departure_location })
          }
          confirmLabel={t(confirming.own ? 'rides.cancel' : 'rides.remove')}
          busy={busy}
          onConfirm={() => void confirm()}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
    </section>
  );
}

interface ItemProps {
  ride: RideView;
  /** Its seats: the asks, the own ask, the ask for seats. */
  children: ReactNode;
  driver: string;
  language: Language;
  admin: boolean;
  online: boolean;
  /** Absent once the event is over. */
  onEdit?: () => void;
  /** The driver cancels it, or an admin removes another member's. */
  onCancel: () => void;
}

function RideItem({ ride, driver, language, admin, online, onEdit, onCancel, children }: ItemProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <article className={ride.own ? 'ride ride-own' : 'ride'} aria-labelledby={titleId}>
      <div className="ride-head">
        <h3 id={titleId} className="ride-driver">
          {driver}
          {ride.own ? <span className="badge badge-muted ride-yours">{t('rides.yours')}</span> : null}
        </h3>
        <SeatsFree ride={ride} />
      </div>
      <dl className="facts">
        <div>
          <dt>{t('rides.departureLocation')}</dt>
          <dd>{ride.departure_location}</dd>
        </div>
        <div>
          <dt>{t('rides.departureTime')}</dt>
          <dd>
            <time dateTime={isoWallClock(ride.departure_datetime)}>{formatEventDate(ride.departure_datetime, language)}</time>
          </dd>
        </div>
        <div>
          <dt>{t('rides.drivesBack')}</dt>
          <dd>{ride.drives_back ? t('rides.yes') : t('rides.no')}</dd>
        </div>
        {ride.cost_share_cents !== null ? (
          <div>
            <dt>{t('rides.costShare')}</dt>
            <dd>{t('rides.perSeat', { amount: formatMoney(ride.cost_share_cents, language) })}</dd>
          </div>
        ) : null}
        {ride.note ? (
          <div>
            <dt>{t('rides.note')}</dt>
            <dd className="ride-note">{ride.note}</dd>
          </div>
        ) : null}
      </dl>
      {children}
      {ride.own ? (
        <div className="ride-actions">
          {onEdit ? (
            <button type="button" className="button button-small button-ghost" onClick={onEdit}>
              {t('rides.edit')}
              <span className="sr-only"> {ride.departure_location}</span>
            </button>
          ) : null}
          <button type="button" className="button button-small button-danger-ghost" onClick={onCancel}>
            {t('rides.cancel')}
            <span className="sr-only"> {ride.departure_location}</span>
          </button>
        </div>
      ) : admin ? (
        <div className="ride-actions">
          <button type="button" className="button button-small button-danger-ghost" disabled={!online} onClick={onCancel}>
            {t('rides.remove')}
            <span className="sr-only">
              {' '}
              {driver}, {ride.departure_location}
            </span>
          </button>
        </div>
      ) : null}
    </article>
  );
}
