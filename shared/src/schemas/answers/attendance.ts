import { z } from 'zod';
import { ATTENDANCE_STATUSES, TRANSFER_STATUSES } from '../../constants.js';
import { messageAnswerWith, successAnswer, textOrNull } from './common.js';

/* Answers of attendance, the admin's attendee table and guests (server/src/http/attendance.ts, attendees.ts, guests.ts). */

/**
 * An attendee row at the REST edge (a member's attendance or a guest): booleans, the price in euros
 * (null when none is set), and `guest_id` (the row's id for a guest, else null).
 */
export const restAttendee = z
  .strictObject({
    id: z.string(),
    event_id: z.string(),
    user_id: textOrNull,
    guest_name: textOrNull,
    brought_by: textOrNull,
    status: z.enum(ATTENDANCE_STATUSES),
    needs_ticket: z.boolean(),
    has_ticket: z.boolean(),
    needs_transport: z.boolean(),
    transfer_status: z.enum(TRANSFER_STATUSES).nullable(),
    paid_by: textOrNull,
    ticket_price_id: textOrNull,
    ticket_type: textOrNull,
    is_free: z.boolean(),
    is_price_tbd: z.boolean(),
    bought: z.boolean(),
    paid: z.boolean(),
    received: z.boolean(),
    paid_requested: z.boolean(),
    paid_requested_at: textOrNull,
    received_requested: z.boolean(),
    received_requested_at: textOrNull,
    created_at: z.string(),
    updated_at: z.string(),
    price: z.number().nullable(),
    guest_id: textOrNull,
  })
  .meta({ id: 'Attendee' });
export type RestAttendee = z.infer<typeof restAttendee>;

/** An attendee row with the member's and the bringing member's usernames (null for a deleted account). */
export const attendeeWithNames = restAttendee
  .extend({ username: textOrNull, brought_by_username: textOrNull })
  .meta({ id: 'NamedAttendee' });
export type AttendeeWithNames = z.infer<typeof attendeeWithNames>;

/** One of the member's own attendances, with its event. */
export const ownAttendance = restAttendee
  .extend({ event_title: z.string(), event_date: z.string(), event_location: z.string() })
  .meta({ id: 'OwnAttendance' });
export type OwnAttendance = z.infer<typeof ownAttendance>;

/** GET /api/attendance/my. */
export const ownAttendanceAnswer = successAnswer({ attendance: z.array(ownAttendance) });
export type OwnAttendanceAnswer = z.infer<typeof ownAttendanceAnswer>;

/** POST /api/attendance/{eventId}, the ticket requests and the admin's acceptance of one: the row afterwards. */
export const attendanceAnswer = messageAnswerWith({ attendance: restAttendee });
export type AttendanceAnswer = z.infer<typeof attendanceAnswer>;

/** The admin's attendee table writes (POST /api/events/{id}/attendees is 201): the row with names. */
export const attendeeAnswer = messageAnswerWith({ attendance: attendeeWithNames });
export type AttendeeAnswer = z.infer<typeof attendeeAnswer>;

/** POST (201) and PUT /api/guests: the guest's row with names. */
export const guestAnswer = messageAnswerWith({ guest: attendeeWithNames });
export type GuestAnswer = z.infer<typeof guestAnswer>;
