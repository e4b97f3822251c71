import {
  checkRequestDeadline,
  CONTINGENT_TICKETS_MAX,
  DEFAULT_OFFER_MINUTES,
  OFFER_MINUTES_MAX,
  PAYMENT_DAYS_MAX,
  type MessageCode,
  type RestContingent,
} from '@fankurve/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.js';
import { saveContingent } from '../../api/contingents.js';
import { errorText, messageText } from '../../i18n/index.js';
import { Modal } from '../../ui/Dialog.js';
import { Field } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';

type FieldName = 'tickets' | 'deadline' | 'paymentDays' | 'offerMinutes';

/** Which field a refusal of the server belongs to. */
const FIELD_OF: Partial<Record<MessageCode, FieldName>> = {
  contingentTicketsInvalid: 'tickets',
  contingentDeadlineInvalid: 'deadline',
  contingentDeadlineOutsideSeason: 'deadline',
  contingentPaymentDaysInvalid: 'paymentDays',
  contingentOfferMinutesInvalid: 'offerMinutes',
};

/** The offers' window is set in hours or days; minutes only for a window an API client set that way. */
const WINDOW_UNITS = { hours: 60, days: 1440, minutes: 1 } as const;
type WindowUnit = keyof typeof WINDOW_UNITS;

/** A window in minutes in the largest unit it fills whole: 1440 → 1 day, 180 → 3 hours. */
function windowOf(minutes: number): { amount: string; unit: WindowUnit } {
  if (minutes % 1440 === 0) return { amount: String(minutes / 1440), unit: 'days' };
  if (minutes % 60 === 0) return { amount: String(minutes / 60), unit: 'hours' };
  return { amount: String(minutes), unit: 'minutes' };
}

/** A whole number typed into a field, or null when it is none (a fraction, a sign, text). */
function wholeNumber(text: string): number | null {
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
}

/**
 * The admin's settings of an event's contingent (docs/product.md, Input rules): tickets, the
 * request deadline (empty: allocated at once; in the event's season, not after it, by the shared
 * rule `checkRequestDeadline`), days to pay (optional) and the offers' window in hours or days (sent
 * as `offer_minutes`).
 */
export function ContingentForm({
  eventId,
  eventDate,
  contingent,
  onClose,
}: {
  eventId: string;
  eventDate: string;
  contingent: RestContingent | null;
  onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation();
  const [tickets, setTickets] = useState(contingent ? String(contingent.tickets) : '');
  const [deadline, setDeadline] = useState(contingent?.request_deadline?.slice(0, 16).replace(' ', 'T') ?? '');
  const [paymentDays, setPaymentDays] = useState(contingent?.payment_days != null ? String(contingent.payment_days) : '');
  const initialWindow = windowOf(contingent?.offer_minutes ?? DEFAULT_OFFER_MINUTES);
  const [offerAmount, setOfferAmount] = useState(initialWindow.amount);
  const [offerUnit, setOfferUnit] = useState<WindowUnit>(initialWindow.unit);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Partial<Record<FieldName, string>> = {};
    const ticketCount = wholeNumber(tickets);
    if (ticketCount === null || ticketCount > CONTINGENT_TICKETS_MAX) found.tickets = messageText('contingentTicketsInvalid');
    let requestDeadline: string | null = null;
    if (deadline.trim() !== '') {
      const checked = checkRequestDeadline(deadline, eventDate);
      if (checked.ok) requestDeadline = checked.value;
      else found.deadline = messageText(checked.code);
    }
    const days = paymentDays.trim() === '' ? null : wholeNumber(paymentDays);
    if (paymentDays.trim() !== '' && (days === null || days < 1 || days > PAYMENT_DAYS_MAX))
      found.paymentDays = messageText('contingentPaymentDaysInvalid');
    const amount = wholeNumber(offerAmount);
    const minutes = amount === null ? null : amount * WINDOW_UNITS[offerUnit];
    if (minutes === null || minutes < 1 || minutes > OFFER_MINUTES_MAX) found.offerMinutes = t('contingents.offerWindowInvalid');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await saveContingent(eventId, {
        tickets: ticketCount!,
        request_deadline: requestDeadline,
        payment_days: days,
        offer_minutes: minutes!,
      });
      toastSuccess(t('contingents.saved'));
      onClose(true);
    } catch (error) {
      const field = isApiError(error) && error.code ? FIELD_OF[error.code as MessageCode] : undefined;
      if (field) setErrors({ [field]: errorText(error) });
      else toastError(errorText(error));
      setSaving(false);
    }
  }

  return (
    <Modal
      title={t(contingent ? 'contingents.editTitle' : 'contingents.createTitle')}
      onClose={() => onClose(false)}
      busy={saving}
    >
      <form className="form contingent-form" noValidate onSubmit={(event) => void submit(event)}>
        <Field
          label={t('contingents.fieldTickets')}
          name="tickets"
          inputMode="numeric"
          value={tickets}
          onChange={(event) => setTickets(event.target.value)}
          required
          error={errors.tickets}
        />
        <Field
          label={t('contingents.fieldDeadline')}
          optional={t('contingents.optional')}
          name="request_deadline"
          type="datetime-local"
          value={deadline}
          onChange={(event) => setDeadline(event.target.value)}
          hint={t('contingents.deadlineHint')}
          error={errors.deadline}
        />
        <Field
          label={t('contingents.fieldPaymentDays')}
          optional={t('contingents.optional')}
          name="payment_days"
          inputMode="numeric"
          value={paymentDays}
          onChange={(event) => setPaymentDays(event.target.value)}
          error={errors.paymentDays}
        />
        <div className="contingent-window">
          <Field
            label={t('contingents.fieldOfferWindow')}
            name="offer_window"
            inputMode="numeric"
            value={offerAmount}
            onChange={(event) => setOfferAmount(event.target.value)}
            hint={t('contingents.offerWindowHint')}
            error={errors.offerMinutes}
          />
          <Field label={t('contingents.fieldOfferUnit')}>
            {(control) => (
              <select
                {...control}
                name="offer_unit"
                value={offerUnit}
                onChange={(event) => setOfferUnit(event.target.value as WindowUnit)}
              >
                <option value="hours">{t('contingents.unitHours')}</option>
                <option value="days">{t('contingents.unitDays')}</option>
                {offerUnit === 'minutes' ? <option value="minutes">{t('contingents.unitMinutes')}</option> : null}
              </select>
            )}
          </Field>
        </div>
        <div className="modal-actions">
          <button type="button" className="button button-ghost" disabled={saving} onClick={() => onClose(false)}>
            {t('contingents.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {t(saving ? 'contingents.saving' : 'contingents.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
