import type { AttendeeDoc, Language, MemberDoc } from '@fankurve/shared';
import type { BusRow } from '@fankurve/shared/collections/boardings/rules';
import { shownName } from '../../i18n/memberNames.js';

/* Who a passenger is, for the bus's screens: the member's name, or the guest's with their host. */

export const namesOf = (members: readonly MemberDoc[], language: Language, self: { id: string; username: string }) =>
  new Map([[self.id, self.username], ...members.map((member) => [member.id, shownName(member.username, language)] as const)]);

/** The attendee rows of the event as the bus rules read them, by id. */
export const busRowsOf = (attendees: readonly AttendeeDoc[]): Map<string, BusRow> =>
  new Map(
    attendees.map((row) => [
      row.id,
      {
        id: row.id,
        user_id: row.user_id,
        guest_name: row.guest_name,
        brought_by: row.brought_by,
        status: row.status,
        needs_transport: row.needs_transport,
        transfer_status: row.transfer_status,
      },
    ]),
  );

/** A person's name and, for a guest, whose guest they are. */
export function personOf(
  person: { user_id: string | null; guest_name: string | null; brought_by: string | null },
  names: ReadonlyMap<string, string>,
  unknown: string,
): { name: string; host: string | null } {
  if (person.user_id !== null) return { name: names.get(person.user_id) ?? unknown, host: null };
  return { name: person.guest_name ?? unknown, host: person.brought_by ? (names.get(person.brought_by) ?? unknown) : null };
}
