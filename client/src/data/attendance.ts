import {
  isDebt,
  newId,
  newGuestAttendeeDoc,
  newMemberAttendeeDoc,
  type AttendanceStatus,
  type MemberAttendanceFields,
} from '@fankurve/shared';
import type { FankurveDatabase } from './database.js';
import type { Outbox } from './outbox.js';

/** A local refusal, for instant feedback; the server checks the same rule again. */
export class LocalRuleError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

async function findOwn(db: FankurveDatabase, eventId: string, userId: string) {
  return db.attendees.findOne({ selector: { event_id: eventId, user_id: userId } }).exec();
}

/** The debt block of SPEC 4, on the device's copy: a bought, unpaid ticket of the member or a guest they brought. */
export async function hasUnpaidDebtsLocally(db: FankurveDatabase, userId: string): Promise<boolean> {
  const rows = await db.attendees.find({ selector: { bought: true, paid: false } }).exec();
  return rows.some((row) => isDebt(row) && (row.user_id === userId || (row.user_id === null && row.brought_by === userId)));
}

/**
 * Sets, changes or (null) removes the member's own attendance on the device; replication pushes it
 * when there is a connection. First-time attendance takes the defaults of SPEC 4.
 */
export async function setOwnAttendance(
  db: FankurveDatabase,
  outbox: Outbox,
  eventId: string,
  userId: string,
  status: AttendanceStatus | null,
): Promise<void> {
  const existing = await findOwn(db, eventId, userId);
  if (status === null) {
    if (!existing) return;
    if (existing.bought) throw new LocalRuleError('ticketAlreadyBought');
    outbox.add(existing.id);
    await existing.remove();
    return;
  }
  if (existing) {
    if (existing.status === status) return;
    outbox.add(existing.id);
    await existing.incrementalPatch({ status });
    return;
  }
  if (await hasUnpaidDebtsLocally(db, userId)) throw new LocalRuleError('unpaidDebts');
  const doc = newMemberAttendeeDoc({ id: newId(), event_id: eventId, user_id: userId, status, created_at: new Date().toISOString() });
  outbox.add(doc.id);
  await db.attendees.insert(doc);
}

/** Changes the member-owned flags of an existing own attendance (needs ticket, has ticket, needs transport). */
export async function updateOwnAnswer(
  db: FankurveDatabase,
  outbox: Outbox,
  eventId: string,
  userId: string,
  change: Partial<Omit<MemberAttendanceFields, 'status'>>,
): Promise<void> {
  const existing = await findOwn(db, eventId, userId);
  if (!existing) return;
  const patch = { ...change };
  if (patch.has_ticket === true) patch.needs_ticket = false;
  if (patch.needs_ticket === true) patch.has_ticket = false;
  outbox.add(existing.id);
  await existing.incrementalPatch(patch);
}

/** A guest the member brings, added on the device (offline too); the debt block applies as to the member. */
export async function addGuest(db: FankurveDatabase, outbox: Outbox, eventId: string, userId: string, guestName: string): Promise<string> {
  const name = guestName.trim();
  if (!name) throw new LocalRuleError('guestNameRequired');
  if (await hasUnpaidDebtsLocally(db, userId)) throw new LocalRuleError('unpaidDebts');
  const doc = newGuestAttendeeDoc({ id: newId(), event_id: eventId, guest_name: name, brought_by: userId, created_at: new Date().toISOString() });
  outbox.add(doc.id);
  await db.attendees.insert(doc);
  return doc.id;
}

export interface GuestChange extends Partial<Omit<MemberAttendanceFields, 'status'>> {
  guest_name?: string;
  status?: AttendanceStatus;
}

/** Changes a guest's name or answers; the server accepts it from the member who brought the guest (or an admin). */
export async function updateGuest(db: FankurveDatabase, outbox: Outbox, guestId: string, change: GuestChange): Promise<void> {
  const guest = await db.attendees.findOne(guestId).exec();
  if (!guest) return;
  const patch: GuestChange = { ...change };
  if (patch.guest_name !== undefined) {
    patch.guest_name = patch.guest_name.trim();
    if (!patch.guest_name) throw new LocalRuleError('guestNameRequired');
  }
  if (patch.has_ticket === true) patch.needs_ticket = false;
  if (patch.needs_ticket === true) patch.has_ticket = false;
  outbox.add(guest.id);
  await guest.incrementalPatch(patch);
}

/** Removes a guest (not coming). A bought ticket stays until an admin removes it. */
export async function removeGuest(db: FankurveDatabase, outbox: Outbox, guestId: string): Promise<void> {
  const guest = await db.attendees.findOne(guestId).exec();
  if (!guest) return;
  if (guest.bought) throw new LocalRuleError('ticketAlreadyBought');
  outbox.add(guest.id);
  await guest.remove();
}
