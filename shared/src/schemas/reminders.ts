import { z } from 'zod';
import { msg } from './common.js';

/**
 * POST /api/events/{id}/reminders (admin, docs/product.md, Answer deadlines and reminders): remind
 * the members who have not answered now; `user_ids` narrows it to some of them (default: all).
 */
export const remindNowInput = z.object({
  user_ids: z
    .array(z.string(msg('invalidInput')).min(1).max(64), msg('invalidInput'))
    .max(1000)
    .optional(),
});
export type RemindNowInput = z.infer<typeof remindNowInput>;
