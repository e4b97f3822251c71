import { centsToInputText, parseEurosAmount } from '@fankurve/shared/rules/money';
import { checkAnswerDeadline } from '@fankurve/shared/rules/attendance';
import type { MessageCode } from '@fankurve/shared/registry';
import { DEFAULT_EVENT_TIME, IMAGE_MAX_BYTES, roundToTimeStep, type EventDoc } from '@fankurve/shared';
import type { EventUpdate } from '../../api/eventDetail.js';

/** The event edit form and the event image's checks: the form's fields and their REST body. */

// ── Event edit form ────────────────────────────────────────────────────────────────────────────

export interface EventForm {
  title: string;
  description: string;
  /** `YYYY-MM-DD` */
  day: string;
  hour: string;
  /** `00`, `15`, `30` or `45` */
  minute: string;
  location: string;
  stadium_id: string;
  price: string;
  priceNotYetAvailable: boolean;
  ticket_buyer: string;
  /** The answer deadline as a datetime-local input holds it (`YYYY-MM-DDTHH:MM`), or '' for none. */
  answer_deadline: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function eventFormOf(event: EventDoc): EventForm {
  const [defaultHour = '15', defaultMinute = '00'] = DEFAULT_EVENT_TIME.split(':');
  const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}):(\d{2}))?/.exec(event.date);
  const hour = match?.[2] ? Number(match[2]) : Number(defaultHour);
  const minute = roundToTimeStep(match?.[3] ? Number(match[3]) : Number(defaultMinute));
  // 23:53 rounds to 24:00: keep 23:45 rather than moving the day in a form.
  const [h, m] = minute === 60 ? [hour, 45] : [hour, minute];
  return {
    title: event.title,
    description: event.description ?? '',
    day: match?.[1] ?? '',
    hour: pad(h),
    minute: pad(m),
    location: event.location,
    stadium_id: event.stadium_id ?? '',
    price: event.ticket_price_cents > 0 ? centsToInputText(event.ticket_price_cents) : '',
    priceNotYetAvailable: event.ticket_price_cents === 0,
    ticket_buyer: event.ticket_buyer ?? '',
    answer_deadline: event.answer_deadline ? event.answer_deadline.slice(0, 16).replace(' ', 'T') : '',
  };
}

export type EventFormError = 'titleRequired' | 'dateRequired' | 'locationRequired' | 'priceInvalid';

/**
 * docs/product.md, Input rules: title, date and location required; price a number ≥ 0 or 'not yet
 * available' (0); the answer deadline optional and before the event (the shared rule's message code).
 */
export function eventUpdateOf(
  form: EventForm,
): { ok: true; body: EventUpdate } | { ok: false; error: EventFormError } | { ok: false; deadline: MessageCode } {
  const title = form.title.trim();
  const location = form.location.trim();
  if (!title) return { ok: false, error: 'titleRequired' };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(form.day)) return { ok: false, error: 'dateRequired' };
  if (!location) return { ok: false, error: 'locationRequired' };
  let price = 0;
  if (!form.priceNotYetAvailable) {
    const parsed = parseEurosAmount(form.price);
    if (parsed === null) return { ok: false, error: 'priceInvalid' };
    price = parsed;
  }
  const hour = Math.min(23, Math.max(0, Number(form.hour) || 0));
  const minute = Math.min(45, roundToTimeStep(Number(form.minute) || 0));
  const description = form.description.trim();
  const date = `${form.day} ${pad(hour)}:${pad(minute)}`;
  const deadline = checkAnswerDeadline(form.answer_deadline, `${date}:00`);
  if (!deadline.ok) return { ok: false, deadline: deadline.code };
  return {
    ok: true,
    body: {
      title,
      description: description || null,
      date,
      location,
      stadium_id: form.stadium_id || null,
      ticket_price: price,
      ticket_buyer: form.ticket_buyer || null,
      answer_deadline: deadline.value === null ? null : deadline.value.slice(0, 16),
    },
  };
}

// ── Image ──────────────────────────────────────────────────────────────────────────────────────

/** The client-side checks of docs/product.md, Input rules for an event image; null when the file may be sent. */
export function imageProblem(file: { size: number; type: string }): 'fileTooLarge' | 'onlyImages' | null {
  if (!file.type.startsWith('image/')) return 'onlyImages';
  if (file.size > IMAGE_MAX_BYTES) return 'fileTooLarge';
  return null;
}
