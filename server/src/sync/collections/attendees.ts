import { attendeesSync, keptOnDeviceSince, payByOf, type AttendeeDoc, type NoticeAction } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { AttendeeRow, Database } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import type { Actor } from '../../domain/actor.js';
import { changeOwnAttendance, removeOwnAttendance, setOwnAttendance } from '../../domain/attendance/attendance.js';
import { attendeeFieldsOf } from '../../domain/attendance/attendeeRows.js';
import { badInput, forbidden } from '../../domain/errors.js';
import { addGuest, removeGuest, updateGuest } from '../../domain/attendance/guests.js';
import { requestTicket } from '../../domain/tickets/tickets.js';
import { defineServerCollection, type MasterDocument, type PushedChange } from '../collection.js';

/** An attendee row with what its pay-by time is made of: its request's allocation and the contingent's payment days. */
type AttendeeRowWithPayBy = AttendeeRow & { allocated_at?: string | null; payment_days?: number | string | null };

/** Attendee rows with their request's allocation time and their contingent's payment days (`pay_by`). */
function attendeeRows(db: Kysely<Database>) {
  return db
    .selectFrom('attendees as a')
    .leftJoin('ticket_requests as r', 'r.attendee_id', 'a.id')
    .leftJoin('contingents as c', 'c.event_id', 'a.event_id')
    .selectAll('a')
    .select(['r.allocated_at', 'c.payment_days']);
}

export function toAttendeeDoc(row: AttendeeRowWithPayBy): MasterDocument<AttendeeDoc> {
  return {
    ...attendeeFieldsOf(row),
    pay_by: payByOf(
      row.allocated_at ?? null,
      row.payment_days === null || row.payment_days === undefined ? null : Number(row.payment_days),
    ),
    seq: Number(row.seq),
    _deleted: toBool(row.deleted),
  };
}

type Change = PushedChange<AttendeeDoc>;

const isGuestChange = (change: Change) => (change.master ? change.master.user_id === null : !change.sent.user_id);
const eventOf = (change: Change) =>
  change.master?.event_id ?? (typeof change.sent.event_id === 'string' ? change.sent.event_id : null);

/** The answer fields of a change, as the domain's attendance functions take them. */
function answers(change: Change) {
  const { status, needs_ticket, has_ticket, needs_transport } = change.fields;
  return { status, needs_ticket, has_ticket, needs_transport };
}

const answerChanged = (change: Change) => Object.values(answers(change)).some((value) => value !== undefined);

/**
 * The paid and received requests of an update (own row or own guest's), by the same domain call as
 * the REST routes; true when the update changes nothing else. The requests of a creation are ignored
 * (a new row has no bought ticket).
 */
async function applyRequests(w: WriteContext, actor: Actor, change: Change): Promise<boolean> {
  if (change.kind !== 'update') return false;
  const { paid_requested, received_requested } = change.fields;
  if (paid_requested !== undefined) await requestTicket(w, actor, change.id, 'paid', paid_requested);
  if (received_requested !== undefined) await requestTicket(w, actor, change.id, 'received', received_requested);
  return !answerChanged(change) && change.fields.guest_name === undefined;
}

/** A member's own row: create = attend, update = change the answer or a request, delete = not going. */
async function applyOwnRow(w: WriteContext, actor: Actor, change: Change): Promise<void> {
  const owner = change.master ? change.master.user_id : change.sent.user_id;
  if (owner !== actor.id) throw forbidden();
  const eventId = eventOf(change);
  if (!eventId) throw badInput();
  if (change.kind === 'delete') return removeOwnAttendance(w, actor, eventId);
  if (await applyRequests(w, actor, change)) return;
  const { status, ...flags } = answers(change);
  const nextStatus = status ?? (change.master && !change.master._deleted ? change.master.status : undefined);
  if (nextStatus !== 'going' && nextStatus !== 'maybe') throw badInput();
  const own = { status: nextStatus, ...flags };
  if (change.kind === 'update') await changeOwnAttendance(w, actor, eventId, change.id, own);
  else await setOwnAttendance(w, actor, eventId, own, change.id);
}

/** A guest the member brought (or an admin): added, changed and removed offline too. */
async function applyGuestRow(w: WriteContext, actor: Actor, change: Change): Promise<void> {
  if (change.kind === 'delete') return removeGuest(w, actor, change.id);
  if (await applyRequests(w, actor, change)) return;
  const guestName = change.fields.guest_name ?? undefined;
  if (change.kind === 'update') {
    await updateGuest(w, actor, change.id, { ...answers(change), guest_name: guestName });
    return;
  }
  const eventId = eventOf(change);
  if (!eventId) throw badInput();
  const broughtBy = typeof change.sent.brought_by === 'string' ? change.sent.brought_by : undefined;
  await addGuest(
    w,
    actor,
    { event_id: eventId, guest_name: guestName ?? '', ...answers(change), brought_by: broughtBy },
    change.id,
  );
}

function actionOf(change: Change): NoticeAction {
  const onlyRequests = Object.keys(change.fields).every((field) => field === 'paid_requested' || field === 'received_requested');
  if (isGuestChange(change))
    return change.kind === 'create' ? 'guest.add' : change.kind === 'delete' ? 'guest.remove' : 'guest.change';
  if (change.kind === 'create') return 'attendance.set';
  if (change.kind === 'delete') return 'attendance.remove';
  return onlyRequests ? 'request.change' : 'attendance.change';
}

/**
 * Every attendance row of the events a device keeps, and the actor's own rows and their guests' of
 * any event (their tickets and debts); the rest of an event's rows when the device asks for it
 * (docs/architecture.md, What a device keeps). Members push their own rows and their guests'; the
 * merge is by field, so an admin's ticket change and a member's offline answer are both kept, and
 * two devices of one member that change different fields both keep their change.
 */
export const attendeesCollection = defineServerCollection<AttendeeDoc>({
  declaration: attendeesSync,
  async pull(db, actor, afterSeq, limit, { today }) {
    const rows = await attendeeRows(db)
      .innerJoin('events as e', 'e.id', 'a.event_id')
      .where('a.seq', '>', afterSeq)
      .where((eb) =>
        eb.or([eb('e.date', '>=', keptOnDeviceSince(today)), eb('a.user_id', '=', actor.id), eb('a.brought_by', '=', actor.id)]),
      )
      .orderBy('a.seq')
      .limit(limit)
      .execute();
    return rows.map(toAttendeeDoc);
  },
  async pullEvent(db, _actor, eventId) {
    const rows = await attendeeRows(db).where('a.event_id', '=', eventId).orderBy('a.seq').execute();
    return rows.map(toAttendeeDoc);
  },
  push: {
    async find(db, _actor, id) {
      const row = await attendeeRows(db).where('a.id', '=', id).executeTakeFirst();
      return row ? toAttendeeDoc(row) : undefined;
    },
    apply: (w, actor, change) => (isGuestChange(change) ? applyGuestRow(w, actor, change) : applyOwnRow(w, actor, change)),
    describe: (change) => ({ eventId: eventOf(change), action: actionOf(change) }),
  },
});
