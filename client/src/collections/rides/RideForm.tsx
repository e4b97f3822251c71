import {
  RIDE_COST_SHARE_MAX_CENTS,
  RIDE_NOTE_MAX_LENGTH,
  RIDE_PLACE_MAX_LENGTH,
  RIDE_SEATS_MAX,
  RIDE_SEATS_MIN,
} from '@fankurve/shared/collections/rides/collection';
import { freeTextProblem } from '@fankurve/shared/rules/freeText';
import { centsToInputText, checkEuros, formatMoney } from '@fankurve/shared/rules/money';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LocalRuleError, useSyncState } from '../../data/index.js';
import { formatEventDate, isoWallClock } from '../../i18n/eventDates.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { Modal } from '../../ui/Dialog.js';
import { Field, FormError } from '../../ui/Field.js';
import { MoneyField } from '../../ui/MoneyField.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { changeRide, offerRide, type RideView } from './data.js';

interface Props {
  eventId: string;
  /** The event's date (the club's wall clock): a ride leaves at the latest then. */
  eventDate: string;
  userId: string;
  /** The member's own ride to change; null for a new offer. */
  ride: RideView | null;
  onClose: () => void;
}

type FieldName = 'seats' | 'location' | 'time' | 'costShare' | 'note';
type Errors = Partial<Record<FieldName, string>>;

/** Which field a refusal of the shared rule (`checkRide`) is about; the others show under the form. */
const FIELD_OF: Record<string, FieldName> = {
  rideSeatsInvalid: 'seats',
  rideSeatsBelowTaken: 'seats',
  rideLocationRequired: 'location',
  departureInvalid: 'time',
  dateOutOfRange: 'time',
  rideDepartsAfterEvent: 'time',
  rideCostShareInvalid: 'costShare',
};

const SEAT_CHOICES = Array.from({ length: RIDE_SEATS_MAX - RIDE_SEATS_MIN + 1 }, (_, index) => RIDE_SEATS_MIN + index);

/**
 * The driver's form for their ride (docs/product.md, Rides): seats, where and when it leaves (not
 * after the event starts), whether they drive back, a suggested cost share per seat and a note.
 * Saved on the device, offline too; the shared rule checks it there and the server again.
 */
export function RideForm({ eventId, eventDate, userId, ride, onClose }: Props) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const online = useSyncState('online');
  const [seats, setSeats] = useState(ride?.seats ?? 3);
  const [location, setLocation] = useState(ride?.departure_location ?? '');
  const [time, setTime] = useState(ride ? isoWallClock(ride.departure_datetime) : '');
  const [drivesBack, setDrivesBack] = useState(ride?.drives_back ?? true);
  const [costShare, setCostShare] = useState(ride?.cost_share_cents == null ? '' : centsToInputText(ride.cost_share_cents));
  const [note, setNote] = useState(ride?.note ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setFormError(null);
    // The texts' characters and the amount as typed, each under its field; the rest is checkRide's (the write's).
    const found: Errors = {};
    const placeProblem = freeTextProblem(location.trim(), 'line');
    if (placeProblem) found.location = messageText(placeProblem);
    const noteProblem = freeTextProblem(note.trim(), 'multiline');
    if (noteProblem) found.note = messageText(noteProblem);
    let cents: number | null = null;
    if (costShare.trim()) {
      const checked = checkEuros(costShare);
      if (checked.ok) cents = checked.value;
      else found.costShare = messageText(checked.code);
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const input = {
      seats,
      departure_location: location,
      departure_datetime: time,
      drives_back: drivesBack,
      note: note.trim() ? note : null,
      cost_share_cents: cents,
    };
    setSaving(true);
    try {
      if (ride) await changeRide(userId, ride.id, input);
      else await offerRide(userId, eventId, input);
      toastSuccess(online ? t(ride ? 'rides.saved' : 'rides.offered') : t('rides.savedOffline'));
      onClose();
    } catch (error) {
      setSaving(false);
      if (!(error instanceof LocalRuleError)) {
        toastError(t('rides.saveFailed'));
        return;
      }
      const field = FIELD_OF[error.code];
      if (field) setErrors({ [field]: errorText(error) });
      else setFormError(errorText(error));
    }
  }

  return (
    <Modal title={t(ride ? 'rides.editTitle' : 'rides.newTitle')} onClose={onClose} busy={saving}>
      <form className="form ride-form" noValidate onSubmit={(event) => void submit(event)}>
        <div className="field-row field-row-end">
          <Field label={t('rides.fieldSeats')} error={errors.seats}>
            {(control) => (
              <select {...control} name="seats" value={seats} onChange={(event) => setSeats(Number(event.target.value))}>
                {SEAT_CHOICES.map((count) => (
                  <option key={count} value={count}>
                    {count}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <label className="check ride-form-back">
            <input
              type="checkbox"
              name="drives_back"
              checked={drivesBack}
              onChange={(event) => setDrivesBack(event.target.checked)}
            />
            {t('rides.fieldDrivesBack')}
          </label>
        </div>
        <Field
          label={t('rides.fieldLocation')}
          name="departure_location"
          value={location}
          onChange={(event) => setLocation(event.target.value)}
          maxLength={RIDE_PLACE_MAX_LENGTH}
          required
          autoComplete="off"
          error={errors.location}
        />
        <Field
          label={t('rides.fieldTime')}
          name="departure_datetime"
          type="datetime-local"
          // Any minute: a departure is kept as entered.
          step={60}
          max={isoWallClock(eventDate)}
          value={time}
          onChange={(event) => setTime(event.target.value)}
          required
          hint={t('rides.fieldTimeHint', { date: formatEventDate(eventDate, language) })}
          error={errors.time}
        />
        <MoneyField
          label={t('rides.fieldCostShare')}
          optional={t('rides.optional')}
          name="cost_share"
          value={costShare}
          onValueChange={setCostShare}
          tidy
          hint={t('rides.fieldCostShareHint', { max: formatMoney(RIDE_COST_SHARE_MAX_CENTS, language) })}
          error={errors.costShare}
        />
        <Field
          label={t('rides.fieldNote')}
          optional={t('rides.optional')}
          hint={t('rides.limitHint', { max: RIDE_NOTE_MAX_LENGTH })}
          error={errors.note}
        >
          {(control) => (
            <textarea
              {...control}
              name="note"
              value={note}
              onChange={(event) => setNote(event.target.value)}
              maxLength={RIDE_NOTE_MAX_LENGTH}
              rows={3}
            />
          )}
        </Field>
        <FormError message={formError} />
        {online ? null : <p className="offline-hint">{t('rides.offlineHint')}</p>}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? t('rides.saving') : t(ride ? 'rides.submitEdit' : 'rides.submitNew')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
