import type { AttendanceStatus, TransferStatus } from '../constants.js';
import { checkDepartureDate, clubFormatter, isUpcoming, locationOfTitle } from '../dates.js';
import { NO_TICKET_DOC, type AttendeeDoc } from '../docs/attendees.js';
import type { RuleResult } from './result.js';

/*
 * The attendance rules of docs/product.md, Attendance and guests (answers, seat, debt block, bought tickets), once for both sides:
 * the server's domain and the client's data layer and forms call these and keep no copy.
 */

/** The fields a member owns on their attendee row (docs/architecture.md, sync: push). */
export interface MemberAttendanceFields {
  status: AttendanceStatus;
  needs_ticket: boolean;
  has_ticket: boolean;
  needs_transport: boolean;
}

export type AnswerFields = Omit<MemberAttendanceFields, 'status'>;

/**
 * First-time answers by the kind of event (docs/product.md, Attendance and guests): only a match
 * (home or away, by its title's suffix) needs a ticket, only an away match a seat; a Stammtisch or
 * the Christmas party needs neither until the member ticks it. The same for a guest.
 */
export function firstAnswerDefaults(eventTitle: string): AnswerFields {
  const location = locationOfTitle(eventTitle);
  return { needs_ticket: location !== 'other', has_ticket: false, needs_transport: location === 'away' };
}

/**
 * Merges a partial answer onto the current answer (for a first answer: `firstAnswerDefaults` of the
 * event). Needs-ticket and has-ticket are mutually exclusive: the flag set in this change wins; both
 * set in one change is refused.
 */
export function mergeAttendanceAnswer(
  current: AnswerFields,
  change: Partial<MemberAttendanceFields> & { status: AttendanceStatus },
): RuleResult<MemberAttendanceFields> {
  if (change.needs_ticket === true && change.has_ticket === true) return { ok: false, code: 'hasTicketAndNeedsTicket' };
  const base = current;
  const value: MemberAttendanceFields = {
    status: change.status,
    needs_ticket: change.needs_ticket ?? base.needs_ticket,
    has_ticket: change.has_ticket ?? base.has_ticket,
    needs_transport: change.needs_transport ?? base.needs_transport,
  };
  if (change.has_ticket === true) value.needs_ticket = false;
  if (change.needs_ticket === true) value.has_ticket = false;
  if (value.needs_ticket && value.has_ticket) value.has_ticket = false;
  return { ok: true, value };
}

/**
 * The seat status after an answer: a seat needed for the first time, or needed again after it was
 * given up, is outstanding until an admin reserves it; otherwise the admin's status stays.
 */
export function transferStatusAfterAnswer(current: TransferStatus | null, needsTransport: boolean): TransferStatus | null {
  return needsTransport && current === null ? 'outstanding' : current;
}

/** A ticket on an attendee row: bought, paid (a debt is bought and not paid). */
export interface TicketState {
  bought: boolean;
  paid: boolean;
}

/** A debt is a bought, unpaid ticket (docs/architecture.md, data model). */
export function isDebt(row: TicketState): boolean {
  return row.bought && !row.paid;
}

/** Who owes an attendee row's ticket: the member, or for a guest the member who brought them. */
export function debtorOf(row: { user_id: string | null; brought_by: string | null }): string | null {
  return row.user_id ?? row.brought_by;
}

type DebtRow = TicketState & { user_id: string | null; brought_by: string | null; _deleted?: boolean };

/**
 * The debt block: the member owes at least one bought, unpaid ticket (their own or a guest's; unpaid
 * as every debt figure counts it, `isDebt`) whose time to pay has run out. `withinPaymentTime` names
 * the tickets still inside their payment days (a contingent's ticket until its allocation plus the
 * contingent's `payment_days`; docs/architecture.md, Ticket contingents): they do not block yet.
 */
export function hasUnpaidDebts<Row extends DebtRow>(
  rows: Iterable<Row>,
  userId: string,
  withinPaymentTime: (row: Row) => boolean = () => false,
): boolean {
  for (const row of rows) if (!row._deleted && isDebt(row) && debtorOf(row) === userId && !withinPaymentTime(row)) return true;
  return false;
}

/**
 * The day and time a contingent's ticket is to be paid by (ISO 8601 UTC): its allocation at
 * `allocatedAt` plus the contingent's `paymentDays`; null without either (a ticket without payment
 * days is due at once). The server puts it on the attendee document as `pay_by`, so the device's
 * debt block agrees with the server's.
 */
export function payByOf(allocatedAt: string | null, paymentDays: number | null): string | null {
  if (allocatedAt === null || paymentDays === null) return null;
  return new Date(Date.parse(allocatedAt) + paymentDays * 86_400_000).toISOString();
}

/** Whether a ticket with this pay-by time is still inside its payment days at `now` (ISO 8601 UTC). */
export function isBeforePayBy(payBy: string | null | undefined, now: string): boolean {
  return payBy !== null && payBy !== undefined && Date.parse(now) < Date.parse(payBy);
}

/**
 * A member may take up a new attendance (or bring a new guest) only without unpaid debts; changing
 * an existing answer stays allowed, since the debt may be this very match's ticket.
 */
export function checkNewAttendance(hasDebts: boolean): RuleResult<true> {
  return hasDebts ? { ok: false, code: 'unpaidDebts' } : { ok: true, value: true };
}

/**
 * A past event takes no more answers (docs/product.md, Readings): an event is past when its day lies
 * before the club's today (upcoming if its date is today or later, so a match stays open all of its day).
 * Refused on a past event: a new attendance or guest, a change of status or of the ticket and seat
 * answers, and dropping one. Still allowed: paid and received requests (debts are settled after the
 * match) and the admin's attendee table. `today` is `YYYY-MM-DD` in the club's time zone.
 */
export function checkEventOpenForAnswers(eventDate: string, today: string): RuleResult<true> {
  return isUpcoming(eventDate, today) ? { ok: true, value: true } : { ok: false, code: 'eventIsPast' };
}

/**
 * The club's wall-clock time of an instant, `YYYY-MM-DD HH:MM:SS` in `timeZone`: what event dates and
 * answer deadlines are compared with (docs/product.md, Answer deadlines and reminders).
 */
export function clubWallClock(timeZone: string, now: Date = new Date()): string {
  const parts = clubFormatter('wallClock', timeZone).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

/**
 * An event's answer deadline as typed (docs/product.md, Input rules): null, '' or only spaces for
 * none; else the club's wall-clock time `YYYY-MM-DD HH:MM[:SS]` (or ISO 8601), kept to the minute
 * (`…:00`), years 2000–2100 (answerDeadlineInvalid otherwise), and strictly before the event's
 * stored date (answerDeadlineAfterEvent). A deadline already passed is allowed: it closes the
 * answers at once.
 */
export function checkAnswerDeadline(input: unknown, eventDate: string): RuleResult<string | null> {
  if (input === null || input === undefined || (typeof input === 'string' && input.trim() === ''))
    return { ok: true, value: null };
  if (typeof input !== 'string') return { ok: false, code: 'answerDeadlineInvalid' };
  const checked = checkDepartureDate(input);
  if (!checked.ok) return { ok: false, code: 'answerDeadlineInvalid' };
  if (checked.value >= eventDate) return { ok: false, code: 'answerDeadlineAfterEvent' };
  return checked;
}

/** Whether an answer deadline has passed: the club's wall clock (`clubWallClock`) is later than it. */
export const isAnswerDeadlinePassed = (deadline: string | null | undefined, clubNow: string): boolean =>
  typeof deadline === 'string' && deadline !== '' && clubNow > deadline;

/**
 * After an event's answer deadline a member can no longer change their answer (status, ticket and
 * seat answers) or their guests (add, change, remove); an admin can (docs/product.md, Attendance and
 * guests). Paid and received requests are no answers and stay possible. `clubNow` is
 * `clubWallClock(timeZone)`. The server's domain (attendance.ts, guests.ts) and the event card and
 * page call it.
 */
export function checkAnswerDeadlineOpen(deadline: string | null | undefined, clubNow: string, admin: boolean): RuleResult<true> {
  return !admin && isAnswerDeadlinePassed(deadline, clubNow)
    ? { ok: false, code: 'answerDeadlinePassed' }
    : { ok: true, value: true };
}

/** What is left until an answer deadline, in the largest whole unit that fits (at least 1 minute). */
export interface TimeLeft {
  unit: 'days' | 'hours' | 'minutes';
  count: number;
}

/**
 * The time left until an open deadline as the event card and page show it ("noch 2 Tage"), or null
 * once it has passed. Both are the club's wall-clock times, compared as written (a daylight-saving
 * change in between shifts the figure by an hour at most).
 */
export function answerTimeLeft(deadline: string | null | undefined, clubNow: string): TimeLeft | null {
  if (!deadline || isAnswerDeadlinePassed(deadline, clubNow)) return null;
  const asUtc = (wallClock: string) => Date.parse(`${wallClock.slice(0, 19).replace(' ', 'T')}Z`);
  const minutes = Math.max(1, Math.floor((asUtc(deadline) - asUtc(clubNow)) / 60_000));
  if (Number.isNaN(minutes)) return null;
  if (minutes >= 24 * 60) return { unit: 'days', count: Math.floor(minutes / (24 * 60)) };
  if (minutes >= 60) return { unit: 'hours', count: Math.floor(minutes / 60) };
  return { unit: 'minutes', count: minutes };
}

/** A member cannot drop an attendance (own or a guest's) whose ticket is already bought; an admin can. */
export function checkMemberMayDrop(row: { bought: boolean }): RuleResult<true> {
  return row.bought ? { ok: false, code: 'ticketAlreadyBought' } : { ok: true, value: true };
}

/**
 * A new attendance document as a device creates it (offline too): first-time answers for the event
 * (`firstAnswerDefaults` of its title), no ticket yet.
 */
function newAttendeeDoc(
  fields: {
    id: string;
    event_id: string;
    user_id: string | null;
    guest_name: string | null;
    brought_by: string | null;
    status: AttendanceStatus;
    created_at: string;
  },
  eventTitle: string,
): AttendeeDoc {
  const answers = firstAnswerDefaults(eventTitle);
  return {
    ...fields,
    ...answers,
    transfer_status: transferStatusAfterAnswer(null, answers.needs_transport),
    ...NO_TICKET_DOC,
    seq: 0,
  };
}

/** A member's own new attendance at the event titled `eventTitle`. */
export function newMemberAttendeeDoc(
  fields: {
    id: string;
    event_id: string;
    user_id: string;
    status: AttendanceStatus;
    created_at: string;
  },
  eventTitle: string,
): AttendeeDoc {
  return newAttendeeDoc({ ...fields, guest_name: null, brought_by: null }, eventTitle);
}

/** A guest a member brings: going, with the event's first-time answers (a match: a ticket; away: a seat too). */
export function newGuestAttendeeDoc(
  fields: {
    id: string;
    event_id: string;
    guest_name: string;
    brought_by: string;
    created_at: string;
  },
  eventTitle: string,
): AttendeeDoc {
  return newAttendeeDoc({ ...fields, user_id: null, status: 'going' }, eventTitle);
}
