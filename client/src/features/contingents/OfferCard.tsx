import { formatMoney } from '@fankurve/shared/rules/money';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { acceptOffer, declineOffer, type OfferView } from '../../data/index.js';
import { formatInstant } from '../../i18n/dates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { remainingText, useNow } from './useNow.js';

/**
 * A returned ticket offered to the member (or their guest), with a live countdown to the end of its
 * window and accept / decline. The answer is written on the device, offline too; until the server
 * has decided it the card says that it is on its way. After the window the card says it ran out.
 */
export function OfferCard({ offer, userId, showEvent }: { offer: OfferView; userId: string; showEvent: boolean }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const now = useNow();
  const [busy, setBusy] = useState(false);
  const [confirmingDecline, setConfirmingDecline] = useState(false);
  const expiresMs = Date.parse(offer.expires_at);
  const open = now < expiresMs;
  const title = offer.event_title ?? t('contingents.unknownEvent');

  async function answer(response: 'accept' | 'decline') {
    if (busy) return;
    setBusy(true);
    try {
      if (response === 'accept') await acceptOffer(userId, offer.id);
      else await declineOffer(userId, offer.id);
      toastSuccess(t(response === 'accept' ? 'contingents.acceptedToast' : 'contingents.declinedToast'));
      setConfirmingDecline(false);
    } catch (error) {
      toastError(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="card offer-card" data-offer={offer.id}>
      <div className="offer-head">
        <h3 className="offer-title">
          {showEvent ? (
            <Link to={`/events/${offer.event_id}`}>{t('contingents.offerFor', { title })}</Link>
          ) : (
            t('contingents.offerHere')
          )}
        </h3>
        <span className="offer-price">
          {offer.price_cents === null ? t('contingents.priceOpen') : formatMoney(offer.price_cents, language)}
        </span>
      </div>
      {offer.guest_name ? <p className="offer-guest">{t('contingents.offerForGuest', { name: offer.guest_name })}</p> : null}
      {offer.response !== null ? (
        <p className="offer-status notice" role="status">
          {t(offer.response === 'accept' ? 'contingents.acceptedPending' : 'contingents.declinedPending')}
        </p>
      ) : open ? (
        <p className="offer-countdown">
          <span>{t('contingents.remaining')}</span>{' '}
          <strong className="offer-timer" role="timer" aria-live="off">
            {remainingText(expiresMs, now)}
          </strong>{' '}
          <span className="muted">({t('contingents.until', { date: formatInstant(offer.expires_at, language) })})</span>
        </p>
      ) : (
        <p className="offer-status notice notice-warning">{t('contingents.expired')}</p>
      )}
      {offer.response === null ? (
        <div className="offer-actions">
          <button
            type="button"
            className="button button-primary button-small"
            disabled={busy || !open}
            onClick={() => void answer('accept')}
          >
            {t('contingents.accept')}
          </button>
          <button
            type="button"
            className="button button-ghost button-small"
            disabled={busy}
            onClick={() => setConfirmingDecline(true)}
          >
            {t('contingents.decline')}
          </button>
        </div>
      ) : null}
      {confirmingDecline ? (
        <ConfirmDialog
          title={t('contingents.declineTitle')}
          message={t('contingents.declineText')}
          confirmLabel={t('contingents.decline')}
          busy={busy}
          onConfirm={() => void answer('decline')}
          onCancel={() => setConfirmingDecline(false)}
        />
      ) : null}
    </li>
  );
}
