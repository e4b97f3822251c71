import type { AttendeeDoc, attendeesSync, RefusalActionOf } from '@fankurve/shared';
import type { WriteContext } from '../../db/store.js';
import type { Actor } from '../actor.js';
import { badInput, forbidden } from '../errors.js';
import { requestTicket } from '../tickets/tickets.js';
import { changeOwnAttendance, removeOwnAttendance, setOwnAttendance } from './attendance.js';
import { addGuest, removeGuest, updateGuest } from './guests.js';

/*
 * A device sends an attendee document; this module works out once what the member meant by it
 * (docs/architecture.md, sync: push) and makes the same domain call the REST routes make.
 */

/** One pushed change of an attendee document, as the sync machinery hands it over. */
export interface AttendeeChange {
  id: string;
  kind: 'create' | 'update' | 'delete';
  /** The changed pushable fields with their new values (on create: all of them). */
  fields: Partial<AttendeeDoc>;
  /** The document as the device sent it (a create takes its identity fields from here). */
  sent: Record<string, unknown>;
  /** The server's document before the push, a tombstone included. */
  master: (AttendeeDoc & { _deleted?: boolean }) | undefined;
}

export type AttendeeAction = RefusalActionOf<typeof attendeesSync>;

type Answers = Partial<Pick<AttendeeDoc, 'status' | 'needs_ticket' | 'has_ticket' | 'needs_transport'>>;

const isGuest = (change: AttendeeChange) => (change.master ? change.master.user_id === null : !change.sent.user_id);

const eventOf = (change: AttendeeChange): string | null =>
  change.master?.event_id ?? (typeof change.sent.event_id === 'string' ? change.sent.event_id : null);

function answersOf(change: AttendeeChange): Answers {
  const { status, needs_ticket, has_ticket, needs_transport } = change.fields;
  return { status, needs_ticket, has_ticket, needs_transport };
}

const REQUEST_FIELDS = ['paid_requested', 'received_requested'] as const;

/** What a change is, as a refusal notice names it: the one classification of a pushed attendee change. */
export function attendeeActionOf(change: AttendeeChange): AttendeeAction {
  if (isGuest(change)) return change.kind === 'create' ? 'guest.add' : change.kind === 'delete' ? 'guest.remove' : 'guest.change';
  if (change.kind === 'create') return 'attendance.set';
  if (change.kind === 'delete') return 'attendance.remove';
  const onlyRequests = Object.keys(change.fields).every((field) => (REQUEST_FIELDS as readonly string[]).includes(field));
  return onlyRequests ? 'request.change' : 'attendance.change';
}

/** The event and the action of a change, for a refusal notice (never throws). */
export function describeAttendeeChange(change: AttendeeChange): { eventId: string | null; action: AttendeeAction } {
  return { eventId: eventOf(change), action: attendeeActionOf(change) };
}

/**
 * The paid and received requests an update carries, made by the same call as the REST routes. A
 * created row has no bought ticket, so a creation's requests mean nothing.
 */
async function applyRequests(w: WriteContext, actor: Actor, change: AttendeeChange): Promise<void> {
  if (change.kind !== 'update') return;
  const { paid_requested, received_requested } = change.fields;
  if (paid_requested !== undefined) await requestTicket(w, actor, change.id, 'paid', paid_requested);
  if (received_requested !== undefined) await requestTicket(w, actor, change.id, 'received', received_requested);
}

/**
 * The member's own row: create = attend, update = change the answer or a request, delete = not
 * going. Only its owner pushes it.
 */
async function applyOwnRow(w: WriteContext, actor: Actor, change: AttendeeChange, action: AttendeeAction): Promise<void> {
  const owner = change.master ? change.master.user_id : change.sent.user_id;
  if (owner !== actor.id) throw forbidden();
  const eventId = eventOf(change);
  if (!eventId) throw badInput();
  if (action === 'attendance.remove') return removeOwnAttendance(w, actor, eventId);
  await applyRequests(w, actor, change);
  if (action === 'request.change') return;
  const { status, ...flags } = answersOf(change);
  // An update keeps the answer it does not name; a row that was removed has none to keep.
  const nextStatus = status ?? (change.master && !change.master._deleted ? change.master.status : undefined);
  if (nextStatus !== 'going' && nextStatus !== 'maybe') throw badInput();
  const own = { status: nextStatus, ...flags };
  if (action === 'attendance.change') await changeOwnAttendance(w, actor, eventId, change.id, own);
  else await setOwnAttendance(w, actor, eventId, own, change.id);
}

/** A guest the member (or an admin) brings: added, changed and removed offline too. */
async function applyGuestRow(w: WriteContext, actor: Actor, change: AttendeeChange, action: AttendeeAction): Promise<void> {
  if (action === 'guest.remove') return removeGuest(w, actor, change.id);
  await applyRequests(w, actor, change);
  const guestName = change.fields.guest_name ?? undefined;
  if (action === 'guest.change') {
    const answerOrName = Object.values(answersOf(change)).some((value) => value !== undefined) || guestName !== undefined;
    if (answerOrName) await updateGuest(w, actor, change.id, { ...answersOf(change), guest_name: guestName });
    return;
  }
  const eventId = eventOf(change);
  if (!eventId) throw badInput();
  const broughtBy = typeof change.sent.brought_by === 'string' ? change.sent.brought_by : undefined;
  await addGuest(
    w,
    actor,
    { event_id: eventId, guest_name: guestName ?? '', ...answersOf(change), brought_by: broughtBy },
    change.id,
  );
}

/**
 * Applies a pushed attendee change as what the member meant: their attendance, a guest, or a
 * request about a bought ticket (with an answer in the same change, both). Throws the domain's
 * errors; the sync machinery turns them into a refusal notice.
 */
export async function applyAttendeeChange(w: WriteContext, actor: Actor, change: AttendeeChange): Promise<void> {
  const action = attendeeActionOf(change);
  if (isGuest(change)) await applyGuestRow(w, actor, change, action);
  else await applyOwnRow(w, actor, change, action);
}
