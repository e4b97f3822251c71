import { checkPriceChange, CLUB_CASH_DESK, type EventDoc, type MemberDoc, type Scope } from '@fankurve/shared';
import { formatMoney } from '@fankurve/shared/rules/money';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getContingent } from '../../api/contingents.js';
import { fetchStadiums, updateEvent, type StadiumOption } from '../../api/eventDetail.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { shownName } from '../../i18n/memberNames.js';
import { Field, FormError } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { EventTimeFields } from '../events/index.js';
import { MoneyField } from '../../ui/MoneyField.js';
import { pickableMembers } from './attendeeTable.js';
import { eventFormOf, eventUpdateOf, type EventForm } from './eventForm.js';
import { SaveCancel } from './SaveCancel.js';

interface Props {
  event: EventDoc;
  members: readonly MemberDoc[];
  /** The editor's role, for the shared rule `checkPriceChange`. */
  scope: Scope;
  /** A ticket of the event is bought (the device's rows). */
  hasBoughtTickets: boolean;
  online: boolean;
  onDone: () => void;
}

/**
 * Whether the event has a ticket contingent, read online (the form is online-only) and only where
 * it decides something: an admin's price is never locked. Undefined while it is asked; a failed
 * question counts as none (the server still refuses, with its reason).
 */
function useHasContingent(eventId: string, ask: boolean): boolean | undefined {
  const [has, setHas] = useState<boolean | undefined>(ask ? undefined : false);
  useEffect(() => {
    if (!ask) return;
    let cancelled = false;
    getContingent(eventId).then(
      (answer) => {
        if (!cancelled) setHas(answer.contingent !== null);
      },
      (failure: unknown) => {
        if (cancelled) return;
        console.warn('Could not read the contingent', failure);
        setHas(false);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [eventId, ask]);
  return has;
}

/**
 * The event's fields edited in place (creator or admin): the shared rules, PUT /api/events/{id}.
 * Once the event has a ticket contingent or a bought ticket, its ticket price and stadium are the
 * admins' (`checkPriceChange`, docs/product.md, Roles and permissions): a creator sees them read-only
 * with the reason, and the form leaves them out of what it sends.
 */
export function EventEditForm({ event, members, scope, hasBoughtTickets, online, onDone }: Props) {
  const { t } = useTranslation();
  const [form, setForm] = useState<EventForm>(() => eventFormOf(event));
  const hasContingent = useHasContingent(event.id, scope !== 'admin' && !hasBoughtTickets);
  // Until the answer is in, the price is not offered: better shown late than refused after typing.
  const priceLocked = hasContingent === undefined || !checkPriceChange({ scope }, hasBoughtTickets || hasContingent).ok;
  const [stadiums, setStadiums] = useState<StadiumOption[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchStadiums()
      .then((answer) => {
        if (!controller.signal.aborted) setStadiums(answer.stadiums);
      })
      .catch((failure: unknown) => {
        // The list is a convenience: without it the current stadium stays selectable.
        if (!controller.signal.aborted) console.warn('Could not load stadiums', failure);
      });
    return () => controller.abort();
  }, []);

  const set = <K extends keyof EventForm>(key: K, value: EventForm[K]) => setForm((current) => ({ ...current, [key]: value }));

  async function submit(submitEvent: FormEvent) {
    submitEvent.preventDefault();
    const result = eventUpdateOf(form);
    if (!result.ok) {
      setError('deadline' in result ? messageText(result.deadline) : t(`eventDetail.validation.${result.error}`));
      return;
    }
    setError(null);
    setSaving(true);
    try {
      const { stadium_id, ticket_price, ...others } = result.body;
      await updateEvent(event.id, priceLocked ? others : { ...others, stadium_id, ticket_price });
      toastSuccess(t('eventDetail.eventSaved'));
      onDone();
    } catch (failure) {
      toastError(errorText(failure, 'errors.updateEventFailed'));
      setSaving(false);
    }
  }

  const stadiumChoices: StadiumOption[] = stadiums ? [...stadiums] : [];
  if (event.stadium_id && !stadiumChoices.some((stadium) => stadium.id === event.stadium_id))
    stadiumChoices.unshift({ id: event.stadium_id, stadium_name: event.stadium_name ?? event.stadium_id });

  return (
    <form className="form event-edit-form" onSubmit={(e) => void submit(e)} noValidate>
      <h1 id="event-edit-title" className="detail-title">
        {t('eventDetail.editEventTitle')}
      </h1>
      <Field label={t('eventDetail.fieldTitle')} value={form.title} required onChange={(e) => set('title', e.target.value)} />
      <EventTimeFields
        date={form.day}
        hour={form.hour}
        minute={form.minute}
        onChange={(part, value) => set(part === 'date' ? 'day' : part, value)}
      />
      <Field
        label={t('deadlines.field')}
        optional={t('deadlines.optional')}
        hint={t('deadlines.fieldHint')}
        name="answer_deadline"
        type="datetime-local"
        value={form.answer_deadline}
        onChange={(e) => set('answer_deadline', e.target.value)}
      />
      <Field
        label={t('eventDetail.fieldLocation')}
        value={form.location}
        required
        onChange={(e) => set('location', e.target.value)}
      />
      {priceLocked ? (
        <Field label={t('eventDetail.stadium')} value={event.stadium_name ?? t('eventDetail.noStadium')} readOnly />
      ) : (
        <Field label={t('eventDetail.stadium')}>
          {(control) => (
            <select {...control} value={form.stadium_id} onChange={(e) => set('stadium_id', e.target.value)}>
              <option value="">{t('eventDetail.noStadium')}</option>
              {stadiumChoices.map((stadium) => (
                <option key={stadium.id} value={stadium.id}>
                  {stadium.city ? `${stadium.stadium_name} (${stadium.city})` : stadium.stadium_name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field label={t('eventDetail.fieldDescription')}>
        {(control) => (
          <textarea {...control} rows={3} value={form.description} onChange={(e) => set('description', e.target.value)} />
        )}
      </Field>
      {priceLocked ? (
        <Field
          label={t('eventDetail.fieldTicketPrice')}
          value={
            event.ticket_price_cents > 0 ? formatMoney(event.ticket_price_cents, currentLanguage()) : t('eventDetail.priceTba')
          }
          readOnly
          hint={hasContingent === undefined ? undefined : messageText('eventPriceLocked')}
        />
      ) : (
        <MoneyField
          label={t('eventDetail.fieldTicketPrice')}
          value={form.priceNotYetAvailable ? '' : form.price}
          disabled={form.priceNotYetAvailable}
          onValueChange={(value) => set('price', value)}
        >
          <label className="check">
            <input
              type="checkbox"
              checked={form.priceNotYetAvailable}
              onChange={(e) => set('priceNotYetAvailable', e.target.checked)}
            />
            {t('eventDetail.priceNotYetAvailable')}
          </label>
        </MoneyField>
      )}
      <Field label={t('eventDetail.ticketBuyer')}>
        {(control) => (
          <select {...control} value={form.ticket_buyer} onChange={(e) => set('ticket_buyer', e.target.value)}>
            <option value="">{t('eventDetail.nobody')}</option>
            <option value={CLUB_CASH_DESK}>{t('eventDetail.clubCashDesk')}</option>
            {pickableMembers(members, form.ticket_buyer).map((member) => (
              <option key={member.id} value={member.id}>
                {shownName(member.username)}
              </option>
            ))}
            {form.ticket_buyer && form.ticket_buyer !== CLUB_CASH_DESK && !members.some((m) => m.id === form.ticket_buyer) ? (
              <option value={form.ticket_buyer}>{form.ticket_buyer}</option>
            ) : null}
          </select>
        )}
      </Field>
      <FormError message={error} />
      {!online ? <p className="offline-hint">{t('eventDetail.offlineHint')}</p> : null}
      <div className="detail-actions">
        <SaveCancel saving={saving} online={online} onCancel={onDone} />
      </div>
    </form>
  );
}
