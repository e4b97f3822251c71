import { debtorOf, isDebt, type AttendeeDoc, type EventDoc } from '@fankurve/shared';

export interface EventAttendance {
  going: number;
  maybe: number;
  /** The signed-in member's own row, if they answered. */
  own: AttendeeDoc | null;
  /**
   * The member owes money for this event: their own ticket, or the ticket of a guest they brought, is
   * bought and not paid (docs/architecture.md, data model: a debt). The card turns red with 'Payment required'.
   */
  paymentRequired: boolean;
}

const EMPTY: EventAttendance = { going: 0, maybe: 0, own: null, paymentRequired: false };

/**
 * Going and maybe counts per event (users and guests), the member's own row and their debt, in one
 * pass. `eventIds` (the events the rows were read for) get an entry even without a row. For the
 * events in `countedByServer`, whose rows the device does not hold (an older season's, not opened
 * yet: docs/architecture.md, What a device keeps), the counts are the event document's; the member's
 * own rows are always on the device.
 */
export function summarizeAttendance(
  attendees: readonly AttendeeDoc[],
  userId: string,
  eventIds: readonly string[] = [],
  countedByServer: readonly Pick<EventDoc, 'id' | 'going_count' | 'maybe_count'>[] = [],
): Map<string, EventAttendance> {
  const summary = new Map<string, EventAttendance>();
  for (const id of eventIds) summary.set(id, { going: 0, maybe: 0, own: null, paymentRequired: false });
  for (const row of attendees) {
    let entry = summary.get(row.event_id);
    if (!entry) {
      entry = { going: 0, maybe: 0, own: null, paymentRequired: false };
      summary.set(row.event_id, entry);
    }
    if (row.status === 'going') entry.going++;
    else if (row.status === 'maybe') entry.maybe++;
    if (row.user_id === userId) entry.own = row;
    if (debtorOf(row) === userId && isDebt(row)) entry.paymentRequired = true;
  }
  for (const event of countedByServer) {
    const entry = summary.get(event.id) ?? { going: 0, maybe: 0, own: null, paymentRequired: false };
    summary.set(event.id, { ...entry, going: event.going_count, maybe: event.maybe_count });
  }
  return summary;
}

export const attendanceOf = (summary: Map<string, EventAttendance>, eventId: string): EventAttendance =>
  summary.get(eventId) ?? EMPTY;
