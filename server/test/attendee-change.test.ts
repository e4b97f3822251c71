import { describe, expect, it } from 'vitest';
import type { AttendeeDoc } from '@fankurve/shared';
import { attendeeActionOf, describeAttendeeChange, type AttendeeChange } from '../src/domain/attendance/attendeeChange.js';

/** What a pushed attendee change means is decided in one place; these are its cases. */

const ownRow = { id: 'a1', event_id: 'e1', user_id: 'u1', brought_by: null, status: 'going' } as unknown as AttendeeDoc;
const guestRow = { id: 'g1', event_id: 'e1', user_id: null, brought_by: 'u1', status: 'going' } as unknown as AttendeeDoc;

function change(overrides: Partial<AttendeeChange>): AttendeeChange {
  return { id: 'a1', kind: 'update', fields: {}, sent: {}, master: ownRow, ...overrides };
}

describe('a pushed attendee change', () => {
  it('is named by what the member meant', () => {
    expect(attendeeActionOf(change({ kind: 'create', master: undefined, sent: { user_id: 'u1', event_id: 'e1' } }))).toBe(
      'attendance.set',
    );
    expect(attendeeActionOf(change({ kind: 'delete' }))).toBe('attendance.remove');
    expect(attendeeActionOf(change({ fields: { status: 'maybe' } }))).toBe('attendance.change');
    expect(attendeeActionOf(change({ fields: { paid_requested: true } }))).toBe('request.change');
    expect(attendeeActionOf(change({ fields: { paid_requested: true, needs_transport: true } }))).toBe('attendance.change');
    expect(attendeeActionOf(change({ kind: 'create', master: undefined, sent: { user_id: null, event_id: 'e1' } }))).toBe(
      'guest.add',
    );
    expect(attendeeActionOf(change({ id: 'g1', master: guestRow, fields: { guest_name: 'Kai' } }))).toBe('guest.change');
    expect(attendeeActionOf(change({ id: 'g1', master: guestRow, fields: { received_requested: true } }))).toBe('guest.change');
    expect(attendeeActionOf(change({ id: 'g1', master: guestRow, kind: 'delete' }))).toBe('guest.remove');
  });

  it('names its event from the server row, else from what the device sent', () => {
    expect(describeAttendeeChange(change({ fields: { status: 'maybe' } }))).toEqual({
      eventId: 'e1',
      action: 'attendance.change',
    });
    expect(
      describeAttendeeChange(change({ kind: 'create', master: undefined, sent: { user_id: 'u1', event_id: 'e9' } })),
    ).toEqual({ eventId: 'e9', action: 'attendance.set' });
    expect(describeAttendeeChange(change({ kind: 'create', master: undefined, sent: { user_id: 'u1' } }))).toEqual({
      eventId: null,
      action: 'attendance.set',
    });
  });
});
