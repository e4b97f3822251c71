import { CLUB_CASH_DESK, eurosToCents, type TicketStatusInput } from '@fankurve/shared';
import type { AttendeeRow } from '../db/schema.js';
import { toInt, type WriteContext } from '../db/store.js';
import { requireAdmin, type Actor } from './actor.js';
import { badInput, notFound } from './errors.js';

/**
 * The admin-owned ticket fields of an attendee row: bought, paid, received, paid_by (a member or the
 * club cash desk), ticket price option and price. Marking paid or received settles the member's
 * matching request. Members never write these fields (not through REST, not through a push).
 */
export async function updateTicketStatus(
  w: WriteContext,
  actor: Actor,
  attendee: AttendeeRow | undefined,
  input: TicketStatusInput,
): Promise<AttendeeRow> {
  requireAdmin(actor);
  if (!attendee || attendee.deleted) throw notFound('attendanceNotFound');
  if (input.paid_by && input.paid_by !== CLUB_CASH_DESK) {
    const payer = await w.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', input.paid_by)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!payer) throw badInput('invalidInput');
  }
  const fields: Partial<AttendeeRow> = {};
  if (input.bought !== undefined) fields.bought = toInt(input.bought);
  if (input.paid !== undefined) {
    fields.paid = toInt(input.paid);
    if (input.paid) Object.assign(fields, { paid_requested: 0, paid_requested_at: null });
  }
  if (input.received !== undefined) {
    fields.received = toInt(input.received);
    if (input.received) Object.assign(fields, { received_requested: 0, received_requested_at: null });
  }
  if (input.paid_by !== undefined) fields.paid_by = input.paid_by;
  if (input.ticket_price_id !== undefined) fields.ticket_price_id = input.ticket_price_id;
  if (input.price !== undefined) fields.price_cents = input.price === null ? null : eurosToCents(input.price);
  const update = { ...fields, updated_at: w.now, seq: await w.nextSeq('attendees') };
  await w.db.updateTable('attendees').set(update).where('id', '=', attendee.id).execute();
  return { ...attendee, ...update };
}

/** The live attendee row of a member at an event (not a guest). */
export function findMemberAttendee(w: WriteContext, eventId: string, userId: string) {
  return w.db
    .selectFrom('attendees')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}
