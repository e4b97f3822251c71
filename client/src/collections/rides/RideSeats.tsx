import { RIDE_SEAT_NOTE_MAX_LENGTH, type RideSeatAnswer } from '@fankurve/shared/collections/rides/collection';
import { freeSeats } from '@fankurve/shared/collections/rides/rules';
import { freeTextProblem } from '@fankurve/shared/rules/freeText';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LocalRuleError, useSyncState } from '../../data/index.js';
import { errorText, messageText } from '../../i18n/index.js';
import { ConfirmDialog, Modal } from '../../ui/Dialog.js';
import { Field, FormError } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { answerSeat, askSeat, cancelSeat, type RideSeatView, type RideView } from './data.js';

/*
 * The seats of a ride on the event's page (docs/product.md, Rides): the driver's asks with accept and
 * decline, a member's own ask with its state and cancel, the fellow passengers once accepted, and the
 * ask for seats. Written on the device, offline too; the server decides when the change arrives.
 */

const failure = (error: unknown, fallback: string) => (error instanceof LocalRuleError ? errorText(error) : fallback);

/** Free seats as the device knows them: "2 von 3 Plätzen frei". */
export function SeatsFree({ ride }: { ride: RideView }) {
  const { t } = useTranslation();
  const free = freeSeats({ seats: ride.seats, seats_taken: ride.taken });
  return (
    <span className={free === 0 ? 'ride-seats ride-full' : 'ride-seats'}>
      {t('rides.seatsFree', { free, count: ride.seats })}
    </span>
  );
}

interface Props {
  ride: RideView;
  userId: string;
  /** The event is past: nobody asks any more. */
  past: boolean;
  /** The club's calendar day (what is past). */
  today: string;
}

/** Below a ride's facts: what the member may see and do with its seats. */
export function RideSeats({ ride, userId, past, today }: Props) {
  const { t } = useTranslation();
  const online = useSyncState('online');
  const [asking, setAsking] = useState(false);
  const [cancelling, setCancelling] = useState<RideSeatView | null>(null);
  const [busy, setBusy] = useState(false);
  const own = ride.asks.find((ask) => ask.own) ?? null;
  const name = (ask: RideSeatView) => ask.passenger_name ?? t('rides.unknownDriver');

  async function answer(ask: RideSeatView, state: RideSeatAnswer) {
    try {
      await answerSeat(userId, ask.id, state);
      toastSuccess(t(state === 'accepted' ? 'rides.askAccepted' : 'rides.askDeclined', { name: name(ask) }));
    } catch (error) {
      toastError(failure(error, t('rides.answerFailed')));
    }
  }

  async function confirmCancel() {
    if (!cancelling) return;
    setBusy(true);
    try {
      await cancelSeat(userId, cancelling.id);
      toastSuccess(t(online ? 'rides.askCancelled' : 'rides.askCancelledOffline'));
      setCancelling(null);
    } catch (error) {
      toastError(failure(error, t('rides.askCancelFailed')));
    } finally {
      setBusy(false);
    }
  }

  if (ride.own) {
    if (ride.asks.length === 0) return null;
    return (
      <div className="ride-asks">
        <h4 className="ride-asks-title">{t('rides.asksTitle')}</h4>
        <ul className="ride-ask-list">
          {ride.asks.map((ask) => (
            <li key={ask.id} className={`ride-ask ride-ask-${ask.state}`}>
              <div className="ride-ask-line">
                <strong className="ride-ask-name">{name(ask)}</strong>
                <span>{t('rides.askSeats', { count: ask.seats })}</span>
                <span className={`badge ride-state ride-state-${ask.state}`}>{t(`rides.state.${ask.state}`)}</span>
              </div>
              {ask.note ? <p className="ride-ask-note">{ask.note}</p> : null}
              {ask.state === 'declined' ? null : (
                <div className="ride-actions">
                  {ask.state === 'asked' ? (
                    <button
                      type="button"
                      className="button button-small button-primary"
                      onClick={() => void answer(ask, 'accepted')}
                    >
                      {t('rides.accept')}
                      <span className="sr-only"> {name(ask)}</span>
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="button button-small button-danger-ghost"
                    onClick={() => void answer(ask, 'declined')}
                  >
                    {t('rides.decline')}
                    <span className="sr-only"> {name(ask)}</span>
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      </div>
    );
  }

  const fellows = own?.state === 'accepted' ? ride.asks.filter((ask) => !ask.own && ask.state === 'accepted') : [];
  const free = freeSeats({ seats: ride.seats, seats_taken: ride.taken });
  return (
    <div className="ride-asks">
      {own ? (
        <div className="ride-own-ask">
          <p className="ride-ask-line">
            <span>{t('rides.yourAsk', { count: own.seats })}</span>
            <span className={`badge ride-state ride-state-${own.state}`}>{t(`rides.state.${own.state}`)}</span>
            {own.seq === 0 ? <span className="muted">{t('rides.askWaiting')}</span> : null}
          </p>
          {fellows.length > 0 ? (
            <p className="ride-fellows">{t('rides.fellows', { names: fellows.map(name).join(', ') })}</p>
          ) : null}
          <div className="ride-actions">
            <button type="button" className="button button-small button-danger-ghost" onClick={() => setCancelling(own)}>
              {t('rides.cancelAsk')}
            </button>
          </div>
        </div>
      ) : past ? null : (
        <div className="ride-actions">
          <button
            type="button"
            className="button button-small button-secondary"
            disabled={free === 0}
            onClick={() => setAsking(true)}
          >
            {free === 0 ? t('rides.full') : t('rides.askSeat')}
            <span className="sr-only">
              {' '}
              {ride.driver_name ?? ''}, {ride.departure_location}
            </span>
          </button>
        </div>
      )}
      {asking ? <AskForm ride={ride} userId={userId} today={today} onClose={() => setAsking(false)} /> : null}
      {cancelling ? (
        <ConfirmDialog
          title={t('rides.cancelAskTitle')}
          message={t('rides.cancelAskText', { driver: ride.driver_name ?? t('rides.unknownDriver') })}
          confirmLabel={t('rides.cancelAsk')}
          busy={busy}
          onConfirm={() => void confirmCancel()}
          onCancel={() => setCancelling(null)}
        />
      ) : null}
    </div>
  );
}

/** Which field a refusal of the shared rules is about; the others show under the form. */
const FIELD_OF: Record<string, 'seats' | 'note'> = {
  rideSeatsAskedInvalid: 'seats',
  rideFull: 'seats',
  textHasControlCharacters: 'note',
};

function AskForm({ ride, userId, today, onClose }: { ride: RideView; userId: string; today: string; onClose: () => void }) {
  const { t } = useTranslation();
  const online = useSyncState('online');
  const free = freeSeats({ seats: ride.seats, seats_taken: ride.taken });
  const [seats, setSeats] = useState(1);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ seats?: string; note?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setFormError(null);
    const problem = freeTextProblem(note.trim(), 'line');
    if (problem) {
      setErrors({ note: messageText(problem) });
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await askSeat(userId, ride.id, { seats, note: note.trim() || null }, today);
      toastSuccess(t(online ? 'rides.asked' : 'rides.askedOffline'));
      onClose();
    } catch (error) {
      setSaving(false);
      if (!(error instanceof LocalRuleError)) {
        toastError(t('rides.askFailed'));
        return;
      }
      const field = FIELD_OF[error.code];
      if (field) setErrors({ [field]: errorText(error) });
      else setFormError(errorText(error));
    }
  }

  return (
    <Modal
      title={t('rides.askTitle', { driver: ride.driver_name ?? t('rides.unknownDriver') })}
      onClose={onClose}
      busy={saving}
      size="small"
    >
      <form className="form ride-form" noValidate onSubmit={(event) => void submit(event)}>
        <Field label={t('rides.fieldAskSeats')} error={errors.seats} hint={t('rides.seatsFree', { free, count: ride.seats })}>
          {(control) => (
            <select {...control} name="seats" value={seats} onChange={(event) => setSeats(Number(event.target.value))}>
              {Array.from({ length: Math.max(1, free) }, (_, index) => index + 1).map((count) => (
                <option key={count} value={count}>
                  {count}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label={t('rides.fieldAskNote')}
          optional={t('rides.optional')}
          name="note"
          value={note}
          onChange={(event) => setNote(event.target.value)}
          maxLength={RIDE_SEAT_NOTE_MAX_LENGTH}
          autoComplete="off"
          hint={t('rides.limitHint', { max: RIDE_SEAT_NOTE_MAX_LENGTH })}
          error={errors.note}
        />
        <FormError message={formError} />
        {online ? null : <p className="offline-hint">{t('rides.askOfflineHint')}</p>}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? t('rides.saving') : t('rides.submitAsk')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
