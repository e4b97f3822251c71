import { eurosToCents, formatMoney, parseEurosAmount } from '@fankurve/shared/rules/money';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createEvent } from '../../api/events.js';
import { fetchStadiums, type Stadium } from '../../api/stadiums.js';
import { useSyncStatus } from '../../data/index.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { Modal } from '../../ui/Dialog.js';
import { Field } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { EVENT_LOCATIONS, type EventLocation } from '@fankurve/shared/dates';
import {
  EMPTY_EVENT_FORM,
  eventDateOf,
  toNewEvent,
  withKind,
  withTitle,
  type EventFormErrors,
  type EventFormField,
  type EventFormValues,
} from './eventForm.js';
import { EventTimeFields } from './EventTimeFields.js';
import { formatEventDate } from '../../i18n/eventDates.js';
import { MoneyField } from '../../ui/MoneyField.js';

const FIELD_ORDER: EventFormField[] = ['title', 'kind', 'date', 'answerDeadline', 'location', 'price'];

const KIND_KEYS = {
  home: 'createEvent.kindHome',
  away: 'createEvent.kindAway',
  other: 'createEvent.kindOther',
} as const satisfies Record<EventLocation, string>;

interface Props {
  onClose: () => void;
  /** The event was created: the page opens it (under the list's filter it might not show). */
  onCreated: (eventId: string) => void;
}

/**
 * The create-event dialog: title, home / away / other (saved as the title's suffix), date,
 * hour and minutes (default 15:00), location, stadium, description and ticket price with a 'to be
 * announced' box. Creating is online work: the new event reaches the device through sync.
 */
export function CreateEventDialog({ onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const { online } = useSyncStatus();
  const [values, setValues] = useState<EventFormValues>(EMPTY_EVENT_FORM);
  const [errors, setErrors] = useState<EventFormErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [stadiums, setStadiums] = useState<Stadium[] | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const kindId = useId();

  useEffect(() => {
    const controller = new AbortController();
    fetchStadiums(controller.signal)
      .then(({ stadiums: list }) =>
        setStadiums(
          [...list].sort((a, b) => a.team_name.localeCompare(b.team_name) || a.stadium_name.localeCompare(b.stadium_name)),
        ),
      )
      .catch((error: unknown) => {
        // The stadium is optional: without the list (offline, no access) the choice is left out.
        if (!controller.signal.aborted) console.info('Stadiums not loaded', error);
      });
    return () => controller.abort();
  }, []);

  const set = <K extends keyof EventFormValues>(key: K, value: EventFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (key in errors) setErrors((current) => ({ ...current, [key]: undefined }));
  };
  const setTitle = (title: string) => {
    setValues((current) => withTitle(current, title));
    setErrors((current) => ({ ...current, title: undefined, kind: undefined }));
  };
  const setKind = (kind: EventLocation) => {
    setValues((current) => withKind(current, kind));
    setErrors((current) => ({ ...current, kind: undefined }));
  };

  function chooseStadium(stadiumId: string) {
    const stadium = stadiums?.find((s) => s.id === stadiumId);
    setValues((current) => ({
      ...current,
      stadiumId,
      // Fill what the stadium tells, without overwriting what was typed.
      location: current.location.trim() || !stadium ? current.location : `${stadium.stadium_name}, ${stadium.city}`,
      price:
        current.price.trim() ||
        current.priceTba ||
        !stadium ||
        stadium.ticket_price === null ||
        stadium.ticket_price === undefined
          ? current.price
          : stadium.ticket_price.toFixed(2),
    }));
    if (stadium) setErrors((current) => ({ ...current, location: undefined }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting || !online) return;
    const result = toNewEvent(values);
    if (!result.ok) {
      setErrors(result.errors);
      const first = FIELD_ORDER.find((field) => result.errors[field]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const { event: created } = await createEvent(result.body);
      toastSuccess(t('createEvent.created', { title: result.body.title }));
      onCreated(created.id);
    } catch (error) {
      toastError(errorText(error, 'errors.createEventFailed'));
      setSubmitting(false);
    }
  }

  const savedDate = eventDateOf(values);
  const price = values.priceTba ? 0 : parseEurosAmount(values.price);
  const errorOf = (field: EventFormField) => (errors[field] ? messageText(errors[field]) : undefined);

  return (
    <Modal title={t('createEvent.title')} onClose={onClose}>
      <form ref={formRef} className="form" noValidate onSubmit={(event) => void submit(event)}>
        <Field
          label={t('createEvent.titleLabel')}
          name="title"
          value={values.title}
          onChange={(event) => setTitle(event.target.value)}
          placeholder={t('createEvent.titlePlaceholder')}
          maxLength={200}
          required
          error={errorOf('title')}
        />
        <fieldset
          className="kind-choice"
          aria-describedby={`${kindId}-hint${errors.kind ? ` ${kindId}-error` : ''}`}
          aria-invalid={errors.kind ? true : undefined}
        >
          <legend>{t('createEvent.kind')}</legend>
          <div className="kind-options">
            {EVENT_LOCATIONS.map((kind) => (
              <label key={kind} className="check kind-option">
                <input type="radio" name="kind" value={kind} checked={values.kind === kind} onChange={() => setKind(kind)} />
                {t(KIND_KEYS[kind])}
              </label>
            ))}
          </div>
          <small id={`${kindId}-hint`} className="field-hint">
            {t('createEvent.kindHint')}
          </small>
          {errors.kind ? (
            <p id={`${kindId}-error`} className="field-error">
              {messageText(errors.kind)}
            </p>
          ) : null}
        </fieldset>
        <EventTimeFields
          date={values.date}
          hour={values.hour}
          minute={values.minute}
          onChange={(part, value) => set(part, value)}
          dateError={errorOf('date')}
        />
        {savedDate ? (
          <p className="form-preview" aria-live="polite">
            {t('createEvent.kickOff', { date: formatEventDate(savedDate, language) })}
          </p>
        ) : null}
        <Field
          label={t('deadlines.field')}
          optional={t('deadlines.optional')}
          hint={t('deadlines.fieldHint')}
          name="answerDeadline"
          type="datetime-local"
          value={values.answerDeadline}
          onChange={(event) => set('answerDeadline', event.target.value)}
          error={errorOf('answerDeadline')}
        />
        <Field
          label={t('createEvent.location')}
          name="location"
          value={values.location}
          onChange={(event) => set('location', event.target.value)}
          maxLength={200}
          required
          error={errorOf('location')}
        />
        {stadiums && stadiums.length > 0 ? (
          <Field label={t('createEvent.stadium')} optional={t('createEvent.optional')}>
            {(control) => (
              <select
                {...control}
                name="stadium"
                value={values.stadiumId}
                onChange={(event) => chooseStadium(event.target.value)}
              >
                <option value="">{t('createEvent.noStadium')}</option>
                {stadiums.map((stadium) => (
                  <option key={stadium.id} value={stadium.id}>
                    {stadium.stadium_name} ({stadium.team_name}, {stadium.city})
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        <Field label={t('createEvent.description')} optional={t('createEvent.optional')}>
          {(control) => (
            <textarea
              {...control}
              name="description"
              value={values.description}
              onChange={(event) => set('description', event.target.value)}
              maxLength={5000}
              rows={3}
            />
          )}
        </Field>
        <MoneyField
          label={t('createEvent.price')}
          name="price"
          value={values.priceTba ? '' : values.price}
          disabled={values.priceTba}
          onValueChange={(value) => set('price', value)}
          tidy
          placeholder="0.00"
          error={errorOf('price')}
        />
        <label className="check">
          <input
            type="checkbox"
            name="priceTba"
            checked={values.priceTba}
            onChange={(event) => set('priceTba', event.target.checked)}
          />
          {t('createEvent.priceTba')}
        </label>
        {price !== null && !errors.price ? (
          <p className="form-preview">
            {values.priceTba
              ? t('createEvent.pricePreviewTba')
              : t('createEvent.pricePreview', { price: formatMoney(eurosToCents(price), language) })}
          </p>
        ) : null}
        {online ? null : <p className="offline-hint">{t('createEvent.offline')}</p>}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('createEvent.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={submitting || !online}>
            {submitting ? t('createEvent.creating') : t('createEvent.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
