import {
  firstAnswerDefaults,
  newId,
  type AddAttendeeInput,
  type AttendeeUpdateInput,
  type TransferStatus,
} from '@fankurve/shared';
import type { AttendeeRow } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { findOwnAttendance, requireLiveEvent } from './attendance.js';
import {
  answersIn,
  attendeeRef,
  findAttendeeById,
  mergedAnswerFields,
  requireActiveUser,
  newAttendeeRow,
} from './attendeeRows.js';
import { badInput, conflict, notFound } from '../errors.js';
import { updateTicketStatus } from '../tickets/tickets.js';

/*
 * The admin's side of the attendee table (docs/product.md, "Screens": /events/{id}): add a member
 * who does not attend yet, remove anyone's attendance (also with a bought ticket), set the transfer
 * status, and edit any row's ticket fields and answers (member rows and guest rows alike). A
 * member's own attendance lives in attendance.ts, guests in guests.ts.
 */

/**
 * Adds a member who does not attend yet (admin). Answers default like a first-time attendance
 * (going; the event's `firstAnswerDefaults`). The debt block does not apply: the admin decides.
 */
export async function addAttendee(w: WriteContext, actor: Actor, eventId: string, input: AddAttendeeInput): Promise<AttendeeRow> {
  requireAdmin(actor);
  const userId = typeof input.user_id === 'string' ? input.user_id.trim() : '';
  if (!userId) throw badInput('selectUser');
  const event = await requireLiveEvent(w.db, eventId);
  await requireActiveUser(w.db, userId);
  if (await findOwnAttendance(w.db, eventId, userId)) throw conflict('alreadyAttending');
  const answers = mergedAnswerFields(firstAnswerDefaults(event.title), { ...answersIn(input), status: input.status ?? 'going' });
  const who = { id: newId(), event_id: eventId, user_id: userId, guest_name: null, brought_by: null };
  const row = await newAttendeeRow(w, who, answers);
  await w.db.insertInto('attendees').values(row).execute();
  w.record({ type: 'attendance.set', status: row.status, ...attendeeRef(row, actor) });
  return row;
}

async function requireMemberRow(w: WriteContext, eventId: string, userId: string): Promise<AttendeeRow> {
  await requireLiveEvent(w.db, eventId);
  const row = await findOwnAttendance(w.db, eventId, userId);
  if (!row) throw notFound('attendanceNotFound');
  return row;
}

/** Removes a member's attendance (admin), also when the ticket is already bought. */
export async function removeAttendee(w: WriteContext, actor: Actor, eventId: string, userId: string): Promise<void> {
  requireAdmin(actor);
  const row = await requireMemberRow(w, eventId, userId);
  await w.db
    .updateTable('attendees')
    .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('attendees') })
    .where('id', '=', row.id)
    .execute();
  w.record({ type: 'attendance.removed', ...attendeeRef(row, actor) });
}

/** Sets the transfer (seat) status of a member's row: outstanding, reserved or waiting_list (admin). */
export async function setTransferStatus(
  w: WriteContext,
  actor: Actor,
  eventId: string,
  userId: string,
  transferStatus: TransferStatus,
): Promise<AttendeeRow> {
  requireAdmin(actor);
  const row = await requireMemberRow(w, eventId, userId);
  return updateTicketStatus(w, actor, row, { transfer_status: transferStatus });
}

/** The admin's edit of any live attendee row, member or guest (PUT /api/attendees/{attendeeId}). */
export async function updateAttendee(
  w: WriteContext,
  actor: Actor,
  attendeeId: string,
  input: AttendeeUpdateInput,
): Promise<AttendeeRow> {
  requireAdmin(actor);
  const row = await findAttendeeById(w.db, attendeeId);
  if (!row || toBool(row.deleted)) throw notFound('attendanceNotFound');
  return updateTicketStatus(w, actor, row, input);
}
