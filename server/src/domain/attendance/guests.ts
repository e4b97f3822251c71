import {
  checkGuestName,
  checkMemberMayDrop,
  firstAnswerDefaults,
  isValidId,
  newId,
  transferStatusAfterAnswer,
  type AttendanceStatus,
} from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { AttendeeRow, Database } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import { isAdmin, type Actor } from '../actor.js';
import { requireBeforeAnswerDeadline, requireLiveEvent, requireNoDebtBlock, requireOpenForAnswers } from './attendance.js';
import {
  answersIn,
  attendeeRef,
  changedKeys,
  findAttendeeById,
  mergedAnswerFields,
  requireActiveUser,
  newAttendeeRow,
} from './attendeeRows.js';
import { badInput, conflict, forbidden, notFound } from '../errors.js';
import { getGuestLimit } from '../club/settings.js';

/*
 * Guests a member brings to an event (docs/product.md, "Attendance and guests": going, needs a
 * ticket and a seat unless told otherwise). The member who brought a guest, or an admin, adds,
 * changes and removes them; admins may add a guest for any active member. The REST routes and the
 * attendees sync push (offline-made guests) call these same functions; each checks everything before
 * its first write.
 */

export interface AddGuestChange {
  event_id: string;
  guest_name: string;
  status?: AttendanceStatus;
  needs_ticket?: boolean;
  has_ticket?: boolean;
  needs_transport?: boolean;
  /** The member who brings the guest; only an admin may name someone else than themselves. */
  brought_by?: string;
}

export interface GuestChange {
  guest_name?: string;
  status?: AttendanceStatus;
  needs_ticket?: boolean;
  has_ticket?: boolean;
  needs_transport?: boolean;
}

/** The guest name by the shared rule (trimmed; 'Guest name is required' when blank). */
function guestNameOf(name: unknown): string {
  const rule = checkGuestName(name);
  if (!rule.ok) throw badInput(rule.code);
  return rule.value;
}

async function findLiveGuest(db: Kysely<Database>, guestId: string): Promise<AttendeeRow> {
  const guest = await findAttendeeById(db, guestId);
  if (!guest || toBool(guest.deleted) || guest.user_id !== null) throw notFound('guestNotFound');
  return guest;
}

function requireGuestOwner(actor: Actor, guest: AttendeeRow): void {
  if (guest.brought_by !== actor.id && !isAdmin(actor)) throw forbidden();
}

/** A member brings at most the club's guest limit to one event (admins are not limited). */
async function requireRoomForGuest(w: WriteContext, eventId: string, broughtBy: string): Promise<void> {
  const { count } = await w.db
    .selectFrom('attendees')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('event_id', '=', eventId)
    .where('brought_by', '=', broughtBy)
    .where('user_id', 'is', null)
    .where('deleted', '=', 0)
    .executeTakeFirstOrThrow();
  if (Number(count) >= (await getGuestLimit(w.db))) throw conflict('tooManyGuests');
}

/**
 * Adds a guest. `id` is the id a client chose for a guest it created offline: when a row with that
 * id exists and is the same guest (same event, brought by the same member), the call is a retry and
 * updates it (a removed one is added afresh); any other row under that id is forbidden. A member
 * with unpaid debts cannot bring a new guest (the debt block).
 */
export async function addGuest(w: WriteContext, actor: Actor, input: AddGuestChange, id?: string): Promise<AttendeeRow> {
  const guestName = guestNameOf(input.guest_name);
  const broughtBy = input.brought_by ?? actor.id;
  if (broughtBy !== actor.id) {
    if (!isAdmin(actor)) throw forbidden();
    await requireActiveUser(w.db, broughtBy);
  }
  if (typeof input.event_id !== 'string') throw notFound('eventNotFound');
  const event = await requireLiveEvent(w.db, input.event_id);
  // A past event takes no new guests from members; the admin keeps correcting the records.
  if (!isAdmin(actor)) requireOpenForAnswers(w, event);
  if (id !== undefined && !isValidId(id)) throw badInput('invalidInput');
  const taken = id !== undefined ? await findAttendeeById(w.db, id) : undefined;
  if (taken) {
    const sameGuest = taken.user_id === null && taken.brought_by === broughtBy && taken.event_id === input.event_id;
    if (!sameGuest) throw forbidden();
    if (!toBool(taken.deleted)) {
      return updateGuest(w, actor, taken.id, { guest_name: guestName, ...answersIn(input) });
    }
  }
  // Nor does one after its answer deadline (a retry of a guest already added, above, is no new guest).
  requireBeforeAnswerDeadline(w, actor, event);
  if (broughtBy === actor.id) await requireNoDebtBlock(w, actor.id);
  if (!isAdmin(actor)) await requireRoomForGuest(w, input.event_id, broughtBy);
  const answers = mergedAnswerFields(firstAnswerDefaults(event.title), { ...answersIn(input), status: input.status ?? 'going' });
  const who = {
    id: taken?.id ?? id ?? newId(),
    event_id: input.event_id,
    user_id: null,
    guest_name: guestName,
    brought_by: broughtBy,
  };
  const row = await newAttendeeRow(w, who, answers);
  if (taken) {
    // The client re-adds a guest under the id of its own removed guest: add it afresh.
    const { id: _id, ...fresh } = row;
    await w.db.updateTable('attendees').set(fresh).where('id', '=', taken.id).execute();
  } else {
    await w.db.insertInto('attendees').values(row).execute();
  }
  w.record({ type: 'guest.added', guestName, ...attendeeRef(row, actor) });
  return row;
}

/**
 * Changes a guest's name and answers (the member who brought them, or an admin). Needs-ticket and
 * has-ticket stay exclusive. A change that changes nothing writes nothing.
 */
export async function updateGuest(w: WriteContext, actor: Actor, guestId: string, change: GuestChange): Promise<AttendeeRow> {
  const guest = await findLiveGuest(w.db, guestId);
  requireGuestOwner(actor, guest);
  const event = await requireLiveEvent(w.db, guest.event_id);
  const fields: Partial<AttendeeRow> = {
    ...(change.guest_name !== undefined ? { guest_name: guestNameOf(change.guest_name) } : {}),
    ...mergedAnswerFields(guest, { ...answersIn(change), status: change.status ?? guest.status }),
  };
  fields.transfer_status = transferStatusAfterAnswer(guest.transfer_status, fields.needs_transport === 1);
  const changed = changedKeys(guest, fields);
  if (changed.length === 0) return guest;
  if (!isAdmin(actor)) requireOpenForAnswers(w, event);
  requireBeforeAnswerDeadline(w, actor, event);
  const update = { ...fields, updated_at: w.now, seq: await w.nextSeq('attendees') };
  await w.db.updateTable('attendees').set(update).where('id', '=', guest.id).execute();
  w.record({ type: 'attendance.changed', fields: changed, ...attendeeRef(guest, actor) });
  return { ...guest, ...update };
}

/**
 * Removes a guest (the member who brought them, or an admin). A member cannot remove a guest whose
 * ticket is already bought (409); an admin can.
 */
export async function removeGuest(w: WriteContext, actor: Actor, guestId: string): Promise<void> {
  const guest = await findLiveGuest(w.db, guestId);
  requireGuestOwner(actor, guest);
  const rule = checkMemberMayDrop({ bought: toBool(guest.bought) });
  if (!isAdmin(actor) && !rule.ok) throw conflict(rule.code);
  const event = await requireLiveEvent(w.db, guest.event_id);
  if (!isAdmin(actor)) requireOpenForAnswers(w, event);
  requireBeforeAnswerDeadline(w, actor, event);
  await w.db
    .updateTable('attendees')
    .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('attendees') })
    .where('id', '=', guest.id)
    .execute();
  w.record({ type: 'guest.removed', ...attendeeRef(guest, actor) });
}
