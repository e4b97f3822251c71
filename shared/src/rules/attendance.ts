import type { AttendanceStatus } from '../constants.js';
import type { AttendeeDoc } from '../docs/attendees.js';
import type { MessageCode } from '../messages.js';

/** The fields a member owns on their attendee row (ARCHITECTURE.md, sync: field ownership). */
export interface MemberAttendanceFields {
  status: AttendanceStatus;
  needs_ticket: boolean;
  has_ticket: boolean;
  needs_transport: boolean;
}

/** First-time attendance defaults (SPEC 4). */
export const FIRST_ATTENDANCE_DEFAULTS: Omit<MemberAttendanceFields, 'status'> = {
  needs_ticket: true,
  has_ticket: false,
  needs_transport: true,
};

/**
 * Merges a partial answer onto the current (or default) answer. Needs-ticket and has-ticket are
 * mutually exclusive: the flag set in this change wins; both set in one change is refused.
 */
export function mergeAttendanceAnswer(
  current: Omit<MemberAttendanceFields, 'status'> | null,
  change: Partial<MemberAttendanceFields> & { status: AttendanceStatus },
): { ok: true; value: MemberAttendanceFields } | { ok: false; code: MessageCode } {
  if (change.needs_ticket === true && change.has_ticket === true) return { ok: false, code: 'hasTicketAndNeedsTicket' };
  const base = current ?? FIRST_ATTENDANCE_DEFAULTS;
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

/** A debt is a bought, unpaid ticket (ARCHITECTURE.md, data model). */
export interface DebtRow {
  bought: boolean;
  paid: boolean;
}

export function isDebt(row: DebtRow): boolean {
  return row.bought && !row.paid;
}

/** A new attendance document as a device creates it (offline too): first-time answers, no ticket yet. */
function newAttendeeDoc(fields: {
  id: string;
  event_id: string;
  user_id: string | null;
  guest_name: string | null;
  brought_by: string | null;
  status: AttendanceStatus;
  created_at: string;
}): AttendeeDoc {
  return {
    ...fields,
    ...FIRST_ATTENDANCE_DEFAULTS,
    transfer_status: FIRST_ATTENDANCE_DEFAULTS.needs_transport ? 'outstanding' : null,
    paid_by: null,
    ticket_price_id: null,
    ticket_type: null,
    price_cents: null,
    is_free: false,
    is_price_tbd: false,
    bought: false,
    paid: false,
    received: false,
    paid_requested: false,
    received_requested: false,
    seq: 0,
  };
}

/** A member's own new attendance. */
export function newMemberAttendeeDoc(fields: {
  id: string;
  event_id: string;
  user_id: string;
  status: AttendanceStatus;
  created_at: string;
}): AttendeeDoc {
  return newAttendeeDoc({ ...fields, guest_name: null, brought_by: null });
}

/** A guest a member brings: going, needs a ticket and a seat (SPEC 4). */
export function newGuestAttendeeDoc(fields: {
  id: string;
  event_id: string;
  guest_name: string;
  brought_by: string;
  created_at: string;
}): AttendeeDoc {
  return newAttendeeDoc({ ...fields, user_id: null, status: 'going' });
}
