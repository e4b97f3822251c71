import { CLUB_CASH_DESK, type EventDoc, type MemberDoc } from '@fankurve/shared';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchStadiums, updateEvent, type StadiumOption } from '../../api/eventDetail.js';
import { FormError } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { eventFormOf, eventUpdateOf, sortedMembers, type EventForm } from './model.js';
import { failText } from './shared.js';

interface Props {
  event: EventDoc;
  members: readonly MemberDoc[];
  online: boolean;
  onDone: () => void;
}

const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
const MINUTES = ['00', '15', '30', '45'];

/** The event's fields edited in place (creator or admin): SPEC 5 rules, PUT /api/events/{id}. */
export function EventEditForm({ event, members, online, onDone }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [form, setForm] = useState<EventForm>(() => eventFormOf(event));
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
      setError(t(`eventDetail.validation.${result.error}`));
      return;
    }
    setError(null);
    setSaving(true);
    try {
      await updateEvent(event.id, result.body);
      toastSuccess(t('eventDetail.eventSaved'));
      onDone();
    } catch (failure) {
      toastError(failText(failure, 'eventDetail.errors.updateEventFailed'));
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
      <div className="field">
        <label htmlFor={`${id}-title`}>{t('eventDetail.fieldTitle')}</label>
        <input id={`${id}-title`} value={form.title} required onChange={(e) => set('title', e.target.value)} />
      </div>
      <div className="field-row">
        <div className="field field-grow">
          <label htmlFor={`${id}-day`}>{t('eventDetail.fieldDate')}</label>
          <input id={`${id}-day`} type="date" value={form.day} required onChange={(e) => set('day', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-hour`}>{t('eventDetail.fieldHour')}</label>
          <select id={`${id}-hour`} value={form.hour} onChange={(e) => set('hour', e.target.value)}>
            {HOURS.map((hour) => (
              <option key={hour} value={hour}>
                {hour}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-minute`}>{t('eventDetail.fieldMinute')}</label>
          <select id={`${id}-minute`} value={form.minute} onChange={(e) => set('minute', e.target.value)}>
            {MINUTES.map((minute) => (
              <option key={minute} value={minute}>
                {minute}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-location`}>{t('eventDetail.fieldLocation')}</label>
        <input id={`${id}-location`} value={form.location} required onChange={(e) => set('location', e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-stadium`}>{t('eventDetail.stadium')}</label>
        <select id={`${id}-stadium`} value={form.stadium_id} onChange={(e) => set('stadium_id', e.target.value)}>
          <option value="">{t('eventDetail.noStadium')}</option>
          {stadiumChoices.map((stadium) => (
            <option key={stadium.id} value={stadium.id}>
              {stadium.city ? `${stadium.stadium_name} (${stadium.city})` : stadium.stadium_name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>{t('eventDetail.fieldDescription')}</label>
        <textarea
          id={`${id}-description`}
          rows={3}
          value={form.description}
          onChange={(e) => set('description', e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-price`}>{t('eventDetail.fieldTicketPrice')}</label>
        <input
          id={`${id}-price`}
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          value={form.priceNotYetAvailable ? '' : form.price}
          disabled={form.priceNotYetAvailable}
          onChange={(e) => set('price', e.target.value)}
        />
        <label className="check">
          <input
            type="checkbox"
            checked={form.priceNotYetAvailable}
            onChange={(e) => set('priceNotYetAvailable', e.target.checked)}
          />
          {t('eventDetail.priceNotYetAvailable')}
        </label>
      </div>
      <div className="field">
        <label htmlFor={`${id}-buyer`}>{t('eventDetail.ticketBuyer')}</label>
        <select id={`${id}-buyer`} value={form.ticket_buyer} onChange={(e) => set('ticket_buyer', e.target.value)}>
          <option value="">{t('eventDetail.nobody')}</option>
          <option value={CLUB_CASH_DESK}>{t('eventDetail.clubCashDesk')}</option>
          {sortedMembers(members).map((member) => (
            <option key={member.id} value={member.id}>
              {member.username}
            </option>
          ))}
          {form.ticket_buyer && form.ticket_buyer !== CLUB_CASH_DESK && !members.some((m) => m.id === form.ticket_buyer) ? (
            <option value={form.ticket_buyer}>{form.ticket_buyer}</option>
          ) : null}
        </select>
      </div>
      <FormError message={error} />
      {!online ? <p className="offline-hint">{t('eventDetail.offlineHint')}</p> : null}
      <div className="detail-actions">
        <button type="submit" className="button button-primary" disabled={saving || !online}>
          {saving ? t('eventDetail.saving') : t('eventDetail.save')}
        </button>
        <button type="button" className="button button-ghost" disabled={saving} onClick={onDone}>
          {t('eventDetail.cancel')}
        </button>
      </div>
    </form>
  );
}
