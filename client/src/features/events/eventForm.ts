import { centsToEuros, checkEuros } from '@fankurve/shared/rules/money';
import { DEFAULT_EVENT_TIME, TIME_STEP_MINUTES } from '@fankurve/shared/constants';
import { checkEventDate, locationOfTitle, titleForLocation, type EventLocation } from '@fankurve/shared/dates';
import { freeTextProblem } from '@fankurve/shared/rules/freeText';
import { checkAnswerDeadline } from '@fankurve/shared/rules/attendance';
import type { MessageCode } from '@fankurve/shared/registry';
import type { RuleResult } from '@fankurve/shared/rules/result';
import type { NewEvent } from '../../api/events.js';

/** The create-event form as typed: strings as the inputs hold them. */
export interface EventFormValues {
  title: string;
  /**
   * Home, away or other (no match): chosen in the dialog, or read from a typed '(H)' / '(A)' suffix;
   * '' while neither says it. Saved as the title's suffix, so nobody has to know it.
   */
  kind: EventLocation | '';
  /** `YYYY-MM-DD` from the date input. */
  date: string;
  /** `0`–`23`. */
  hour: string;
  /** `00`, `15`, `30` or `45`. */
  minute: string;
  location: string;
  stadiumId: string;
  description: string;
  /** Euros as the number input holds it (`''` when empty or not a number). */
  price: string;
  /** 'Not yet available': sends 0. */
  priceTba: boolean;
  /** The answer deadline as a datetime-local input holds it (`YYYY-MM-DDTHH:MM`), or '' for none. */
  answerDeadline: string;
}

export type EventFormField = 'title' | 'kind' | 'date' | 'location' | 'price' | 'answerDeadline';
export type EventFormErrors = Partial<Record<EventFormField, MessageCode>>;

const [DEFAULT_HOUR, DEFAULT_MINUTE] = DEFAULT_EVENT_TIME.split(':') as [string, string];

export const HOURS: readonly string[] = Array.from({ length: 24 }, (_, hour) => String(hour));
export const MINUTES: readonly string[] = Array.from({ length: 60 / TIME_STEP_MINUTES }, (_, step) =>
  String(step * TIME_STEP_MINUTES).padStart(2, '0'),
);

export const EMPTY_EVENT_FORM: EventFormValues = {
  title: '',
  kind: '',
  date: '',
  hour: String(Number(DEFAULT_HOUR)),
  minute: DEFAULT_MINUTE,
  location: '',
  stadiumId: '',
  description: '',
  price: '',
  priceTba: false,
  answerDeadline: '',
};

/**
 * The date and time as saved: `YYYY-MM-DD HH:MM`, minutes rounded to the nearest 15, or why
 * not (no date or no real day: dateRequired; a year outside 2000–2100: dateOutOfRange).
 */
export function checkFormDate(values: Pick<EventFormValues, 'date' | 'hour' | 'minute'>): RuleResult<string> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.date)) return { ok: false, code: 'dateRequired' };
  const hour = Number(values.hour);
  const minute = Number(values.minute);
  if (!Number.isInteger(hour) || hour < 0 || hour > 23 || !Number.isInteger(minute) || minute < 0 || minute > 59) {
    return { ok: false, code: 'dateRequired' };
  }
  const checked = checkEventDate(`${values.date} ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`);
  return checked.ok ? { ok: true, value: checked.value.slice(0, 16) } : checked;
}

/** The saved date and time, or null when the form's date is not one (checkFormDate says why). */
export function eventDateOf(values: Pick<EventFormValues, 'date' | 'hour' | 'minute'>): string | null {
  const checked = checkFormDate(values);
  return checked.ok ? checked.value : null;
}

/**
 * The form after typing a title: a typed '(H)' or '(A)' chooses home or away; taking the suffix away
 * again undoes that choice (other stays chosen).
 */
export function withTitle(values: EventFormValues, title: string): EventFormValues {
  const typed = locationOfTitle(title);
  const kind = typed !== 'other' ? typed : values.kind === 'other' ? 'other' : '';
  return { ...values, title, kind };
}

/** The form after choosing home, away or other: the title field shows the suffix that will be saved. */
export function withKind(values: EventFormValues, kind: EventLocation): EventFormValues {
  return { ...values, kind, title: values.title.trim() ? titleForLocation(values.title, kind) : values.title };
}

/**
 * Checks the form (title, home / away / other, date and location required, title and location free
 * text as rules/freeText.ts; price a number of at least 0; an answer deadline, if any, before the event) and builds the
 * body of POST /api/events. An empty price without the box is left out (the server's default: to be
 * announced); the box sends 0.
 */
export function toNewEvent(values: EventFormValues): { ok: true; body: NewEvent } | { ok: false; errors: EventFormErrors } {
  const errors: EventFormErrors = {};
  const kind = values.kind || (locationOfTitle(values.title) === 'other' ? '' : locationOfTitle(values.title));
  const title = kind ? titleForLocation(values.title, kind) : values.title.trim();
  const location = values.location.trim();
  const checkedDate = checkFormDate(values);
  const date = checkedDate.ok ? checkedDate.value : null;
  if (!title) errors.title = 'titleRequired';
  else if (freeTextProblem(title)) errors.title = freeTextProblem(title)!;
  if (!kind) errors.kind = 'eventKindRequired';
  if (!checkedDate.ok) errors.date = checkedDate.code;
  if (!location) errors.location = 'locationRequired';
  else if (freeTextProblem(location)) errors.location = freeTextProblem(location)!;
  let price: number | undefined;
  if (values.priceTba) price = 0;
  else if (values.price.trim() !== '') {
    const checked = checkEuros(values.price);
    if (!checked.ok) errors.price = checked.code;
    else price = centsToEuros(checked.value);
  }
  // The deadline lies before the event (the shared rule the server checks too).
  const deadline = date ? checkAnswerDeadline(values.answerDeadline, `${date}:00`) : null;
  if (deadline && !deadline.ok) errors.answerDeadline = deadline.code;
  if (Object.keys(errors).length > 0 || !date) return { ok: false, errors };
  const body: NewEvent = { title, date, location };
  if (values.stadiumId) body.stadium_id = values.stadiumId;
  const description = values.description.trim();
  if (description) body.description = description;
  if (price !== undefined) body.ticket_price = price;
  if (deadline?.ok && deadline.value) body.answer_deadline = deadline.value.slice(0, 16);
  return { ok: true, body };
}
