import { z } from 'zod';
import { ATTENDANCE_STATUSES, GUEST_NAME_MAX_LENGTH, TRANSFER_STATUSES } from '../constants.js';
import { checkGuestName } from '../rules/guests.js';
import { msg } from './common.js';

const status = z.enum(ATTENDANCE_STATUSES, msg('invalidInput'));

export const setAttendanceInput = z.object({
  status,
  needs_ticket: z.boolean().optional(),
  has_ticket: z.boolean().optional(),
  needs_transport: z.boolean().optional(),
});
export type SetAttendanceInput = z.infer<typeof setAttendanceInput>;

/** POST /api/events/{id}/attendees (admin): a member who does not attend yet; answers default like first-time attendance. */
export const addAttendeeInput = z.object({
  user_id: z.string(msg('selectUser')).trim().min(1, msg('selectUser')).max(64, msg('selectUser')),
  status: status.optional(),
  needs_ticket: z.boolean().optional(),
  has_ticket: z.boolean().optional(),
  needs_transport: z.boolean().optional(),
});
export type AddAttendeeInput = z.infer<typeof addAttendeeInput>;

/** PUT /api/attendance/{eventId}/user/{userId}/transfer-status (admin). */
export const transferStatusInput = z.object({ transfer_status: z.enum(TRANSFER_STATUSES, msg('invalidInput')) });
export type TransferStatusInput = z.infer<typeof transferStatusInput>;

/** A guest's name by the shared rule (rules/guests.ts `checkGuestName`), refused with its message codes. */
const guestName = z
  .string(msg('guestNameRequired'))
  .trim()
  .superRefine((name, ctx) => {
    const checked = checkGuestName(name);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.code });
  })
  .meta({ minLength: 1, maxLength: GUEST_NAME_MAX_LENGTH });

/**
 * POST /api/guests: a guest the member brings (going, needs a ticket and a seat unless told otherwise).
 * brought_by (a member id) only for admins; a member's guest is always their own.
 */
export const addGuestInput = z.object({
  guest_name: guestName,
  event_id: z.string(msg('invalidInput')).min(1, msg('invalidInput')).max(64, msg('eventNotFound')),
  status: status.optional(),
  needs_ticket: z.boolean().optional(),
  has_ticket: z.boolean().optional(),
  needs_transport: z.boolean().optional(),
  brought_by: z.string().min(1).max(64).optional(),
});
export type AddGuestInput = z.infer<typeof addGuestInput>;

/** PUT /api/guests/{id}: name and answers of a guest (the member who brought them, or an admin). */
export const updateGuestInput = z
  .object({
    guest_name: guestName.optional(),
    status: status.optional(),
    needs_ticket: z.boolean().optional(),
    has_ticket: z.boolean().optional(),
    needs_transport: z.boolean().optional(),
  })
  .strict();
export type UpdateGuestInput = z.infer<typeof updateGuestInput>;
