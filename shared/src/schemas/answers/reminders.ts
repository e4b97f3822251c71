import { z } from 'zod';
import { successAnswer } from './common.js';

/* Answers of the admin's reminders by hand (server/src/http/reminders.ts; docs/product.md, Answer deadlines and reminders). */

/** A member who has not answered the event (no attendee row of their own, live or removed). */
export const unansweredMember = z
  .strictObject({
    user_id: z.string(),
    username: z.string(),
    /** When an admin last reminded them of this event by hand (ISO 8601 UTC), or null. */
    reminded_at: z.string().nullable(),
    /** From when they can be reminded by hand again (ISO 8601 UTC); null: now. */
    remind_again_at: z.string().nullable(),
  })
  .meta({ id: 'UnansweredMember' });
export type UnansweredMember = z.infer<typeof unansweredMember>;

/** GET /api/events/{id}/unanswered (admin): the members who have not answered, by name. */
export const unansweredAnswer = successAnswer({ members: z.array(unansweredMember) });
export type UnansweredAnswer = z.infer<typeof unansweredAnswer>;

/** A member reminded by hand, and how: web push (a device subscribed, the topic on) or e-mail. */
export const remindedMember = z
  .strictObject({ user_id: z.string(), username: z.string(), channel: z.enum(['push', 'mail']) })
  .meta({ id: 'RemindedMember' });
export type RemindedMember = z.infer<typeof remindedMember>;

/**
 * A member not reminded, and why: `recentlyReminded` (by hand within the last hour), `answered`
 * (they have answered by now), `unreachable` (no push and no e-mail: SMTP not set), `self` (the
 * admin who asked).
 */
export const skippedMember = z
  .strictObject({
    user_id: z.string(),
    username: z.string(),
    reason: z.enum(['recentlyReminded', 'answered', 'unreachable', 'self']),
  })
  .meta({ id: 'SkippedMember' });
export type SkippedMember = z.infer<typeof skippedMember>;

/** POST /api/events/{id}/reminders (admin): who was reminded now and who was not. */
export const remindNowAnswer = successAnswer({ reminded: z.array(remindedMember), skipped: z.array(skippedMember) });
export type RemindNowAnswer = z.infer<typeof remindNowAnswer>;
