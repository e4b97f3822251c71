import { z } from 'zod';
import { ATTENDANCE_STATUSES } from '../constants.js';
import { msg } from './common.js';

export const setAttendanceInput = z.object({
  status: z.enum(ATTENDANCE_STATUSES, msg('invalidInput')),
  needs_ticket: z.boolean().optional(),
  has_ticket: z.boolean().optional(),
  needs_transport: z.boolean().optional(),
});
export type SetAttendanceInput = z.infer<typeof setAttendanceInput>;
